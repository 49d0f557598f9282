import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { ORG_ID } from '../../../test/tenant-fixtures';
import { BILLING, billingHandlers, entry, SUBS, subscription, subsPage } from '../test-fixtures';

const CARD = '6c000000-0000-4000-8000-000000000001';
const UNSUBSCRIBE = `GET /v1/organizations/${ORG_ID}/unsubscription/`;

describe('Billing subscription', () => {
  it('the plan, status, amount and MM/DD/YYYY period; the subscriber unsubscribes after confirming', async () => {
    // The server's list follows the unsubscription, as the rereading after it expects.
    let unsubscribed = false;
    const current = () => subscription({ cancel_at_period_end: unsubscribed });
    const mock = mockApi({
      ...billingHandlers(subscription()),
      [SUBS]: () => json(subsPage(entry(current()))),
      [UNSUBSCRIBE]: () => {
        unsubscribed = true;
        return json(current());
      },
    });
    signIn();
    const app = renderApp(BILLING);
    await waitFor(() => expect(app.location()).toBe(`${BILLING}/subscription`));
    const card = await screen.findByTestId('billing-subscription');
    expect(within(card).getByRole('heading', { name: 'Professional plan' })).toBeVisible();
    expect(within(card).getByText('Active')).toBeVisible();
    expect(within(card).getByText('$49.00 / month')).toBeVisible();
    expect(within(card).getByText('03/01/2099 – 04/01/2099')).toBeVisible();
    await waitFor(() => expect(document.title).toBe('Billing Subscription | Portolan'));
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    const tabs = screen.getByRole('navigation', { name: 'Organization settings' });
    expect(within(tabs).getByRole('link', { name: 'Billing' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    const user = userEvent.setup();
    await user.click(within(card).getByRole('button', { name: 'Unsubscribe' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unsubscribe?' });
    expect(mock.callsTo(UNSUBSCRIBE)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Unsubscribe' }));
    expect(
      await screen.findByText('You unsubscribed. The subscription ends on 04/01/2099.'),
    ).toBeVisible();
    expect(mock.callsTo(UNSUBSCRIBE)).toHaveLength(1);
    expect(await screen.findByText(/will not\s+renew/)).toBeVisible();
  });

  it('someone else subscribed: no Unsubscribe; a past-due renewal says when it is retried', async () => {
    mockApi(
      billingHandlers(
        subscription({
          subscriber_id: '1a2b3c4d-0000-4000-8000-000000000001',
          status: 'PAST_DUE',
          retry_count: 1,
          next_retry_at: '2099-04-04T12:00:00.000Z',
        }),
        'ADMIN',
      ),
    );
    signIn();
    renderApp(`${BILLING}/subscription`);
    expect(
      await screen.findByText('Only the member who subscribed can unsubscribe.'),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
    expect(screen.getByText(/we will try again on 04\/04\/2099/)).toBeVisible();
    expect(screen.getByText('Past due')).toBeVisible();
  });

  it('a trial says when it ends and what then happens, with a saved card and without', async () => {
    const trial = subscription({
      status: 'TRIALING',
    });
    mockApi(billingHandlers(trial));
    signIn();
    renderApp(`${BILLING}/subscription`);
    const card = await screen.findByTestId('billing-subscription');
    expect(within(card).getByText('Trial ends on')).toBeVisible();
    expect(within(card).queryByText('Renews on')).toBeNull();
    expect(screen.getByText(/^Your free trial ends on 04\/01\/2099\./)).toHaveTextContent(
      /No card is saved, so nothing will be charged: the subscription then goes past due, is retried for 7 days and expires/,
    );
    expect(screen.getByRole('link', { name: 'add a card' })).toBeVisible();
  });

  it('a trial with a saved card says the plan then starts, charged to it', async () => {
    const trial = subscription({
      status: 'TRIALING',
      default_payment_method_id: CARD,
    });
    mockApi(billingHandlers(trial));
    signIn();
    renderApp(`${BILLING}/subscription`);
    const card = await screen.findByTestId('billing-subscription');
    expect(within(card).getByText('Trial ends on')).toBeVisible();
    expect(screen.getByText(/^Your free trial ends on 04\/01\/2099\./)).toHaveTextContent(
      /Then the Professional plan starts at \$\d+\.\d\d \/ month, charged to your saved card\./,
    );
  });

  it('STAFF are sent to their dashboard', async () => {
    mockApi(billingHandlers(subscription(), 'STAFF'));
    signIn();
    const app = renderApp(`${BILLING}/subscription`);
    await waitFor(() => expect(app.location()).toBe('/ps/dashboard'));
  });

  it('usage against each limit, "Unlimited" where there is none', async () => {
    mockApi(billingHandlers(subscription()));
    signIn();
    renderApp(`${BILLING}/dashboard`);
    const workspaces = await screen.findByTestId('usage-max_workspaces');
    expect(workspaces).toHaveTextContent('5 of 10');
    expect(screen.getByRole('progressbar', { name: 'Workspaces: 5 of 10 used' })).toHaveAttribute(
      'aria-valuenow',
      '50',
    );
    expect(screen.getByTestId('usage-max_external_users')).toHaveTextContent('7 · Unlimited');
    expect(screen.queryByRole('progressbar', { name: /External users/ })).toBeNull();
  });
});
