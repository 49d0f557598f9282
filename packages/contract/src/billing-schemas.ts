import { z } from 'zod';
import {
  APP_PROFILE_NAMES,
  CARD_BRANDS,
  PAGE_SIZE,
  PLAN_TYPES,
  type AppProfile,
} from './constants.ts';
import { GRADE_CHANGES, SUBSCRIPTION_STATUSES } from './billing.ts';
import { pageQuery } from './organizations.ts';
import { paginated } from './pagination.ts';
import { roleRefSchema } from './tenant-fields.ts';
import { singleLine } from './text.ts';

/**
 * Billing calls of spec §7 (plans, subscriptions, checkouts, plan changes, cards). Money is an
 * integer of minor units with an ISO currency code; times are ISO 8601.
 */

const isoTime = z.iso.datetime({ offset: true });
const money = z.number().int();

// ---- plans ---------------------------------------------------------------------------------

const limitValue = z.number().int().nullable();
export const planConfigSchema = z.object({
  max_workspaces: limitValue,
  max_internal_users: limitValue,
  max_external_users: limitValue,
});

/** A plan with its configuration (spec §3 "Plan config: type, config"). */
export const planSchema = z.object({
  id: z.uuid(),
  type: z.enum(PLAN_TYPES),
  name: z.string(),
  description: z.string(),
  /** Selling points shown on the plan's card. */
  criteria: z.array(z.string()),
  /** Per period, minor units; 0 for CUSTOM (arranged through the support e-mail). */
  price: money,
  currency: z.string(),
  period: z.enum(['month', 'year']),
  trial_days: z.number().int(),
  order: z.number().int(),
  /** False for CUSTOM: the plans page offers "Email Now" instead of Subscribe. */
  self_serve: z.boolean(),
  config: planConfigSchema,
  /** The services (that otherwise draw on the balance) this plan includes at no charge. */
  included_services: z.array(z.object({ key: z.string(), name: z.string() })),
});
export type Plan = z.infer<typeof planSchema>;
export const planPageSchema = paginated(planSchema);

export const appParamsSchema = z.strictObject({
  app: z.enum(APP_PROFILE_NAMES as [AppProfile, ...AppProfile[]]),
});
export const planTypeParamsSchema = z.strictObject({ type: z.enum(PLAN_TYPES) });
/** GET /v1/plans/service/config/{app}: page 1, 99 by default (spec §9). */
export const planConfigQuerySchema = pageQuery(PAGE_SIZE.planConfigs);

// ---- subscriptions ---------------------------------------------------------------------------

export const subscriptionSchema = z.object({
  id: z.uuid(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  is_active: z.boolean(),
  /** The end of the current period (paid or trial). */
  expired_in: isoTime.nullable(),
  current_period_start: isoTime.nullable(),
  /** What one period costs on the current plan, minor units. */
  amount: money,
  currency: z.string(),
  plan: planSchema.pick({ id: true, type: true, name: true, price: true, period: true }),
  /** An unsubscription is pending: the subscription ends at `expired_in`. */
  cancel_at_period_end: z.boolean(),
  /** The member who subscribed (only they may unsubscribe). */
  subscriber_id: z.uuid().nullable(),
  /** The card renewals charge. */
  default_payment_method_id: z.uuid().nullable(),
  /** Failed renewal attempts since the last payment; the next one (PAST_DUE). */
  retry_count: z.number().int(),
  next_retry_at: isoTime.nullable(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const usageSchema = z.object({
  clients: z.number().int(),
  internal_users: z.number().int(),
  external_users: z.number().int(),
});

/** An entry of GET /v1/me/organizations/and/subscriptions/{app}. */
export const organizationSubscriptionSchema = z.object({
  organization: z.object({ id: z.uuid(), name: z.string(), role: roleRefSchema }),
  subscription: subscriptionSchema.nullable(),
  /** The limits in force (copied from the plan when a payment succeeded). */
  limits: planConfigSchema,
  /** What counts against them; pending invitations included. */
  usage: usageSchema,
});
export type OrganizationSubscription = z.infer<typeof organizationSubscriptionSchema>;
export const organizationSubscriptionPageSchema = paginated(organizationSubscriptionSchema);
/** Spec §7: the subscription list is fetched with page=1 and limit=99. */
export const subscriptionListQuerySchema = pageQuery(PAGE_SIZE.subscriptions);

// ---- checkouts -------------------------------------------------------------------------------

/** A hosted payment page of the gateway to send the browser to. */
export const checkoutSchema = z.object({
  id: z.uuid(),
  /** Where the browser goes to pay (the sandbox's own page, or the gateway's). */
  url: z.string(),
  status: z.enum(['OPEN', 'COMPLETE', 'FAILED', 'EXPIRED']),
  kind: z.enum(['SUBSCRIPTION', 'PAYMENT_METHOD', 'TOP_UP']),
  /** Why a failed checkout failed, in words for the user. */
  failure_message: z.string().nullable(),
  expires_at: isoTime,
});
export type Checkout = z.infer<typeof checkoutSchema>;

export const orgParamsSchema = z.strictObject({ orgId: z.uuid('Not a valid id.') });
export const checkoutParamsSchema = z.strictObject({
  orgId: z.uuid('Not a valid id.'),
  checkoutId: z.uuid('Not a valid id.'),
});
/** POST /v1/organizations/{orgId}/checkout/ and …/grade-changes/{preview,checkout}/. */
export const planChoiceSchema = z.strictObject({ plan: z.enum(PLAN_TYPES) });
export type PlanChoice = z.infer<typeof planChoiceSchema>;

/**
 * Every call that charges takes an `Idempotency-Key` header (1–255 visible characters): a replay
 * with the same key returns the first answer and charges nothing more.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const idempotencyKeySchema = singleLine()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/, 'Use visible ASCII characters only.');

// ---- plan changes ----------------------------------------------------------------------------

export const invoiceLineSchema = z.object({ description: z.string(), amount: money });
export const resourceComparisonSchema = z.object({
  current: z.number().int(),
  intent: z.number().int().nullable(),
  is_warned: z.boolean(),
});
export const gradeChangePreviewSchema = z.object({
  change: z.enum(GRADE_CHANGES),
  plan: planSchema,
  invoice: z.object({
    lines: z.array(invoiceLineSchema),
    subtotal: money,
    discounts: money,
    applied_balance: money,
    /** Charged now (0 for a downgrade, whose credit goes to the next renewal). */
    total: money,
    currency: z.string(),
    next_payment_date: isoTime.nullable(),
  }),
  resource_comparison: z.object({
    clients: resourceComparisonSchema,
    internal_users: resourceComparisonSchema,
    external_users: resourceComparisonSchema,
  }),
});
export type GradeChangePreview = z.infer<typeof gradeChangePreviewSchema>;

// ---- cards -----------------------------------------------------------------------------------

export const paymentMethodSchema = z.object({
  id: z.uuid(),
  brand: z.enum([...CARD_BRANDS, 'unknown']),
  last4: z.string(),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
  is_default: z.boolean(),
});
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;
export const paymentMethodListSchema = z.object({
  default_payment_method: z.uuid().nullable(),
  results: z.array(paymentMethodSchema),
});
export const paymentMethodChoiceSchema = z.strictObject({
  payment_method_id: z.uuid('Not a valid id.'),
});
