import { AUTO_TOP_UP_STATUSES } from '@portolan/contract';
import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { invoices, type BilledTo } from './billing.ts';
import { id, timestamps, ts } from './columns.ts';
import { clients, organizations } from './organizations.ts';
import { users } from './users.ts';
import { fundPackages } from './wallet.ts';

/**
 * Money operations (issue 22). The organization's own settings (its cap, thresholds, auto top-up)
 * are columns of its billing account, whose row lock every balance movement holds already; what
 * is per workspace, per attempt or per document has a table here.
 */

/**
 * A workspace's monthly spend cap and what its current month has spent. Changed only under the
 * organization's billing account lock (charges hold it), so a count here is exact.
 */
export const workspaceSpendCaps = pgTable('workspace_spend_caps', {
  client_id: uuid('client_id')
    .primaryKey()
    .references(() => clients.id, { onDelete: 'cascade' }),
  organization_id: uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  /** null: no cap (the row still counts the month's spending). */
  monthly_limit: integer('monthly_limit'),
  /** The month `spent` counts; an older one reads as 0 spent. */
  period_start: ts('period_start'),
  spent: integer('spent').notNull().default(0),
  ...timestamps(),
});

/**
 * An automatic top-up (item 1): made PENDING in the transaction of the charge that took the
 * balance below the threshold, then paid off-session by the worker. At most one is PENDING per
 * organization (a unique index): never two in flight.
 */
export const autoTopUps = pgTable(
  'auto_top_ups',
  {
    id: id(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    fund_package_id: uuid('fund_package_id').references(() => fundPackages.id, {
      onDelete: 'set null',
    }),
    /** What the card is charged and what the balance gets, fixed when it was asked for. */
    amount: integer('amount').notNull(),
    credit: integer('credit').notNull(),
    currency: text('currency').notNull().default('usd'),
    status: text('status', { enum: AUTO_TOP_UP_STATUSES }).notNull().default('PENDING'),
    failure_reason: text('failure_reason'),
    /** The payment's invoice, once paid. */
    invoice_id: uuid('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    /** When the worker may try (again): a gateway that did not answer for sure is asked later. */
    next_attempt_at: ts('next_attempt_at').notNull().defaultNow(),
    /** A worker holds it until then (a crashed worker's claim runs out). */
    lease_until: ts('lease_until'),
    settled_at: ts('settled_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('auto_top_ups_one_pending')
      .on(t.organization_id)
      .where(sql`${t.status} = 'PENDING'`),
    index('auto_top_ups_org_created_idx').on(t.organization_id, t.created_at),
    index('auto_top_ups_pending_due_idx')
      .on(t.next_attempt_at)
      .where(sql`${t.status} = 'PENDING'`),
  ],
);

/** The organization's billing details (item 6), printed on every later invoice and credit note. */
export const billingDetails = pgTable('billing_details', {
  organization_id: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  company_name: text('company_name').notNull(),
  address: text('address').notNull(),
  country: text('country').notNull(),
  /** Normalized: upper case, no spaces or punctuation. */
  tax_id: text('tax_id'),
  ...timestamps(),
});

/**
 * A credit note (item 7): money of a paid invoice given back, numbered per organization
 * (CN-000001, gapless under the billing account's lock), with the buyer's details of that day.
 */
export const creditNotes = pgTable(
  'credit_notes',
  {
    id: id(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    invoice_id: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default('usd'),
    reason: text('reason').notNull(),
    lines: jsonb('lines').$type<{ description: string; amount: number }[]>().notNull(),
    billed_to: jsonb('billed_to').$type<BilledTo>(),
    /** The gateway's refund: one credit note per refund. */
    gateway_ref: text('gateway_ref'),
    created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (t) => [
    check('credit_notes_amount_positive', sql`${t.amount} > 0`),
    uniqueIndex('credit_notes_organization_number_key').on(t.organization_id, t.number),
    uniqueIndex('credit_notes_gateway_ref_key').on(t.gateway_ref),
    index('credit_notes_invoice_idx').on(t.invoice_id),
  ],
);
