import { invoiceNumberText } from '@portolan/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  billingAccounts,
  invoices,
  ledgerEntries,
  paymentMethods,
  plans,
  subscriptions,
} from '../../db/schema/index.ts';
import { BATCH, jsonLines, keyset } from './batches.ts';
import type { ZipWriter } from './zip-writer.ts';

/**
 * An organization's billing records under billing/: the balance, subscriptions, invoices, the
 * ledger (streamed by keyset) and cards. Scoped by the organization's id. Left out: the gateway's
 * references (customer, card, charge), idempotency keys and request fingerprints; of a card only
 * brand, last 4 and expiry are kept at all.
 */
export async function writeBilling(db: Db, zip: ZipWriter, orgId: string): Promise<void> {
  const [account] = await db
    .select()
    .from(billingAccounts)
    .where(eq(billingAccounts.organization_id, orgId));
  await zip.json('billing/account.json', {
    available_balance: account?.available_balance ?? 0,
    currency: account?.currency ?? 'usd',
  });

  const subs = await db
    .select({ s: subscriptions, plan: { type: plans.type, name: plans.name } })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.plan_id))
    .where(eq(subscriptions.organization_id, orgId))
    .orderBy(asc(subscriptions.created_at));
  await zip.json(
    'billing/subscriptions.json',
    subs.map(({ s, plan }) => ({
      id: s.id,
      app_profile: s.app_profile,
      plan,
      status: s.status,
      is_active: s.is_active,
      amount: s.amount,
      currency: s.currency,
      current_period_start: s.current_period_start,
      expired_in: s.expired_in,
      cancel_at_period_end: s.cancel_at_period_end,
      canceled_at: s.canceled_at,
      subscriber_id: s.subscriber_id,
      default_card_id: s.default_payment_method_id,
      limits: s.limits,
      credit: s.credit,
      retry_count: s.retry_count,
      next_retry_at: s.next_retry_at,
      created_at: s.created_at,
      modified_at: s.modified_at,
    })),
  );

  const bills = await db
    .select()
    .from(invoices)
    .where(eq(invoices.organization_id, orgId))
    .orderBy(asc(invoices.number));
  await zip.json(
    'billing/invoices.json',
    bills.map((i) => ({
      id: i.id,
      number: invoiceNumberText(i.number),
      kind: i.kind,
      status: i.status,
      amount: i.amount,
      currency: i.currency,
      description: i.description,
      lines: i.lines,
      subscription_id: i.subscription_id,
      created_at: i.created_at,
    })),
  );

  await zip.lines(
    'billing/ledger.jsonl',
    jsonLines(
      keyset((after) =>
        db
          .select({
            at: sql<string>`${ledgerEntries.created_at}::text`,
            id: ledgerEntries.id,
            e: ledgerEntries,
          })
          .from(ledgerEntries)
          .where(
            and(
              eq(ledgerEntries.organization_id, orgId),
              after
                ? sql`(${ledgerEntries.created_at}, ${ledgerEntries.id}) > (${after.at}::timestamptz, ${after.id}::uuid)`
                : undefined,
            ),
          )
          .orderBy(asc(ledgerEntries.created_at), asc(ledgerEntries.id))
          .limit(BATCH),
      ),
      ({ e }) => ({
        id: e.id,
        created_at: e.created_at,
        type: e.type,
        amount: e.amount,
        balance_after: e.balance_after,
        currency: e.currency,
        description: e.description,
        reference: e.reference,
        service_id: e.service_id,
        quantity: e.quantity,
        unit_price: e.unit_price,
        source: e.source,
        created_by: e.created_by,
        invoice_id: e.invoice_id,
        refund_of: e.refund_of,
      }),
    ),
  );

  const cards = await db
    .select()
    .from(paymentMethods)
    .where(eq(paymentMethods.organization_id, orgId))
    .orderBy(asc(paymentMethods.created_at));
  await zip.json(
    'billing/cards.json',
    cards.map((c) => ({
      id: c.id,
      brand: c.brand,
      last4: c.last4,
      exp_month: c.exp_month,
      exp_year: c.exp_year,
      added_at: c.created_at,
      removed_at: c.deleted_at,
    })),
  );
}
