import type { Checkout } from '@portolan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { ORG_ID } from '../../../test/tenant-fixtures';
import { hostedPage } from '../api/checkout-api';
import {
  BALANCE,
  balance,
  balanceService,
  BILLING,
  billingHandlers,
  CARDS,
  FUND_PACKAGES,
  fundPackage,
  invoice,
  INVOICES,
  HISTORY,
  ledgerEntry,
  pageOf,
  SERVICES,
  subscription,
  TOP_UP,
} from '../test-fixtures';

// jsdom cannot leave for the gateway's page: the hand-over is recorded instead. (Not a module
// mock: with one module graph per worker, a file before this one may have loaded the module.)
const hosted = { calls: [] as Checkout[] };
const leave = hostedPage.open;
beforeEach(() => {
  hosted.calls = [];
  hostedPage.open = (checkout) => void hosted.calls.push(checkout);
});
afterEach(() => {
  hostedPage.open = leave;
});

const CHECKOUT_ID = '5c000000-0000-4000-8000-000000000009';
const topUpCheckout = (status: Checkout['status']): Checkout => ({
  id: CHECKOUT_ID,
  url: 'https://pay.example.com/c/top-up',
  status,
  kind: 'TOP_UP',
  failure_message: null,
  expires_at: '2099-01-01T00:00:00.000Z',
});
const CHECKOUT = `GET /v1/organizations/${ORG_ID}/checkout/${CHECKOUT_ID}/`;

const starter = fundPackage(1, { name: 'Starter', price: 5000, credit: 5000 });
const plus = fundPackage(2, {
  name: 'Plus',
  price: 10000,
  credit: 11000,
  description: 'Our most popular package.',
});

const wallet = {
  [BALANCE]: json(balance(12050)),
  [FUND_PACKAGES]: json(pageOf([plus, starter])),
  [SERVICES]: json(
    pageOf([
      balanceService(1, {
        name: 'Address check',
        unit: 'lookup',
        unit_price: 5,
        included_in: ['PROFESSIONAL', 'BUSINESS'],
      }),
      balanceService(2, {
        name: 'Label printing',
        unit: 'label',
        unit_price: 25,
        included_in: ['BUSINESS'],
      }),
    ]),
  ),
};

const CARD_TOP_UP = `POST /v1/organizations/${ORG_ID}/balance/top-ups/`;
const visa = {
  id: '5d000000-0000-4000-8000-000000000001',
  brand: 'visa' as const,
  last4: '4242',
  exp_month: 12,
  exp_year: 2039,
  is_default: true,
};

