import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { CREDIT_NOTES, creditNote, creditNotePdf } from '../money-ops-fixtures';
import {
  BILLING,
  billingHandlers,
  CARDS,
  HISTORY,
  invoice,
  INVOICES,
  pageOf,
  subscription,
} from '../test-fixtures';

function historyApi(notes: ReturnType<typeof creditNote>[]) {
  return mockApi({
    ...billingHandlers(subscription()),
    [CARDS]: json({ default_payment_method: null, results: [] }),
    [INVOICES]: json(pageOf([invoice(1)])),
    [HISTORY]: json(pageOf([])),
    [`GET ${CREDIT_NOTES}`]: json(pageOf(notes)),
  });
}

describe('Billing history: credit notes under the invoices', () => {
  it('lists each credit note with its invoice, amount and date, and downloads its PDF', async () => {
    const note = creditNote(1);
    const mock = historyApi([note]);
    mock.on(
      `GET ${creditNotePdf(note.id)}`,
      new Response('%PDF-1.7', { headers: { 'Content-Type': 'application/pdf' } }),
    );
    Object.assign(URL, { createObjectURL: () => 'blob:note', revokeObjectURL: () => {} });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download);
    });
    const token = signIn();
    renderApp(`${BILLING}/history`);
    const region = await screen.findByRole('region', { name: 'Credit notes' });
    const row = within(
      await within(region).findByRole('table', { name: 'Credit notes' }),
    ).getByRole('row', { name: /CN-000001/ });
    expect(row).toHaveTextContent('INV-000001');
    expect(row).toHaveTextContent('$20.00');
    expect(row).toHaveTextContent('03/05/2099');
    expect(row).toHaveTextContent('Charged twice');

    await userEvent
      .setup()
      .click(within(row).getByRole('button', { name: 'Download PDF of CN-000001' }));
    await waitFor(() => expect(saved).toEqual(['credit-note-CN-000001.pdf']));
    expect(mock.callsTo(`GET ${creditNotePdf(note.id)}`)[0]?.headers.get('Authorization')).toBe(
      `Bearer ${token}`,
    );
  });

  it('says when there are none', async () => {
    historyApi([]);
    signIn();
    renderApp(`${BILLING}/history`);
    const region = await screen.findByRole('region', { name: 'Credit notes' });
    expect(
      await within(region).findByText(
        'No credit notes. When a payment is refunded, its credit note is listed here.',
      ),
    ).toBeVisible();
  });
});
