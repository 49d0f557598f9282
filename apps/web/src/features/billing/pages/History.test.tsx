import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { apiError, json, mockApi, type RecordedCall } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import {
  BILLING,
  billingHandlers,
  CARDS,
  HISTORY,
  invoice,
  invoicePdf,
  INVOICES,
  ledgerEntry,
  pageOf,
  subscription,
} from '../test-fixtures';

const visa = {
  id: '5d000000-0000-4000-8000-000000000001',
  brand: 'visa',
  last4: '4242',
  exp_month: 12,
  exp_year: 2030,
  is_default: true,
};
const noCards = json({ default_payment_method: null, results: [] });
const oneCard = json({ default_payment_method: visa.id, results: [visa] });

/** Newest first, as the server lists them: an adjustment, a member's charge, a paid top-up. */
const entries = [
  ledgerEntry(3, {
    type: 'adjustment',
    amount: 100,
    balance_after: 5350,
    description: 'Goodwill credit',
    source: 'system',
    user: null,
    created: '2099-03-03T12:00:00.000Z',
  }),
  ledgerEntry(2, {
    service: { key: 'label', name: 'Label printing' },
    quantity: 5,
    reference: 'SHIP-42',
  }),
  ledgerEntry(1, {
    type: 'top-up',
    amount: 5500,
    balance_after: 5500,
    description: 'Starter pack',
    reference: 'INV-000001',
    source: 'payment',
    user: null,
    created: '2099-03-01T12:00:00.000Z',
  }),
];

/** The query string of a recorded call, as an object. */
const queryOf = (call: RecordedCall | undefined) =>
  Object.fromEntries(new URL(call?.url ?? '/', 'http://localhost').searchParams);

const historyTable = () => screen.findByRole('table', { name: 'Balance history' });

