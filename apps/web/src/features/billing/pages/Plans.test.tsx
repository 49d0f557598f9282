import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useBillingStore } from '../../../lib/billing-store';
import { apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { ORG_ID } from '../../../test/tenant-fixtures';
import { BILLING, billingHandlers, CHANGE, preview, PREVIEW, subscription } from '../test-fixtures';

const plansRegion = () => screen.findByRole('region', { name: 'Plans' });

describe('Billing plans', () => {
  it('no subscription: the plan guard opens plans; Subscribe on each, Email Now for CUSTOM', async () => {
    mockApi(billingHandlers(null));
    signIn();
    const app = renderApp(`${BILLING}/subscription`);
    await waitFor(() => expect(app.location()).toBe(`${BILLING}/plans`));
    const region = await plansRegion();
    for (const name of ['Standard', 'Professional', 'Business']) {
      expect(
        await within(region).findByRole('button', { name: `Subscribe to ${name}` }),
      ).toBeVisible();
    }
    expect(within(region).getByRole('link', { name: 'Email Now' })).toHaveAttribute(
      'href',
      'mailto:support@example.com?subject=Custom%20plan',
    );
    expect(within(region).getByText('$19.00 / month')).toBeVisible();
    expect(within(region).getByText('14-day free trial')).toBeVisible();
    expect(within(region).queryByText(/Current plan/)).toBeNull();
    // Only the plans tab without a subscription.
    const nav = screen.getByRole('navigation', { name: 'Billing' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Plans']);
  });

  it('marks the plan chosen on /register?plan= (the register plan of spec §4)', async () => {
    mockApi(billingHandlers(null));
    signIn();
    useBillingStore.getState().setRegisterPlan('BUSINESS');
    renderApp(`${BILLING}/plans`);
    const region = await plansRegion();
    const business = await within(region).findByRole('article', { name: 'Business' });
    expect(within(business).getByText('Chosen at sign-up')).toBeVisible();
    expect(within(region).getAllByText('Chosen at sign-up')).toHaveLength(1);
    useBillingStore.getState().reset();
  });

  it('a trial: Subscribe everywhere, the trial plan marked', async () => {
    mockApi(billingHandlers(subscription({ status: 'TRIALING', is_active: true, amount: 0 })));
    signIn();
    renderApp(`${BILLING}/plans`);
    const region = await plansRegion();
    const pro = await within(region).findByRole('article', { name: 'Professional' });
    expect(within(pro).getByText('Current plan (trial)')).toBeVisible();
    expect(within(pro).getByRole('button', { name: 'Subscribe to Professional' })).toBeVisible();
    expect(within(region).getByRole('button', { name: 'Subscribe to Business' })).toBeVisible();
    expect(within(region).queryByRole('button', { name: /^(Upgrade|Downgrade)/ })).toBeNull();
  });

  it('active on PROFESSIONAL: Upgrade to Business, Downgrade to Standard, Email Now; Compare', async () => {
    mockApi(billingHandlers(subscription()));
    signIn();
    renderApp(`${BILLING}/plans`);
    const region = await plansRegion();
    const pro = await within(region).findByRole('article', { name: 'Professional' });
    expect(within(pro).getByText('Current plan')).toBeVisible();
    expect(within(pro).queryByRole('button')).toBeNull();
    expect(within(region).getByRole('button', { name: 'Upgrade to Business' })).toBeVisible();
    expect(within(region).getByRole('button', { name: 'Downgrade to Standard' })).toBeVisible();
    expect(within(region).getByRole('link', { name: 'Email Now' })).toBeVisible();
    expect(within(region).queryByRole('button', { name: /^Subscribe/ })).toBeNull();

    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'Compare' }));
    const table = await screen.findByRole('table', { name: /Plans compared/ });
    expect(
      within(table).getByRole('columnheader', { name: 'Professional (current)' }),
    ).toBeVisible();
    const workspaces = within(table).getByRole('row', { name: /^Workspaces/ });
    expect(workspaces).toHaveTextContent('Workspaces31050Unlimited');
  });

  it('a downgrade over a limit: warning, "I\'ve understood" before Confirm, Idempotency-Key', async () => {
    const mock = mockApi({
      ...billingHandlers(subscription()),
      [PREVIEW]: json(preview('STANDARD', 'DOWNGRADE', true)),
      [CHANGE]: json(subscription({ plan: { ...subscription().plan, type: 'STANDARD' } })),
    });
    signIn();
    renderApp(`${BILLING}/plans`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Downgrade to Standard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Downgrade to Standard' });
    expect(
      await within(dialog).findByText(/You have 5 workspaces; the Standard plan allows 3\./),
    ).toBeVisible();
    expect(within(dialog).getByRole('row', { name: /Total due today/ })).toHaveTextContent('$0.00');
    expect(within(dialog).getByText('Next payment date: 04/01/2099')).toBeVisible();
    expect(mock.callsTo(PREVIEW)[0]?.body).toEqual({ plan: 'STANDARD' });

    const confirm = within(dialog).getByRole('button', { name: 'Confirm' });
    expect(confirm).toBeDisabled();
    await user.click(within(dialog).getByRole('checkbox', { name: "I've understood" }));
    expect(confirm).toBeEnabled();
    await user.click(confirm);

    expect(await screen.findByText('Your organization is now on the Standard plan.')).toBeVisible();
    const [call] = mock.callsTo(CHANGE);
    expect(call?.body).toEqual({ plan: 'STANDARD' });
    expect(call?.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('an upgrade with no warning confirms at once; 402 PAYMENT_FAILED shows the server message', async () => {
    const mock = mockApi({
      ...billingHandlers(subscription()),
      [PREVIEW]: json(preview('BUSINESS', 'UPGRADE', false)),
      [CHANGE]: apiError(402, 'PAYMENT_FAILED', 'Your card was declined.'),
    });
    signIn();
    renderApp(`${BILLING}/plans`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Upgrade to Business' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade to Business' });
    await within(dialog).findByRole('table', { name: 'What changes on your invoice' });
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Your card was declined.');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(mock.callsTo(CHANGE)).toHaveLength(2));
    // A fresh key per user action.
    const keys = mock.callsTo(CHANGE).map((c) => c.headers.get('Idempotency-Key'));
    expect(new Set(keys).size).toBe(2);
  });

  it('back from a failed checkout: the reason in a red alert, saying to try another card', async () => {
    const id = '5c000000-0000-4000-8000-000000000001';
    mockApi({
      ...billingHandlers(null),
      [`GET /v1/organizations/${ORG_ID}/checkout/${id}/`]: json({
        id,
        url: 'https://pay.example.com/x',
        status: 'FAILED',
        kind: 'SUBSCRIPTION',
        failure_message: 'Your card has insufficient funds. Try another card.',
        expires_at: '2099-01-01T00:00:00.000Z',
      }),
    });
    signIn();
    renderApp(`${BILLING}/plans?checkout=${id}`);
    const alert = await screen.findByTestId('checkout-failed');
    // The gateway's reason as it is: it says what to do, once.
    expect(alert).toHaveTextContent('Your card has insufficient funds. Try another card.');
    expect(alert).not.toHaveTextContent(/another card.*another card/);
  });
});
