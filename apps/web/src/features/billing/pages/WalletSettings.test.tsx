import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { CLIENT_ID, workspace } from '../../../test/tenant-fixtures';
import {
  ALERTS,
  alerts,
  AUTO_TOP_UP,
  autoTopUp,
  clientCap,
  CLIENTS,
  ORG_CAP,
  spendCap,
} from '../money-ops-fixtures';
import {
  BALANCE,
  balance,
  BILLING,
  billingHandlers,
  FUND_PACKAGES,
  fundPackage,
  pageOf,
  subscription,
} from '../test-fixtures';

const starter = fundPackage(1, { name: 'Starter', price: 5000, credit: 5000 });
const team = fundPackage(2, { name: 'Team', price: 20000, credit: 21000 });

function walletApi(extra: Record<string, unknown> = {}) {
  return mockApi({
    ...billingHandlers(subscription()),
    [BALANCE]: json(balance(12050)),
    [FUND_PACKAGES]: json(pageOf([starter, team])),
    [`GET ${AUTO_TOP_UP}`]: json(autoTopUp()),
    [`GET ${ORG_CAP}`]: json(spendCap({ spent_this_period: 4200 })),
    [`GET ${ALERTS}`]: json(alerts()),
    [CLIENTS]: json(pageOf([workspace({ name: 'Harbour' })])),
    [`GET ${clientCap()}`]: json(spendCap({ monthly_limit: 10000, spent_this_period: 2500 })),
    ...(extra as Record<string, never>),
  });
}

async function openWallet() {
  signIn();
  renderApp(`${BILLING}/wallet`);
  const user = userEvent.setup();
  return { user, autoForm: await screen.findByRole('form', { name: 'Auto top-up' }) };
}

describe('Billing wallet settings: auto top-up', () => {
  it('asks for a threshold and a package when switched on, then saves them in minor units', async () => {
    const mock = walletApi({
      [`PUT ${AUTO_TOP_UP}`]: (call: { body: unknown }) =>
        json(autoTopUp(call.body as Partial<ReturnType<typeof autoTopUp>>)),
    });
    const { user, autoForm } = await openWallet();
    expect(within(autoForm).getByRole('button', { name: 'Save auto top-up' })).toBeDisabled();
    expect(screen.getByText('No automatic top-up yet.')).toBeVisible();

    await user.click(within(autoForm).getByRole('switch', { name: /Top up automatically/ }));
    await user.click(within(autoForm).getByRole('button', { name: 'Save auto top-up' }));
    expect(await within(autoForm).findByText('Give the threshold.')).toBeVisible();
    expect(within(autoForm).getByText('Choose the fund package to buy.')).toBeVisible();
    expect(mock.callsTo(`PUT ${AUTO_TOP_UP}`)).toHaveLength(0);

    await user.type(
      within(autoForm).getByRole('textbox', { name: /When the balance falls below/ }),
      '25.5',
    );
    await user.click(within(autoForm).getByRole('combobox', { name: /Fund package to buy/ }));
    await user.click(await screen.findByRole('option', { name: 'Team: pay $200.00, get $210.00' }));
    await user.click(within(autoForm).getByRole('button', { name: 'Save auto top-up' }));

    expect(await screen.findByText('Auto top-up is on.')).toBeVisible();
    expect(mock.callsTo(`PUT ${AUTO_TOP_UP}`)[0]?.body).toEqual({
      enabled: true,
      threshold: 2550,
      fund_package_id: team.id,
    });
  });

  it('without a default card, says so and links to the cards page', async () => {
    walletApi({
      [`GET ${AUTO_TOP_UP}`]: json(
        autoTopUp({ threshold: 1000, fund_package_id: starter.id, enabled: false }),
      ),
      [`PUT ${AUTO_TOP_UP}`]: apiError(
        409,
        'NO_PAYMENT_METHOD',
        'Auto top-up pays with the default card, and there is none.',
      ),
    });
    const { user, autoForm } = await openWallet();
    expect(
      within(autoForm).getByRole('textbox', { name: /When the balance falls below/ }),
    ).toHaveValue('10');
    await user.click(within(autoForm).getByRole('switch', { name: /Top up automatically/ }));
    await user.click(within(autoForm).getByRole('button', { name: 'Save auto top-up' }));
    const alert = await within(autoForm).findByRole('alert');
    expect(alert).toHaveTextContent('Auto top-up pays with the default card, and there is none.');
    expect(
      within(alert).getByRole('link', { name: /Add a card or choose the default one/ }),
    ).toHaveAttribute('href', `${BILLING}/cards`);
  });

  it('shows the last attempt declined with its reason and the failures in a row', async () => {
    walletApi({
      [`GET ${AUTO_TOP_UP}`]: json(
        autoTopUp({
          enabled: true,
          threshold: 1000,
          fund_package_id: starter.id,
          consecutive_failures: 2,
          last_attempt: {
            id: '1d000000-0000-4000-8000-000000000001',
            status: 'FAILED',
            amount: 5000,
            credit: 5000,
            currency: 'usd',
            failure_reason: 'Your card was declined.',
            created: '2099-03-02T12:00:00.000Z',
            settled: '2099-03-02T12:00:01.000Z',
          },
        }),
      ),
    });
    await openWallet();
    expect(screen.getByText('2 automatic top-ups in a row were declined')).toBeVisible();
    const last = screen.getByRole('group', { name: 'Last automatic top-up' });
    expect(last).toHaveTextContent('$50.00');
    expect(within(last).getByText('Declined')).toBeVisible();
    expect(last).toHaveTextContent('Declined: Your card was declined.');
  });
});

