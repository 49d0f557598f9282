import type { InvoiceKind } from '@portolan/contract';
import type { Tx } from '../../db/client.ts';
import { invoices } from '../../db/schema/index.ts';

export type InvoiceRow = typeof invoices.$inferSelect;

/**
 * Records a payment (or a failed attempt) in the transaction of the change it paid for. One
 * invoice per payment: a second record of the same gateway charge is ignored (undefined).
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
  },
): Promise<InvoiceRow | undefined> {
  const [row] = await tx
    .insert(invoices)
    .values({
      organization_id: invoice.organizationId,
      subscription_id: invoice.subscriptionId,
      kind: invoice.kind,
      status: invoice.status,
      amount: invoice.amount,
      currency: invoice.currency,
      description: invoice.description,
      lines: invoice.lines,
      gateway_ref: invoice.gatewayRef,
    })
    .onConflictDoNothing({ target: invoices.gateway_ref })
    .returning();
  return row;
}
