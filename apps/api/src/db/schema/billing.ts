import {
  CARD_BRANDS,
  INVOICE_KINDS,
  PLAN_TYPES,
  SUBSCRIPTION_STATUSES,
  type AppProfile,
  type PlanLimits,
} from '@portolan/contract';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { id, timestamps, ts } from './columns.ts';
import { organizations } from './organizations.ts';
import { users } from './users.ts';

/**
 * Plans are data (migration 0007 seeds them): price, period, trial days and the limits an
 * organization gets, per app profile and type.
 */
export const plans = pgTable(
  'plans',
  {
    id: id(),
    app_profile: text('app_profile').$type<AppProfile>().notNull(),
    type: text('type', { enum: PLAN_TYPES }).notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    criteria: jsonb('criteria').$type<string[]>().notNull().default([]),
    /** Per period, minor units. */
    price: integer('price').notNull(),
    currency: text('currency').notNull().default('usd'),
    period: text('period', { enum: ['month', 'year'] })
      .notNull()
      .default('month'),
    trial_days: integer('trial_days').notNull().default(0),
    sort_order: integer('sort_order').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    self_serve: boolean('self_serve').notNull().default(true),
    config: jsonb('config').$type<PlanLimits>().notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('plans_app_type_key').on(t.app_profile, t.type)],
);

/** The cards of an organization: only what the gateway tells (brand, last 4, expiry), never a number. */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: id(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The gateway's id of the card (a sandbox token, or a Stripe PaymentMethod). */
    gateway_ref: text('gateway_ref').notNull(),
    brand: text('brand', { enum: [...CARD_BRANDS, 'unknown'] }).notNull(),
    last4: text('last4').notNull(),
    exp_month: integer('exp_month').notNull(),
    exp_year: integer('exp_year').notNull(),
    ...timestamps(),
    deleted_at: ts('deleted_at'),
  },
  (t) => [
    index('payment_methods_organization_id_idx').on(t.organization_id),
    uniqueIndex('payment_methods_gateway_ref_key').on(t.gateway_ref),
  ],
);

/**
 * One subscription per organization and app profile. `limits` are copied from the plan when a
 * payment succeeds (or a trial starts), so a later change of the plan's data does not move them.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: id(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    app_profile: text('app_profile').$type<AppProfile>().notNull(),
    plan_id: uuid('plan_id')
      .notNull()
      .references(() => plans.id),
    status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull(),
    is_active: boolean('is_active').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default('usd'),
    current_period_start: ts('current_period_start'),
    /** The end of the current period: renewal is due then. */
    expired_in: ts('expired_in'),
    cancel_at_period_end: boolean('cancel_at_period_end').notNull().default(false),
    canceled_at: ts('canceled_at'),
    subscriber_id: uuid('subscriber_id').references(() => users.id, { onDelete: 'set null' }),
    default_payment_method_id: uuid('default_payment_method_id').references(
      () => paymentMethods.id,
      { onDelete: 'set null' },
    ),
    limits: jsonb('limits').$type<PlanLimits>().notNull(),
    /** A downgrade's prorated credit, minor units, taken off the next renewal. */
    credit: integer('credit').notNull().default(0),
    retry_count: integer('retry_count').notNull().default(0),
    next_retry_at: ts('next_retry_at'),
    /** The gateway's customer of the organization (Stripe), when it has one. */
    gateway_customer_ref: text('gateway_customer_ref'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('subscriptions_org_app_key').on(t.organization_id, t.app_profile),
    // The renewal job's scan: what falls due.
    index('subscriptions_due_idx')
      .on(t.expired_in)
      .where(sql`${t.status} in ('TRIALING', 'ACTIVE', 'PAST_DUE')`),
  ],
);

/** A payment, or a failed attempt at one: what was charged, for what, and its lines. */
/** What an invoice or a credit note prints of its buyer. */
export interface BilledTo {
  company_name: string;
  address: string;
  country: string;
  tax_id: string | null;
}