describe('Billing add funds', () => {
  beforeEach(() => {
    hosted.calls.length = 0;
  });

  it('shows the balance and the packages in order, with the credit and any bonus', async () => {
    mockApi({ ...billingHandlers(subscription()), ...wallet });
    signIn();
    renderApp(`${BILLING}/fund-packages`);
    expect(await screen.findByTestId('billing-balance')).toHaveTextContent('$120.50');
    const cards = await screen.findAllByRole('article');
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual(['Starter', 'Plus']);
    const [first, second] = cards;
    expect(first).toHaveTextContent('$50.00');
    expect(first).toHaveTextContent('Adds $50.00 to your balance');
    expect(within(first!).queryByText(/bonus/)).toBeNull();
    expect(second).toHaveTextContent('$100.00');
    expect(second).toHaveTextContent('Adds $110.00 to your balance');
    expect(within(second!).getByText('$10.00 bonus')).toBeVisible();
    expect(within(second!).getByText('Our most popular package.')).toBeVisible();
    // Already here: no "Add funds" link, only the way to the history.
    const balanceCard = screen.getByRole('region', { name: 'Balance' });
    expect(within(balanceCard).queryByRole('link', { name: 'Add funds' })).toBeNull();
    expect(within(balanceCard).getByRole('link', { name: 'History' })).toHaveAttribute(
      'href',
      `${BILLING}/history`,
    );
  });

  it('Buy posts the package with an Idempotency-Key and goes to the checkout page', async () => {
    const mock = mockApi({
      ...billingHandlers(subscription()),
      ...wallet,
      [TOP_UP]: json(topUpCheckout('OPEN'), 201),
    });
    signIn();
    renderApp(`${BILLING}/fund-packages`);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Buy Plus' }));
    await waitFor(() =>
      expect(hosted.calls.map((c) => c.url)).toEqual([topUpCheckout('OPEN').url]),
    );
    const [call] = mock.callsTo(TOP_UP);
    expect(call?.body).toEqual({ fund_package_id: plus.id });
    expect(call?.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    // On the way to the gateway: no second purchase meanwhile.
    expect(screen.getByRole('button', { name: 'Buy Starter' })).toBeDisabled();
  });

  it('with a saved card, one click buys the package at once, each click with a key of its own', async () => {
    let available = 12050;
    const mock = mockApi({
      ...billingHandlers(subscription()),
      ...wallet,
      [BALANCE]: () => json(balance(available)),
      [CARDS]: json({ default_payment_method: visa.id, results: [visa] }),
      [CARD_TOP_UP]: [
        () => {
          available += plus.credit;
          return json(ledgerEntry(1, { type: 'top-up', amount: plus.credit }), 201);
        },
        apiError(402, 'PAYMENT_FAILED', 'Your card was declined. Try another card.'),
      ],
    });
    signIn();
    renderApp(`${BILLING}/fund-packages`);
    const user = userEvent.setup();
    expect(await screen.findByText('Visa ending in 4242')).toBeVisible();
    await user.click(
      await screen.findByRole('button', { name: 'Buy Plus with Visa ending in 4242' }),
    );
    expect(
      await screen.findByText(
        'Plus bought with Visa ending in 4242: $110.00 added to your balance.',
      ),
    ).toBeVisible();
    await waitFor(() => expect(screen.getByTestId('billing-balance')).toHaveTextContent('$230.50'));
    const [first] = mock.callsTo(CARD_TOP_UP);
    expect(first?.body).toEqual({ fund_package_id: plus.id, payment_method_id: visa.id });
    expect(first?.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    // Nothing went to the gateway's page.
    expect(hosted.calls).toEqual([]);
    expect(mock.callsTo(TOP_UP)).toHaveLength(0);

    // A declined card is said in words; the next click sends a new key.
    await user.click(screen.getByRole('button', { name: 'Buy Starter with Visa ending in 4242' }));
    expect(
      await screen.findByText(
        'The payment did not go through. Your card was declined. Try another card.',
      ),
    ).toBeVisible();
    const [, second] = mock.callsTo(CARD_TOP_UP);
    expect(second?.headers.get('Idempotency-Key')).not.toBe(first?.headers.get('Idempotency-Key'));
    // Another card stays possible through the gateway's page.
    expect(screen.getByRole('button', { name: 'Buy Starter with another card' })).toBeEnabled();
  });

  it('a refused purchase is said in words and Buy may be tried again', async () => {
    const mock = mockApi({
      ...billingHandlers(subscription()),
      ...wallet,
      [TOP_UP]: apiError(409, 'NO_PAYMENT_GATEWAY', 'Payments are not available right now.'),
    });
    signIn();
    renderApp(`${BILLING}/fund-packages`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Buy Starter' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The payment page could not be opened. Payments are not available right now.',
    );
    expect(hosted.calls).toEqual([]);
    const buy = screen.getByRole('button', { name: 'Buy Starter' });
    expect(buy).toBeEnabled();
    await user.click(buy);
    await waitFor(() => expect(mock.callsTo(TOP_UP)).toHaveLength(2));
  });

  it('marks the services the current plan includes', async () => {
    mockApi({ ...billingHandlers(subscription()), ...wallet });
    signIn();
    renderApp(`${BILLING}/fund-packages`);
    const table = await screen.findByRole('table', { name: 'Services and prices' });
    const row = (name: string) => within(table).getByRole('row', { name: new RegExp(name) });
    expect(row('Address check')).toHaveTextContent('$0.05 per lookup');
    expect(within(row('Address check')).getByText('Included in your plan')).toBeVisible();
    expect(row('Label printing')).toHaveTextContent('$0.25 per label');
    expect(within(row('Label printing')).queryByText('Included in your plan')).toBeNull();
    expect(within(row('Label printing')).getByText('Drawn from your balance')).toBeVisible();
  });

  it('the usage page shows the balance with Add funds and History', async () => {
    mockApi({ ...billingHandlers(subscription()), ...wallet });
    signIn();
    renderApp(`${BILLING}/dashboard`);
    const card = await screen.findByRole('region', { name: 'Balance' });
    expect(await within(card).findByText('$120.50')).toBeVisible();
    expect(within(card).getByRole('link', { name: 'Add funds' })).toHaveAttribute(
      'href',
      `${BILLING}/fund-packages`,
    );
    expect(within(card).getByRole('link', { name: 'History' })).toHaveAttribute(
      'href',
      `${BILLING}/history`,
    );
    const nav = screen.getByRole('navigation', { name: 'Billing' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual([
      'Subscription',
      'Usage',
      'Plans',
      'Cards',
      'History',
      'Add funds',
      'Wallet settings',
      'Billing details',
    ]);
  });

  it('back from a paid top-up: "Funds added" and the balance reread', async () => {
    let pay: () => void = () => {};
    const paid = new Promise<void>((resolve) => (pay = resolve));
    const mock = mockApi({
      ...billingHandlers(subscription()),
      ...wallet,
      [BALANCE]: [json(balance(12050)), json(balance(23050))],
      // The gateway reports back once the page has loaded what it shows.
      [CHECKOUT]: () => paid.then(() => json(topUpCheckout('COMPLETE'))),
    });
    signIn();
    const app = renderApp(`${BILLING}/dashboard?checkout=${CHECKOUT_ID}`);
    const card = await screen.findByRole('region', { name: 'Balance' });
    expect(await within(card).findByText('$120.50')).toBeVisible();
    pay();
    expect(
      await screen.findByText('Thank you! Your payment went through. Funds added to your balance.'),
    ).toBeVisible();
    expect(await within(card).findByText('$230.50')).toBeVisible();
    expect(mock.callsTo(BALANCE)).toHaveLength(2);
    await waitFor(() => expect(app.location()).toBe(`${BILLING}/dashboard`));
  });

  it('back from a paid top-up on the history: its movements and the invoices reread', async () => {
    let pay: () => void = () => {};
    const paid = new Promise<void>((resolve) => (pay = resolve));
    const topUp = ledgerEntry(9, {
      type: 'top-up',
      amount: 11000,
      balance_after: 23050,
      description: 'Plus',
      source: 'payment',
      user: null,
    });
    mockApi({
      ...billingHandlers(subscription()),
      ...wallet,
      [CARDS]: json({ default_payment_method: null, results: [] }),
      [INVOICES]: [json(pageOf([invoice(1)])), json(pageOf([invoice(2), invoice(1)]))],
      [HISTORY]: [json(pageOf([])), json(pageOf([topUp]))],
      [CHECKOUT]: () => paid.then(() => json(topUpCheckout('COMPLETE'))),
    });
    signIn();
    renderApp(`${BILLING}/history?checkout=${CHECKOUT_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Balance history' }));
    expect(await screen.findByText('No balance movements yet')).toBeVisible();
    pay();
    expect(await screen.findByRole('table', { name: 'Balance history' })).toHaveTextContent(
      'Top-upPlusPayment+$110.00$230.50',
    );
    await user.click(screen.getByRole('tab', { name: 'Invoices' }));
    expect(await screen.findByText('INV-000002')).toBeVisible();
  });

  it('back from a failed top-up: no funds added, with the reason', async () => {
    mockApi({
      ...billingHandlers(subscription()),
      ...wallet,
      [CHECKOUT]: json({
        ...topUpCheckout('FAILED'),
        failure_message: 'Your card has insufficient funds. Try another card.',
      }),
    });
    signIn();
    renderApp(`${BILLING}/fund-packages?checkout=${CHECKOUT_ID}`);
    expect(await screen.findByTestId('checkout-failed')).toHaveTextContent(
      'No funds were added to your balance. Your card has insufficient funds. Try another card.',
    );
  });
});
