import { creditNoteNumberText, invoiceNumberText } from '@portolan/contract';
import { and, asc, eq } from 'drizzle-orm';
import {
  autoTopUps,
  billingAccounts,
  billingDetails,
  creditNotes,
  invoices,
  ledgerEntries,
  paymentMethods,
  plans,
  subscriptions,
  workspaceSpendCaps,
} from '../../db/schema/index.ts';
import {
  afterCursor,
  BATCH,
  cursorOf,
  jsonLines,
  keyset,
  type Exporter,
} from '../../lib/data-export.ts';

/**
 * An organization's billing records under billing/ in its archive: the balance, subscriptions,
 * invoices, the ledger (streamed by keyset) and cards. Scoped by the organization's id. Left out:
 * the gateway's references (customer, card, charge), idempotency keys and request fingerprints;
 * of a card only brand, last 4 and expiry are kept at all.
 */
export const billingExporter: Exporter = {
  tables: [
    'billingAccounts',
    'subscriptions',
    'plans',
    'invoices',
    'ledgerEntries',
    'paymentMethods',
    'workspaceSpendCaps',
    'autoTopUps',
    'billingDetails',
    'creditNotes',
  ],
  sections: {
    ORGANIZATION: {
      'billing/account.json': {
        json: async ({ db, id }) => {
          const [account] = await db
            .select()
            .from(billingAccounts)
            .where(eq(billingAccounts.organization_id, id));
          return {
            available_balance: account?.available_balance ?? 0,
            currency: account?.currency ?? 'usd',
            spend_cap: account?.spend_cap ?? null,
            low_balance_thresholds: account?.low_balance_thresholds ?? [],
            auto_top_up: {
              enabled: account?.auto_top_up_enabled ?? false,
              threshold: account?.auto_top_up_threshold ?? null,
              fund_package_id: account?.auto_top_up_fund_package_id ?? null,
              consecutive_failures: account?.auto_top_up_failures ?? 0,
            },
          };
        },
      },
      'billing/subscriptions.json': {
        json: async ({ db, id }) => {
          const subs = await db
            .select({ s: subscriptions, plan: { type: plans.type, name: plans.name } })
            .from(subscriptions)
            .innerJoin(plans, eq(plans.id, subscriptions.plan_id))
            .where(eq(subscriptions.organization_id, id))
            .orderBy(asc(subscriptions.created_at));
          return subs.map(({ s, plan }) => ({
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
          }));
        },
      },
      'billing/invoices.json': {
        json: async ({ db, id }) => {
          const bills = await db
            .select()
            .from(invoices)
            .where(eq(invoices.organization_id, id))
            .orderBy(asc(invoices.number));
          return bills.map((i) => ({
            id: i.id,
            number: invoiceNumberText(i.number),
            kind: i.kind,
            status: i.status,
            amount: i.amount,
            currency: i.currency,
            description: i.description,
            lines: i.lines,
            subscription_id: i.subscription_id,
            billed_to: i.billed_to,
            created_at: i.created_at,
          }));
        },
      },
      'billing/ledger.jsonl': {
        lines: ({ db, id }) =>
          jsonLines(
            keyset((after) =>
              db
                .select({
                  ...cursorOf(ledgerEntries.created_at, ledgerEntries.id),
                  e: ledgerEntries,
                })
                .from(ledgerEntries)
                .where(
                  and(
                    eq(ledgerEntries.organization_id, id),
                    afterCursor(ledgerEntries.created_at, ledgerEntries.id, after),
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
              client_id: e.client_id,
            }),
          ),
      },
      'billing/cards.json': {
        json: async ({ db, id }) => {
          const cards = await db
            .select()
            .from(paymentMethods)
            .where(eq(paymentMethods.organization_id, id))
            .orderBy(asc(paymentMethods.created_at));
          return cards.map((c) => ({
            id: c.id,
            brand: c.brand,
            last4: c.last4,
            exp_month: c.exp_month,
            exp_year: c.exp_year,
            added_at: c.created_at,
            removed_at: c.deleted_at,
          }));
        },
      },
      'billing/workspace-spend-caps.json': {
        json: async ({ db, id }) =>
          db
            .select({
              client_id: workspaceSpendCaps.client_id,
              monthly_limit: workspaceSpendCaps.monthly_limit,
              period_start: workspaceSpendCaps.period_start,
              spent: workspaceSpendCaps.spent,
            })
            .from(workspaceSpendCaps)
            .where(eq(workspaceSpendCaps.organization_id, id))
            .orderBy(asc(workspaceSpendCaps.created_at)),
      },
      'billing/auto-top-ups.json': {
        json: async ({ db, id }) =>
          db
            .select({
              id: autoTopUps.id,
              status: autoTopUps.status,
              fund_package_id: autoTopUps.fund_package_id,
              amount: autoTopUps.amount,
              credit: autoTopUps.credit,
              currency: autoTopUps.currency,
              failure_reason: autoTopUps.failure_reason,
              invoice_id: autoTopUps.invoice_id,
              created_at: autoTopUps.created_at,
              settled_at: autoTopUps.settled_at,
            })
            .from(autoTopUps)
            .where(eq(autoTopUps.organization_id, id))
            .orderBy(asc(autoTopUps.created_at)),
      },
      'billing/details.json': {
        json: async ({ db, id }) => {
          const [details] = await db
            .select({
              company_name: billingDetails.company_name,
              address: billingDetails.address,
              country: billingDetails.country,
              tax_id: billingDetails.tax_id,
              modified_at: billingDetails.modified_at,
            })
            .from(billingDetails)
            .where(eq(billingDetails.organization_id, id));
          return details ?? null;
        },
      },
      'billing/credit-notes.json': {
        json: async ({ db, id }) => {
          const notes = await db
            .select()
            .from(creditNotes)
            .where(eq(creditNotes.organization_id, id))
            .orderBy(asc(creditNotes.number));
          return notes.map((n) => ({
            id: n.id,
            number: creditNoteNumberText(n.number),
            invoice_id: n.invoice_id,
            amount: n.amount,
            currency: n.currency,
            reason: n.reason,
            lines: n.lines,
            billed_to: n.billed_to,
            created_at: n.created_at,
          }));
        },
      },
    },
  },
};
