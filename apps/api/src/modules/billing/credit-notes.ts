import {
  creditNoteNumberText,
  ErrorCode,
  invoiceNumberText,
  type CreditNote,
  type InvoiceRefund,
} from '@portolan/contract';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db, Tx } from '../../db/client.ts';
import { billingAccounts, creditNotes, invoices, ledgerEntries } from '../../db/schema/index.ts';
import { AppError, conflict, fieldError, notFound } from '../../lib/errors.ts';
import { creditNoteMail } from '../../lib/mail/templates.ts';
import { formatMoney } from '../../lib/money.ts';
import { pageFromRows, rowsOf, windowTotal, type PageQuery } from '../../lib/pagination.ts';
import { lockTenant } from '../access/index.ts';
import { recordChangeEvents } from '../events/index.ts';
import { lockAccount } from './account.ts';
import { billingPagePath, tellBillingContacts } from './billing-contacts.ts';
import { billedToNow } from './billing-details.ts';
import { appendEntry, insufficientBalance } from './ledger.ts';

/**
 * Credit notes (issue 22 item 7; decision 0019 "Credit notes"): money of a paid invoice given
 * back to the card by the platform's operators, each refund one credit note, numbered per
 * organization without gaps (CN-000001) under the billing account's lock.
 */

type CreditNoteRow = typeof creditNotes.$inferSelect;
export type CreditNoteWithInvoice = { note: CreditNoteRow; invoiceNumber: number };

export function toCreditNoteDto({ note, invoiceNumber }: CreditNoteWithInvoice): CreditNote {
  return {
    id: note.id,
    number: creditNoteNumberText(note.number),
    invoice_id: note.invoice_id,
    invoice_number: invoiceNumberText(invoiceNumber),
    amount: note.amount,
    currency: note.currency,
    reason: note.reason,
    lines: note.lines,
    created: note.created_at.toISOString(),
  };
}

/** The organization an invoice belongs to (the refund's tenant), or a 404. */
export async function organizationOfInvoice(db: Db, invoiceId: string): Promise<string> {
  const [row] = await db
    .select({ organizationId: invoices.organization_id })
    .from(invoices)
    .where(eq(invoices.id, invoiceId));
  if (!row) throw notFound('No such invoice.');
  return row.organizationId;
}

/**
 * What a refund of `amount` takes back of a top-up's credit, when `before` was refunded already:
 * credit × refunded ÷ price, rounded down, counted on the running total so that refunds in parts
 * take back exactly the whole credit once the whole price is refunded.
 */
export function creditToTakeBack(
  topUp: { credit: number; price: number },
  before: number,
  amount: number,
): number {
  const upTo = (refunded: number) => Math.floor((topUp.credit * refunded) / topUp.price);
  return upTo(before + amount) - upTo(before);
}

/**
 * POST /v1/admin/invoices/{invoiceId}/refunds/: in one transaction in the tenant lock order
 * (organization, then billing account), checks what is left of the invoice, refunds it at the
 * gateway (its idempotency key is the caller's: a retry after a lost commit is the gateway's
 * replay, not a second refund), then writes the credit note and, for a fund package, takes the
 * matching credit back from the balance. A refund the gateway refuses or does not answer for sure
 * writes nothing (402 / 503); nor does one the balance cannot cover (402, before the gateway).
 */
