import {
  LEDGER_ENTRY_TYPES,
  LEDGER_SOURCES,
  type AppProfile,
  type PlanType,
} from '@portolan/contract';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { checkouts, invoices } from './billing.ts';
import { id, timestamps, ts } from './columns.ts';
import { clients, organizations } from './organizations.ts';
import { users } from './users.ts';

/**
 * Billing II: the organization's wallet. Fund packages and the services that draw on a balance
 * are data (migration 0008 seeds them); the balance lives on the billing account and changes only
 * together with a ledger entry, in one transaction, under the account's row lock.
 */

/** A package of prepaid credit: pay `price`, get `credit` (minor units). */
export const fundPackages = pgTable('fund_packages', {
  id: id(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  price: integer('price').notNull(),
  credit: integer('credit').notNull(),
  currency: text('currency').notNull().default('usd'),
  sort_order: integer('sort_order').notNull().default(0),
  enabled: boolean('enabled').notNull().default(true),
  ...timestamps(),
});

/** A service modules charge per unit, and the plan types that include it at no charge. */
export const balanceServices = pgTable(
  'balance_services',
  {
    id: id(),
    app_profile: text('app_profile').$type<AppProfile>().notNull(),
    key: text('key').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    unit: text('unit').notNull(),
    unit_price: integer('unit_price').notNull(),
    currency: text('currency').notNull().default('usd'),
    included_in: jsonb('included_in').$type<PlanType[]>().notNull().default([]),
    sort_order: integer('sort_order').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    ...timestamps(),
  },
  (t) => [uniqueIndex('balance_services_app_key').on(t.app_profile, t.key)],
);

/**
 * One per organization, made on first use: the balance (never below zero: a CHECK, besides the
 * service's own test) and the next invoice number (gapless per organization). Locking this row
 * serialises everything that moves the balance or numbers an invoice.
 */
export const billingAccounts = pgTable(
  'billing_accounts',
  {
    organization_id: uuid('organization_id')
      .primaryKey()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    available_balance: integer('available_balance').notNull().default(0),
    currency: text('currency').notNull().default('usd'),
    next_invoice_number: integer('next_invoice_number').notNull().default(1),
    /** Credit notes are numbered per organization too (CN-000001), gapless (issue 22 item 7). */
    next_credit_note_number: integer('next_credit_note_number').notNull().default(1),
    /** The organization's monthly spend cap (null: none) and what its period has spent. */
    spend_cap: integer('spend_cap'),
    /** The month `spent_this_period` counts; an older one reads as 0 spent. */
    spend_period_start: ts('spend_period_start'),
    spent_this_period: integer('spent_this_period').notNull().default(0),
    /** Low-balance thresholds (issue 22 item 3): crossing one downwards alerts, once a crossing. */
    low_balance_thresholds: jsonb('low_balance_thresholds').$type<number[]>().notNull().default([]),
    /** Auto top-up (issue 22 item 1): below `threshold`, buy the package with the default card. */
    auto_top_up_enabled: boolean('auto_top_up_enabled').notNull().default(false),
    auto_top_up_threshold: integer('auto_top_up_threshold'),
    auto_top_up_fund_package_id: uuid('auto_top_up_fund_package_id').references(
      () => fundPackages.id,
      { onDelete: 'set null' },
    ),
    /** Declined automatic top-ups in a row (AUTO_TOP_UP_MAX_FAILURES switch it off). */
    auto_top_up_failures: integer('auto_top_up_failures').notNull().default(0),
    ...timestamps(),
  },
  (t) => [check('billing_accounts_balance_not_negative', sql`${t.available_balance} >= 0`)],
);

/**
 * The ledger: append-only (a trigger refuses UPDATE, but for a reference set null when what it
 * names is deleted; rows go only with their organization). The
 * sum of an organization's entries equals its account's balance.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: id(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    type: text('type', { enum: LEDGER_ENTRY_TYPES }).notNull(),
    /** Signed, minor units: top-ups and refunds add, charges take. */
    amount: integer('amount').notNull(),
    balance_after: integer('balance_after').notNull(),
    currency: text('currency').notNull().default('usd'),
    description: text('description').notNull(),
    reference: text('reference').notNull().default(''),
    service_id: uuid('service_id').references(() => balanceServices.id),
    quantity: integer('quantity'),
    unit_price: integer('unit_price'),
    source: text('source', { enum: LEDGER_SOURCES }).notNull(),
    created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    /**
     * A charge's Idempotency-Key, per organization and caller: the same caller's replay finds the
     * entry and charges nothing; another caller's request with the same key is a new charge.
     */
    idempotency_key: text('idempotency_key'),
    /** Who sent the key: `user:<id>` (an API key would be `api-key:<id>`). */
    idempotency_caller: text('idempotency_caller'),
    /** What the key was sent with (service, quantity, reference): another request is a 409. */
    request_fingerprint: text('request_fingerprint'),
    /** The paid checkout of a top-up: at most one entry per checkout. */
    checkout_id: uuid('checkout_id').references(() => checkouts.id, { onDelete: 'set null' }),
    invoice_id: uuid('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    /** A refund's charge: at most one refund per charge. */
    refund_of: uuid('refund_of').references((): AnyPgColumn => ledgerEntries.id),
    /** The workspace a charge (and its refund) was for (issue 22 item 4), if it named one. */
    client_id: uuid('client_id').references(() => clients.id, { onDelete: 'set null' }),
    created_at: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('ledger_entries_amount_not_zero', sql`${t.amount} <> 0`),
    check('ledger_entries_balance_after_not_negative', sql`${t.balance_after} >= 0`),
    // The history: newest first, optionally by type (both filter on the organization first).
    index('ledger_entries_org_created_idx').on(t.organization_id, t.created_at, t.id),
    index('ledger_entries_org_type_created_idx').on(t.organization_id, t.type, t.created_at),
    // The usage report by workspace.
    index('ledger_entries_org_client_created_idx')
      .on(t.organization_id, t.client_id, t.created_at)
      .where(sql`${t.client_id} is not null`),
    uniqueIndex('ledger_entries_org_caller_idempotency_key')
      .on(t.organization_id, t.idempotency_caller, t.idempotency_key)
      .where(sql`${t.idempotency_key} is not null`),
    uniqueIndex('ledger_entries_checkout_key')
      .on(t.checkout_id)
      .where(sql`${t.checkout_id} is not null`),
    uniqueIndex('ledger_entries_refund_of_key')
      .on(t.refund_of)
      .where(sql`${t.refund_of} is not null`),
  ],
);