describe('Billing history', () => {
  it('payment-method mode on (a card on file): Invoices and Balance history views', async () => {
    mockApi({
      ...billingHandlers(subscription()),
      [CARDS]: oneCard,
      [INVOICES]: json(pageOf([invoice(2, { status: 'FAILED' }), invoice(1)])),
      [HISTORY]: json(pageOf(entries)),
    });
    signIn();
    renderApp(`${BILLING}/history`);
    const views = await screen.findByRole('tablist', { name: 'History view' });
    expect(within(views).getAllByRole('tab')).toHaveLength(2);
    expect(within(views).getByRole('tab', { name: 'Balance history' })).toHaveAttribute(
      'aria-selected',
      'false',
    );
    expect(within(views).getByRole('tab', { name: 'Invoices' })).toHaveAttribute(
      'aria-selected',
      'true',
    );

    const invoices = await screen.findByRole('table', { name: 'Invoices' });
    const [, failed, paid] = within(invoices).getAllByRole('row');
    expect(failed).toHaveTextContent('INV-00000203/01/2099Professional plan, monthlyFailed$49.00');
    expect(paid).toHaveTextContent('INV-000001');
    expect(within(paid!).getByText('Paid')).toBeVisible();
    expect(within(paid!).getByRole('button', { name: 'Download PDF of INV-000001' })).toBeVisible();
    expect(screen.queryByRole('table', { name: 'Balance history' })).toBeNull();

    await userEvent.setup().click(within(views).getByRole('tab', { name: 'Balance history' }));
    expect(await historyTable()).toBeVisible();
  });

  it('payment-method mode on by an invoice alone, without a card', async () => {
    mockApi({
      ...billingHandlers(subscription()),
      [CARDS]: noCards,
      [INVOICES]: json(pageOf([invoice(1)])),
      [HISTORY]: json(pageOf(entries)),
    });
    signIn();
    renderApp(`${BILLING}/history`);
    expect(await screen.findByRole('tab', { name: 'Invoices' })).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Invoices' })).toBeVisible();
  });

  it('payment-method mode off (no card, no invoice): the balance history alone', async () => {
    mockApi({
      ...billingHandlers(subscription()),
      [CARDS]: noCards,
      [INVOICES]: json(pageOf([])),
      [HISTORY]: json(pageOf(entries)),
    });
    signIn();
    renderApp(`${BILLING}/history`);
    const table = await historyTable();
    expect(screen.queryByRole('tablist', { name: 'History view' })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'Invoices' })).toBeNull();
    expect(within(table).getByText('3 movements, newest first')).toBeInTheDocument();
  });

  it('lists each movement: date, type, what, who, signed amount and the balance after', async () => {
    mockApi({
      ...billingHandlers(subscription()),
      [CARDS]: noCards,
      [INVOICES]: json(pageOf([])),
      [HISTORY]: json(pageOf(entries)),
    });
    signIn();
    renderApp(`${BILLING}/history`);
    const rows = within(await historyTable()).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'DateTypeDescriptionWhoAmountBalance after',
      '03/03/2099AdjustmentGoodwill creditPortolan+$1.00$53.50',
      '03/02/2099ChargeLabel printedLabel printing × 5Ref. SHIP-42Ada Lovelaceada@example.com-$2.50$52.50',
      '03/01/2099Top-upStarter packRef. INV-000001Payment+$55.00$55.00',
    ]);
  });

  it('a filter sends from_date, to_date and type, and goes back to page 1', async () => {
    const many = Array.from({ length: 10 }, (_, i) => ledgerEntry(i + 1));
    const mock = mockApi({
      ...billingHandlers(subscription()),
      [CARDS]: noCards,
      [INVOICES]: json(pageOf([])),
      [HISTORY]: json(pageOf(many, 25)),
    });
    signIn();
    renderApp(`${BILLING}/history`);
    await historyTable();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(queryOf(mock.callsTo(HISTORY).at(-1)).page).toBe('2'));

    await user.type(screen.getByLabelText('From date'), '2099-03-01');
    await waitFor(() =>
      expect(queryOf(mock.callsTo(HISTORY).at(-1))).toEqual({
        page: '1',
        limit: '10',
        from_date: '2099-03-01',
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(queryOf(mock.callsTo(HISTORY).at(-1)).page).toBe('3'));

    await user.type(screen.getByLabelText('To date'), '2099-03-31');
    await user.click(screen.getByRole('combobox', { name: 'Type' }));
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All types', 'Top-up', 'Charge', 'Refund', 'Adjustment']);
    await user.click(within(listbox).getByRole('option', { name: 'Charge' }));
    await waitFor(() =>
      expect(queryOf(mock.callsTo(HISTORY).at(-1))).toEqual({
        page: '1',
        limit: '10',
        from_date: '2099-03-01',
        to_date: '2099-03-31',
        type: 'charge',
      }),
    );
  });

  it('says when there is nothing yet, and when nothing matches (clearing the filters)', async () => {
    const mock = mockApi({
      ...billingHandlers(subscription()),
      [CARDS]: noCards,
      [INVOICES]: json(pageOf([])),
      [HISTORY]: json(pageOf([])),
    });
    signIn();
    renderApp(`${BILLING}/history`);
    expect(await screen.findByText('No balance movements yet')).toBeVisible();
    expect(screen.queryByText('Nothing matches these filters')).toBeNull();

    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'Refund' }));
    expect(await screen.findByText('Nothing matches these filters')).toBeVisible();
    expect(screen.queryByText('No balance movements yet')).toBeNull();
    expect(queryOf(mock.callsTo(HISTORY).at(-1)).type).toBe('refund');

    await user.click(screen.getByRole('button', { name: 'clear the filters' }));
    expect(await screen.findByText('No balance movements yet')).toBeVisible();
    expect(screen.getByRole('combobox', { name: 'Type' })).toHaveValue('All types');
  });

  it('a failed load says why with Try again; a refused date shows at its field', async () => {
    const mock = mockApi({
      ...billingHandlers(subscription()),
      [CARDS]: noCards,
      [INVOICES]: json(pageOf([])),
      [HISTORY]: [
        apiError(403, 'FORBIDDEN', 'Only owners and admins see the balance.'),
        json(pageOf(entries)),
      ],
    });
    signIn();
    renderApp(`${BILLING}/history`);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The balance history could not be loaded');
    expect(alert).toHaveTextContent('Only owners and admins see the balance.');
    const user = userEvent.setup();
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await historyTable()).toBeVisible();

    mock.on(HISTORY, (call) =>
      queryOf(call).to_date
        ? apiError(400, 'VALIDATION_ERROR', 'to_date: The end date must be on or after…', [
            { field: 'to_date', message: 'The end date must be on or after the start date.' },
          ])
        : json(pageOf(entries)),
    );
    await user.type(screen.getByLabelText('From date'), '2099-03-10');
    const to = screen.getByLabelText('To date');
    await user.type(to, '2099-03-01');
    expect(
      await screen.findByText('The end date must be on or after the start date.'),
    ).toBeVisible();
    expect(to).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('From date')).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('The balance history could not be loaded')).toBeNull();
  });

  it('downloads an invoice PDF with the bearer token, named by its number', async () => {
    const first = invoice(1);
    const mock = mockApi({
      ...billingHandlers(subscription()),
      [CARDS]: oneCard,
      [INVOICES]: json(pageOf([first])),
      [invoicePdf(first.id)]: new Response('%PDF-1.7', {
        headers: { 'Content-Type': 'application/pdf' },
      }),
    });
    const blobs: Blob[] = [];
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        blobs.push(blob);
        return 'blob:invoice';
      },
      revokeObjectURL: () => {},
    });
    const saved: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push({ href: this.href, download: this.download });
    });
    const token = signIn();
    renderApp(`${BILLING}/history`);
    await userEvent
      .setup()
      .click(await screen.findByRole('button', { name: 'Download PDF of INV-000001' }));
    await waitFor(() =>
      expect(saved).toEqual([{ href: 'blob:invoice', download: 'invoice-INV-000001.pdf' }]),
    );
    expect(mock.callsTo(invoicePdf(first.id))[0]?.headers.get('Authorization')).toBe(
      `Bearer ${token}`,
    );
    expect(await blobs[0]?.text()).toBe('%PDF-1.7');
  });
});
