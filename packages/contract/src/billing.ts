/**
 * Billing rules of spec §4, §5 and §9 as data and pure functions: plan limits, when a subscription
 * counts as active, whether there is room for one more, and the comparison a plan change shows.
 * Zod-free, so the web app's gate and buttons use the same answers as the server.
 */
import type { CARD_BRANDS } from './constants.ts';
import { PLAN_TYPES, type PlanType } from './constants.ts';

/** The limits a plan gives an organization (spec §3); -1 or null means unlimited. */
export const PLAN_LIMIT_KEYS = [
  'max_workspaces',
  'max_internal_users',
  'max_external_users',
] as const;
export type PlanLimitKey = (typeof PLAN_LIMIT_KEYS)[number];
export type PlanLimits = Record<PlanLimitKey, number | null>;

/** What each limit counts, as named in a plan change's `resource_comparison`. */
export const LIMIT_RESOURCES = {
  max_workspaces: 'clients',
  max_internal_users: 'internal_users',
  max_external_users: 'external_users',
} as const satisfies Record<PlanLimitKey, string>;
export type LimitResource = (typeof LIMIT_RESOURCES)[PlanLimitKey];
export type ResourceUsage = Record<LimitResource, number>;

export const isUnlimited = (limit: number | null | undefined): boolean =>
  limit === null || limit === undefined || limit < 0;

/** Spec §5: one more is allowed while the count is below the limit (-1 or null: always). */
export const hasRoomFor = (limit: number | null | undefined, count: number): boolean =>
  isUnlimited(limit) || count < (limit as number);

/** Whether `count` already exceeds what `limit` allows (a downgrade's warning). */
export const exceeds = (limit: number | null | undefined, count: number): boolean =>
  !isUnlimited(limit) && count > (limit as number);

/**
 * A subscription's life: TRIALING (a new organization's free trial, or a plan's trial days),
 * ACTIVE (paid), PAST_DUE (a renewal failed; retried), CANCELED (ended at the period's end after
 * an unsubscription), EXPIRED (the retries failed, or a trial ended without a card).
 */
export const SUBSCRIPTION_STATUSES = [
  'TRIALING',
  'ACTIVE',
  'PAST_DUE',
  'CANCELED',
  'EXPIRED',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The fields of spec §3's subscription that decide whether it is active. */
export interface SubscriptionState {
  is_active: boolean;
  /** ISO 8601: the end of the paid (or trial) period. */
  expired_in: string | null;
  /** Minor units. */
  amount: number;
}

/** Spec §4: active when is_active is true, or the expiry is in the future and amount is above 0. */
export function isSubscriptionActive(
  subscription: SubscriptionState | null | undefined,
  now: Date = new Date(),
): boolean {
  if (!subscription) return false;
  if (subscription.is_active) return true;
  if (!subscription.expired_in || subscription.amount <= 0) return false;
  return new Date(subscription.expired_in).getTime() > now.getTime();
}

/** Spec §4: the plan from `/register?plan=` is kept only when it is one of the four types. */
export function registerPlanOf(value: string | null | undefined): PlanType | null {
  return value && (PLAN_TYPES as readonly string[]).includes(value) ? (value as PlanType) : null;
}

/** A card's brand: one with a logo (spec §9, `CARD_BRANDS`), or a generic card. */
export type CardBrand = (typeof CARD_BRANDS)[number] | 'unknown';

/** A plan change is an upgrade when the new plan costs more per period, else a downgrade. */
export const GRADE_CHANGES = ['UPGRADE', 'DOWNGRADE'] as const;
export type GradeChange = (typeof GRADE_CHANGES)[number];

/** What an invoice was for. */
export const INVOICE_KINDS = ['SUBSCRIPTION', 'RENEWAL', 'UPGRADE', 'DOWNGRADE', 'TOP_UP'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

/** A failed renewal is retried this many times over RENEWAL_RETRY_DAYS, then the subscription ends. */
export const RENEWAL_RETRY_DAYS = [1, 3, 7] as const;

/** A new organization's free trial (no card): the STANDARD plan's trial days. */
export const NEW_ORGANIZATION_TRIAL_PLAN: PlanType = 'STANDARD';

export interface ResourceComparison {
  current: number;
  intent: number | null;
  is_warned: boolean;
}

/**
 * A plan change's `resource_comparison`: for each resource, what the organization has now, what
 * the new plan allows (null: unlimited), and whether the change would leave it over the limit.
 */
export function compareResources(
  usage: ResourceUsage,
  next: PlanLimits,
): Record<LimitResource, ResourceComparison> {
  const out = {} as Record<LimitResource, ResourceComparison>;
  for (const key of PLAN_LIMIT_KEYS) {
    const resource = LIMIT_RESOURCES[key];
    const limit = next[key];
    out[resource] = {
      current: usage[resource],
      intent: isUnlimited(limit) ? null : limit,
      is_warned: exceeds(limit, usage[resource]),
    };
  }
  return out;
}

/**
 * The prorated price difference of a plan change: the part of the period still to run, times the
 * difference of the two prices, rounded to the minor unit. Negative for a downgrade (a credit).
 */
export function prorate(
  fromPrice: number,
  toPrice: number,
  periodStart: Date,
  periodEnd: Date,
  now: Date,
): number {
  const total = periodEnd.getTime() - periodStart.getTime();
  if (total <= 0) return 0;
  const left = Math.min(Math.max(periodEnd.getTime() - now.getTime(), 0), total);
  return Math.round(((toPrice - fromPrice) * left) / total);
}
