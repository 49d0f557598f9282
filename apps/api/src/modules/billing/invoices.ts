import { invoiceNumberText, type InvoiceDetail, type InvoiceKind } from '@portolan/contract';
import { and, desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { billingAccounts, invoices } from '../../db/schema/index.ts';
import { pageFromRows, rowsOf, windowTotal, type PageQuery } from '../../lib/pagination.ts';
import { recordChangeEvents } from '../events/index.ts';
import { lockAccount } from './account.ts';
import { billedToNow } from './billing-details.ts';

export type InvoiceRow = typeof invoices.$inferSelect;

/**
 * Records a payment (or a failed attempt) in the transaction of the change it paid for, with the
 * organization's next invoice number (gapless: taken under the account's row lock, and only
 * moved on when the invoice is written), and a paid one's event (invoice.paid). One invoice per
 * payment: a second record of the same gateway charge is ignored (undefined). It keeps a copy of
 * the organization's billing details (`billed_to`), which its PDF prints whatever they become.
 */
export async function recordInvoice(
  tx: Tx,
  invoice: {
    organizationId: string;
    subscriptionId: string | null;
    kind: InvoiceKind;
    status: 'PAID' | 'FAILED';
    amount: number;
    currency: string;
    description: string;
    lines: { description: string; amount: number }[];
    gatewayRef: string | null;
    /** When it was paid or refused, by the app's clock: the time of its event. */
    at: Date;
  },
): Promise<InvoiceRow | undefined> {
  const account = await lockAccount(tx, invoice.organizationId);
  if (invoice.gatewayRef !== null) {
    const [known] = await tx
      .select({ id: invoices.id })
      .from(invoices)
      .where(eq(invoices.gateway_ref, invoice.gatewayRef));
    if (known) return undefined;
  }
  // What it prints of the buyer ever after: the billing details as they stand now.
  const billedTo = await billedToNow(tx, invoice.organizationId);
  const [row] = await tx
    .insert(invoices)
    .values({
      organization_id: invoice.organizationId,
      subscription_id: invoice.subscriptionId,
      number: account.next_invoice_number,
      kind: invoice.kind,
      status: invoice.status,
      amount: invoice.amount,
      currency: invoice.currency,
      description: invoice.description,
      lines: invoice.lines,
      gateway_ref: invoice.gatewayRef,
      billed_to: billedTo,
    })
    .onConflictDoNothing({ target: invoices.gateway_ref })
    .returning();
  if (row) {
    await tx
      .update(billingAccounts)
      .set({ next_invoice_number: account.next_invoice_number + 1 })
      .where(eq(billingAccounts.organization_id, invoice.organizationId));
  }
  if (row?.status === 'PAID') {
    await recordChangeEvents(tx, row.organization_id, invoice.at, [
      {
        type: 'invoice.paid',
        data: {
          invoice_id: row.id,
          number: invoiceNumberText(row.number),
          kind: row.kind,
          amount: row.amount,
          currency: row.currency,
        },
      },
    ]);
  }
  return row;
}

export function toInvoiceDto(row: InvoiceRow): InvoiceDetail {
  return {
    id: row.id,
    number: invoiceNumberText(row.number),
    kind: row.kind,
    status: row.status,
    description: row.description,
    lines: row.lines,
    subtotal: row.lines.reduce((sum, line) => sum + line.amount, 0),
    total: row.amount,
    currency: row.currency,
    created: row.created_at.toISOString(),
  };
}

/** GET …/invoices/: newest first; one statement per page (the total rides along). */
export async function listInvoices(db: Db, organizationId: string, query: PageQuery) {
  const mine = eq(invoices.organization_id, organizationId);
  const rows = await db
    .select({ invoice: invoices, total: windowTotal })
    .from(invoices)
    .where(mine)
    .orderBy(desc(invoices.number))
    .limit(rowsOf(query).limit)
    .offset(rowsOf(query).offset);
  return pageFromRows(
    query,
    rows,
    (r) => toInvoiceDto(r.invoice),
    async () => db.$count(invoices, mine),
  );
}

/** One invoice of the organization (another organization's is not found). */
export async function findInvoice(
  db: Db,
  organizationId: string,
  invoiceId: string,
): Promise<InvoiceRow | undefined> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.organization_id, organizationId)));
  return row;
}