export const invoices = pgTable(
  'invoices',
  {
    id: id(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    subscription_id: uuid('subscription_id').references(() => subscriptions.id, {
      onDelete: 'set null',
    }),
    /** Per organization, gapless, from its billing account (printed INV-000042). */
    number: integer('number').notNull(),
    kind: text('kind', { enum: INVOICE_KINDS }).notNull(),
    status: text('status', { enum: ['PAID', 'FAILED'] }).notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default('usd'),
    description: text('description').notNull(),
    lines: jsonb('lines').$type<{ description: string; amount: number }[]>().notNull(),
    /** The gateway's charge (or checkout) this records; one invoice per payment. */
    gateway_ref: text('gateway_ref'),
    /**
     * The organization's billing details when the invoice was made (issue 22 item 6): printed on
     * it ever after, whatever they become. Null: none were saved then (the name alone prints).
     */
    billed_to: jsonb('billed_to').$type<BilledTo>(),
    ...timestamps(),
  },
  (t) => [
    index('invoices_organization_created_idx').on(t.organization_id, t.created_at),
    uniqueIndex('invoices_organization_number_key').on(t.organization_id, t.number),
    uniqueIndex('invoices_gateway_ref_key').on(t.gateway_ref),
  ],
);

/**
 * A hosted payment page opened for an organization: to subscribe to a plan (SUBSCRIPTION) or to
 * add a card (PAYMENT_METHOD). The gateway's events close it exactly once.
 */
export const checkouts = pgTable(
  'checkouts',
  {
    id: id(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['SUBSCRIPTION', 'PAYMENT_METHOD', 'TOP_UP'] }).notNull(),
    plan_id: uuid('plan_id').references(() => plans.id),
    /** What a TOP_UP buys (fund_packages; no reference: a package may be retired later). */
    fund_package_id: uuid('fund_package_id'),
    /** The credit a TOP_UP adds, fixed when the page opens. */
    credit: integer('credit'),
    /** What the hosted page says is being bought. */
    description: text('description').notNull().default(''),
    amount: integer('amount').notNull().default(0),
    currency: text('currency').notNull().default('usd'),
    status: text('status', { enum: ['OPEN', 'COMPLETE', 'FAILED', 'EXPIRED'] })
      .notNull()
      .default('OPEN'),
    failure_message: text('failure_message'),
    /** The gateway's session (the sandbox's own id, or a Stripe Checkout Session). */
    gateway_ref: text('gateway_ref'),
    url: text('url').notNull().default(''),
    created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    expires_at: ts('expires_at').notNull(),
    ...timestamps(),
  },
  (t) => [
    index('checkouts_organization_id_idx').on(t.organization_id),
    uniqueIndex('checkouts_gateway_ref_key').on(t.gateway_ref),
  ],
);

/**
 * The first answer to a paying call, by its Idempotency-Key: a replay gets it back and charges
 * nothing. The key is scoped to the organization and the caller.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: id(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** Method, path and a hash of the body: the same key for another request is a 409. */
    fingerprint: text('fingerprint').notNull(),
    status_code: integer('status_code'),
    response: jsonb('response'),
    /**
     * When its owner took the key (the app's clock): a row still without an answer after
     * IDEMPOTENCY_LEASE_MS belongs to a process that died, and the next request takes it over.
     */
    leased_at: ts('leased_at').notNull().defaultNow(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('idempotency_keys_scope_key').on(t.organization_id, t.user_id, t.key)],
);

/** Gateway events already handled, by the gateway's event id: a redelivery changes nothing. */
export const gatewayEvents = pgTable('gateway_events', {
  id: text('id').primaryKey(),
  gateway: text('gateway').notNull(),
  type: text('type').notNull(),
  received_at: ts('received_at').notNull().defaultNow(),
  /** Set when the event was refused although signed: 'amount_mismatch' (nothing applied). */
  outcome: text('outcome'),
  /** What was refused, for the operators: the amounts and currencies of checkout and event. */
  reason: text('reason'),
});