export async function refundInvoice(
  ctx: AppContext,
  request: {
    organizationId: string;
    invoiceId: string;
    userId: string;
    body: InvoiceRefund;
    idempotencyKey: string;
  },
): Promise<CreditNote> {
  const { organizationId, body } = request;
  return ctx.db.transaction(async (tx) => {
    await lockTenant(tx, { organizationId });
    const account = await lockAccount(tx, organizationId);
    const [invoice] = await tx
      .select()
      .from(invoices)
      .where(and(eq(invoices.id, request.invoiceId), eq(invoices.organization_id, organizationId)));
    if (!invoice) throw notFound('No such invoice.');
    const invoiceNumber = invoiceNumberText(invoice.number);
    if (invoice.status !== 'PAID' || invoice.gateway_ref === null)
      throw conflict(
        ErrorCode.NOT_REFUNDABLE,
        `${invoiceNumber} records no card payment, so there is nothing to refund.`,
      );
    const refunded = await refundedOf(tx, invoice.id);
    const left = invoice.amount - refunded;
    if (left <= 0)
      throw conflict(ErrorCode.NOT_REFUNDABLE, `${invoiceNumber} was refunded in full already.`);
    const amount = body.amount ?? left;
    if (amount > left)
      throw fieldError(
        'amount',
        `At most ${formatMoney(left, invoice.currency)} of ${invoiceNumber} is left to refund. Give a smaller amount.`,
      );

    // A fund package's credit goes back with its money: checked before the gateway moves any.
    let takeBack = 0;
    if (invoice.kind === 'TOP_UP') {
      const [topUp] = await tx
        .select({ credit: ledgerEntries.amount })
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.invoice_id, invoice.id), eq(ledgerEntries.type, 'top-up')));
      if (topUp)
        takeBack = creditToTakeBack(
          { credit: topUp.credit, price: invoice.amount },
          refunded,
          amount,
        );
      if (takeBack > account.available_balance)
        throw insufficientBalance(account.available_balance, takeBack);
    }

    const result = await ctx.payments.refund({
      chargeRef: invoice.gateway_ref,
      amount,
      currency: invoice.currency,
      idempotencyKey: `refund:${invoice.id}:${request.idempotencyKey}`,
    });
    if (!result.ok)
      throw new AppError(
        result.unknown ? ErrorCode.SERVICE_UNAVAILABLE : ErrorCode.PAYMENT_FAILED,
        result.message,
      );

    const now = ctx.clock.now();
    const [note] = await tx
      .insert(creditNotes)
      .values({
        organization_id: organizationId,
        invoice_id: invoice.id,
        number: account.next_credit_note_number,
        amount,
        currency: invoice.currency,
        reason: body.reason,
        lines: [{ description: `Refund of ${invoiceNumber}: ${body.reason}`, amount }],
        billed_to: await billedToNow(tx, organizationId),
        gateway_ref: result.refundRef,
        created_by: request.userId,
        created_at: now,
        modified_at: now,
      })
      // The gateway's replay of a refund recorded already (its answer was lost): that one stands.
      .onConflictDoNothing({ target: creditNotes.gateway_ref })
      .returning();
    if (!note) {
      const [earlier] = await selectCreditNotes(tx).where(
        eq(creditNotes.gateway_ref, result.refundRef),
      );
      return toCreditNoteDto(earlier!);
    }
    await tx
      .update(billingAccounts)
      .set({ next_credit_note_number: account.next_credit_note_number + 1 })
      .where(eq(billingAccounts.organization_id, organizationId));
    if (takeBack > 0)
      await appendEntry(tx, account, {
        type: 'adjustment',
        amount: -takeBack,
        description: `Credit taken back: ${invoiceNumber} refunded`,
        reference: creditNoteNumberText(note.number),
        source: 'system',
        invoiceId: invoice.id,
      });
    await recordChangeEvents(tx, organizationId, now, [
      {
        type: 'invoice.refunded',
        data: {
          invoice_id: invoice.id,
          number: invoiceNumber,
          credit_note_id: note.id,
          credit_note_number: creditNoteNumberText(note.number),
          reason: note.reason,
          credit_taken_back: takeBack,
          amount,
          currency: invoice.currency,
        },
      },
    ]);
    await tellOfCreditNote(ctx, tx, {
      organizationId,
      invoiceNumber,
      creditNoteNumber: creditNoteNumberText(note.number),
      amount: formatMoney(amount, invoice.currency),
      reason: note.reason,
      creditTakenBack: takeBack > 0 ? formatMoney(takeBack, invoice.currency) : null,
    });
    return toCreditNoteDto({ note, invoiceNumber: invoice.number });
  });
}

/** The OWNERs and ADMINs hear of a credit note (bell and e-mail), with the way to its PDF. */
function tellOfCreditNote(
  ctx: AppContext,
  tx: Tx,
  note: {
    organizationId: string;
    invoiceNumber: string;
    creditNoteNumber: string;
    amount: string;
    reason: string;
    creditTakenBack: string | null;
  },
) {
  const historyPath = billingPagePath(note.organizationId, 'history');
  const takenBack = note.creditTakenBack
    ? ` ${note.creditTakenBack} of credit was taken back from the balance.`
    : '';
  return tellBillingContacts(ctx, tx, note.organizationId, {
    kind: 'credit_note',
    message: `${note.invoiceNumber} was refunded: ${note.amount} back to the card.${takenBack} Credit note ${note.creditNoteNumber} is in the billing history.`,
    path: historyPath,
    mail: (contact) =>
      creditNoteMail(ctx.mail, contact.email, contact.firstName, {
        ...note,
        organization: contact.organization,
        historyPath,
      }),
  });
}

/** What the invoice's credit notes gave back so far (minor units). */
async function refundedOf(tx: Tx, invoiceId: string): Promise<number> {
  const [row] = await tx
    .select({ sum: sql<number>`coalesce(sum(${creditNotes.amount}), 0)`.mapWith(Number) })
    .from(creditNotes)
    .where(eq(creditNotes.invoice_id, invoiceId));
  return row?.sum ?? 0;
}

/** Credit notes with their invoice's number, in one statement. */
function selectCreditNotes(db: Db | Tx) {
  return db
    .select({ note: creditNotes, invoiceNumber: invoices.number })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoice_id));
}

/** GET …/credit-notes/: newest first; one statement per page (the total rides along). */
export async function listCreditNotes(db: Db, organizationId: string, query: PageQuery) {
  const mine = eq(creditNotes.organization_id, organizationId);
  const rows = await db
    .select({ note: creditNotes, invoiceNumber: invoices.number, total: windowTotal })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoice_id))
    .where(mine)
    .orderBy(desc(creditNotes.number))
    .limit(rowsOf(query).limit)
    .offset(rowsOf(query).offset);
  return pageFromRows(query, rows, toCreditNoteDto, async () => db.$count(creditNotes, mine));
}

/** One credit note of the organization (another organization's is not found). */
export async function findCreditNote(
  db: Db,
  organizationId: string,
  creditNoteId: string,
): Promise<CreditNoteWithInvoice | undefined> {
  const [row] = await selectCreditNotes(db).where(
    and(eq(creditNotes.id, creditNoteId), eq(creditNotes.organization_id, organizationId)),
  );
  return row;
}
