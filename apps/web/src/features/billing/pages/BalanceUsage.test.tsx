import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { USAGE, usage } from '../money-ops-fixtures';
import { BALANCE, balance, BILLING, billingHandlers, subscription } from '../test-fixtures';

function usageApi(extra: Record<string, unknown> = {}) {
  return mockApi({
    ...billingHandlers(subscription()),
    [BALANCE]: json(balance(12050)),
    [`GET ${USAGE}`]: json(usage()),
    ...(extra as Record<string, never>),
  });
}

const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

async function openUsage() {
  const token = signIn();
  renderApp(`${BILLING}/dashboard`);
  const user = userEvent.setup();
  const region = await screen.findByRole('region', { name: 'Balance usage' });
  return { user, region, token };
}

describe('Billing usage: the balance’s usage report', () => {
  it('asks for this month by service; shows the days as a chart and the groups with their total', async () => {
    vi.useFakeTimers({ now: new Date('2099-03-17T15:00:00Z'), toFake: ['Date'] });
    const mock = usageApi();
    const { user, region } = await openUsage();
    const table = await within(region).findByRole('table', { name: 'Usage by service' });
    expect(queryOf(mock.callsTo(`GET ${USAGE}`)[0]!.url)).toEqual({
      from: '2099-03-01',
      to: '2099-03-17',
      group_by: 'service',
    });
    expect(within(region).getByLabelText('From')).toHaveValue('2099-03-01');
    expect(within(region).getByLabelText('To')).toHaveValue('2099-03-17');
    expect(within(table).getByRole('row', { name: /Shipping label/ })).toHaveTextContent('$10.00');
    expect(within(table).getByRole('row', { name: /Total/ })).toHaveTextContent('$12.75');
    expect(
      within(region).getByRole('figure', { name: 'Spent per day: $12.75 in all' }),
    ).toBeVisible();

    mock.on(
      `GET ${USAGE}`,
      json(
        usage({
          group_by: 'client',
          groups: [{ key: null, label: 'No workspace', amount: 1275, quantity: 95, charges: 6 }],
        }),
      ),
    );
    await user.click(within(region).getByRole('radio', { name: 'Workspace' }));
    const byWorkspace = await within(region).findByRole('table', { name: 'Usage by workspace' });
    expect(within(byWorkspace).getByRole('row', { name: /No workspace/ })).toBeVisible();
    expect(queryOf(mock.callsTo(`GET ${USAGE}`).at(-1)!.url).group_by).toBe('client');
    vi.useRealTimers();
  });

  it('checks the dates before asking and shows the server’s refusal at the field', async () => {
    const mock = usageApi();
    const { user, region } = await openUsage();
    await within(region).findByRole('table', { name: 'Usage by service' });
    const calls = mock.callsTo(`GET ${USAGE}`).length;
    const from = within(region).getByLabelText('From');
    const to = within(region).getByLabelText('To');

    await user.clear(from);
    await user.type(from, '2099-04-02');
    await user.clear(to);
    await user.type(to, '2099-04-01');
    expect(
      await within(region).findByText('The end date must be on or after the start date.'),
    ).toBeVisible();
    expect(to).toHaveAttribute('aria-invalid', 'true');
    await user.clear(from);
    await user.type(from, '2097-01-01');
    expect(within(region).getByText('Ask for at most 366 days at once.')).toBeVisible();
    expect(mock.callsTo(`GET ${USAGE}`)).toHaveLength(calls);

    mock.on(
      `GET ${USAGE}`,
      apiError(400, 'VALIDATION_ERROR', 'Check the dates.', [
        { field: 'querystring.from', message: 'Usage is kept for 2 years.' },
      ]),
    );
    await user.clear(from);
    await user.type(from, '2099-03-20');
    expect(await within(region).findByText('Usage is kept for 2 years.')).toBeVisible();
    expect(from).toHaveAttribute('aria-invalid', 'true');
    expect(within(region).queryByText('The usage could not be loaded')).toBeNull();
  });

  it('says when nothing was used in the dates', async () => {
    usageApi({ [`GET ${USAGE}`]: json(usage({ total: 0, groups: [], days: [] })) });
    const { region } = await openUsage();
    expect(await within(region).findByText('No usage in these dates')).toBeVisible();
    expect(within(region).queryByRole('table')).toBeNull();
  });

  it('downloads the same report as CSV with the bearer token, under the server’s file name', async () => {
    const mock = usageApi({});
    const { user, region, token } = await openUsage();
    await within(region).findByRole('table', { name: 'Usage by service' });
    mock.on(
      `GET ${USAGE}`,
      new Response('group,amount\nShipping label,10.00\n', {
        headers: {
          'Content-Type': 'text/csv',
          'Content-Disposition': 'attachment; filename="usage-2099-03.csv"',
        },
      }),
    );
    const blobs: Blob[] = [];
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        blobs.push(blob);
        return 'blob:usage';
      },
      revokeObjectURL: () => {},
    });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download);
    });
    await user.click(within(region).getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saved).toEqual(['usage-2099-03.csv']));
    const call = mock.callsTo(`GET ${USAGE}`).at(-1)!;
    expect(call.headers.get('Authorization')).toBe(`Bearer ${token}`);
    expect(queryOf(call.url)).toMatchObject({ format: 'csv', group_by: 'service' });
    expect(await blobs[0]?.text()).toContain('Shipping label');
  });
});