describe('Billing wallet settings: low-balance alerts', () => {
  it('adds, checks and removes thresholds, at most five, and saves them in minor units', async () => {
    const mock = walletApi({
      [`GET ${ALERTS}`]: json(alerts(5000)),
      [`PUT ${ALERTS}`]: json(alerts(5000, 1000)),
    });
    const { user } = await openWallet();
    const form = screen.getByRole('form', { name: 'Low-balance alerts' });
    expect(within(form).getByRole('textbox', { name: /Threshold 1/ })).toHaveValue('50');

    const add = within(form).getByRole('button', { name: 'Add threshold' });
    await user.click(add);
    await user.type(within(form).getByRole('textbox', { name: /Threshold 2/ }), '50');
    await user.click(add);
    await user.click(within(form).getByRole('button', { name: 'Save alerts' }));
    expect(await within(form).findByText('Give each threshold once.')).toBeVisible();
    expect(within(form).getByText('Give the threshold.')).toBeVisible();
    expect(mock.callsTo(`PUT ${ALERTS}`)).toHaveLength(0);

    await user.click(add);
    await user.click(add);
    expect(within(form).getAllByRole('textbox')).toHaveLength(5);
    expect(add).toBeDisabled();
    expect(within(form).getByText('At most 5 thresholds.')).toBeVisible();
    for (const n of [5, 4, 3]) {
      await user.click(within(form).getByRole('button', { name: `Remove threshold ${n}` }));
    }
    const second = within(form).getByRole('textbox', { name: /Threshold 2/ });
    await user.clear(second);
    await user.type(second, '10');
    await user.click(within(form).getByRole('button', { name: 'Save alerts' }));
    expect(await screen.findByText('The low-balance alerts are saved.')).toBeVisible();
    expect(mock.callsTo(`PUT ${ALERTS}`)[0]?.body).toEqual({ thresholds: [5000, 1000] });
  });

  it('puts the server’s refusal of one threshold on its field', async () => {
    walletApi({
      [`GET ${ALERTS}`]: json(alerts(5000)),
      [`PUT ${ALERTS}`]: apiError(400, 'VALIDATION_ERROR', 'Check the thresholds.', [
        { field: 'body.thresholds.0', message: 'The threshold is too large.' },
      ]),
    });
    const { user } = await openWallet();
    const form = screen.getByRole('form', { name: 'Low-balance alerts' });
    const first = within(form).getByRole('textbox', { name: /Threshold 1/ });
    await user.clear(first);
    await user.type(first, '9000');
    await user.click(within(form).getByRole('button', { name: 'Save alerts' }));
    expect(await within(form).findByText('The threshold is too large.')).toBeVisible();
    expect(first).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('Billing wallet settings: spend caps', () => {
  it('shows what the organization spent this month and caps it', async () => {
    const mock = walletApi({
      [`PUT ${ORG_CAP}`]: json(spendCap({ monthly_limit: 50000, spent_this_period: 4200 })),
    });
    const { user } = await openWallet();
    const section = screen.getByRole('region', { name: 'Monthly spend cap' });
    expect(section).toHaveTextContent('$42.00 spent since 03/01/2099. No cap.');
    await user.click(within(section).getByRole('radio', { name: 'Cap at an amount' }));
    await user.click(within(section).getByRole('button', { name: 'Save cap' }));
    expect(await within(section).findByText('Give the monthly limit.')).toBeVisible();
    await user.type(within(section).getByRole('textbox', { name: /Monthly limit/ }), '500');
    await user.click(within(section).getByRole('button', { name: 'Save cap' }));
    expect(await screen.findByText('The monthly cap of Demo Shipping Co. is saved.')).toBeVisible();
    expect(mock.callsTo(`PUT ${ORG_CAP}`)[0]?.body).toEqual({ monthly_limit: 50000 });
    expect(section).toHaveTextContent('$42.00 of $500.00 spent since 03/01/2099.');
    expect(
      within(section).getByRole('progressbar', {
        name: 'Demo Shipping Co.: $42.00 of $500.00 spent this month',
      }),
    ).toHaveAttribute('aria-valuenow', '8');
  });

  it('edits a workspace’s cap in a dialog; removing it sends null', async () => {
    const mock = walletApi({
      [`PUT ${clientCap()}`]: json(spendCap({ monthly_limit: null, spent_this_period: 2500 })),
    });
    const { user } = await openWallet();
    const table = await screen.findByRole('table', { name: 'Workspace caps' });
    const row = within(table).getByRole('row', { name: /Harbour/ });
    await waitFor(() => expect(row).toHaveTextContent('$100.00'));
    expect(row).toHaveTextContent('$25.00');

    await user.click(within(row).getByRole('button', { name: 'Edit the cap of Harbour' }));
    const dialog = await screen.findByRole('dialog', { name: 'Monthly cap of Harbour' });
    expect(within(dialog).getByRole('textbox', { name: /Monthly limit/ })).toHaveValue('100');
    await user.click(within(dialog).getByRole('radio', { name: 'No cap' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save cap' }));
    expect(await screen.findByText('Harbour has no monthly cap now.')).toBeVisible();
    expect(mock.callsTo(`PUT ${clientCap(CLIENT_ID)}`)[0]?.body).toEqual({ monthly_limit: null });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(row).toHaveTextContent('No cap');
  });
});
