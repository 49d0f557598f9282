import {
  ErrorCode,
  isSubscriptionActive,
  type Checkout,
  type PlanChoice,
} from '@portolan/contract';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { checkouts } from '../../db/schema/index.ts';
import { hours } from '../../lib/clock.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import type { Actor } from '../access/index.ts';
import { findPlan, findPlanById, findSubscription, type PlanRow } from './subscription-repo.ts';

/**
 * Hosted payment pages (checkouts): to subscribe to a plan, or to add a card. The portal's row
 * comes first (its id travels through the gateway and back in the events), then the gateway's
 * page. The outcome arrives as an event (events.ts), never from the browser's redirect.
 */

export type CheckoutRow = typeof checkouts.$inferSelect;
type CheckoutKind = CheckoutRow['kind'];

/** A hosted page stays payable this long. */
export const CHECKOUT_LIFETIME_MS = hours(1);

export function toCheckoutDto(row: CheckoutRow, now: Date): Checkout {
  // An open page past its time reads as expired, whether or not its gateway said so yet.
  const expired = row.status === 'OPEN' && row.expires_at.getTime() <= now.getTime();
  return {
    id: row.id,
    url: row.url,
    status: expired ? 'EXPIRED' : row.status,
    kind: row.kind,
    failure_message: row.failure_message,
    expires_at: row.expires_at.toISOString(),
  };
}

/** Where the browser goes back to: the billing pages of the web app, naming the checkout. */
export function checkoutLinks(
  ctx: AppContext,
  row: Pick<CheckoutRow, 'id' | 'kind' | 'organization_id'>,
): { successUrl: string; cancelUrl: string } {
  const base = `${ctx.config.publicUrl}/ps/organization-settings/${row.organization_id}/billing`;
  const query = `?checkout=${row.id}`;
  const [success, cancel] = BACK_TO[row.kind];
  return { successUrl: `${base}/${success}${query}`, cancelUrl: `${base}/${cancel}${query}` };
}

/** The billing pages a checkout's browser comes back to: on payment, and on giving up. */
const BACK_TO: Record<CheckoutKind, [string, string]> = {
  SUBSCRIPTION: ['subscription', 'plans'],
  PAYMENT_METHOD: ['cards', 'cards'],
  TOP_UP: ['history', 'fund-packages'],
};

/** What the hosted page says is being bought (for checkouts made before it was stored). */
export function describeCheckout(kind: CheckoutKind, plan: PlanRow | undefined): string {
  if (kind === 'PAYMENT_METHOD' || !plan) return 'Add a card for future payments';
  return planDescription(plan);
}

export const planDescription = (plan: PlanRow) =>
  `${plan.name} plan, ${plan.period === 'year' ? 'yearly' : 'monthly'}`;

/** What a checkout sells: a plan's period, a fund package's credit, or nothing (a card). */
export interface CheckoutItem {
  kind: CheckoutKind;
  amount: number;
  currency: string;
  description: string;
  planId?: string;
  fundPackageId?: string;
  credit?: number;
}

export async function openHostedCheckout(
  ctx: AppContext,
  actor: Actor,
  item: CheckoutItem,
): Promise<Checkout> {
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + CHECKOUT_LIFETIME_MS);
  const [row] = await ctx.db
    .insert(checkouts)
    .values({
      organization_id: actor.organization.id,
      kind: item.kind,
      plan_id: item.planId ?? null,
      fund_package_id: item.fundPackageId ?? null,
      credit: item.credit ?? null,
      amount: item.amount,
      currency: item.currency,
      description: item.description,
      created_by: actor.userId,
      expires_at: expiresAt,
    })
    .returning();
  const existing = await findSubscription(ctx.db, actor.organization.id, ctx.config.appProfile);
  let hosted;
  try {
    hosted = await ctx.payments.openCheckout({
      checkoutId: row!.id,
      mode: item.kind === 'PAYMENT_METHOD' ? 'setup' : 'payment',
      organizationId: actor.organization.id,
      customerRef: existing?.subscription.gateway_customer_ref ?? null,
      amount: row!.amount,
      currency: row!.currency,
      description: item.description,
      ...checkoutLinks(ctx, row!),
      expiresAt,
    });
  } catch (error) {
    // The page never opened: the row must not look payable.
    await ctx.db
      .update(checkouts)
      .set({ status: 'FAILED', failure_message: 'The payment page could not be opened.' })
      .where(eq(checkouts.id, row!.id));
    // The gateway's own error rides along as the cause, for the log; the caller reads ours.
    throw Object.assign(
      new AppError(
        ErrorCode.SERVICE_UNAVAILABLE,
        'The payment service is not available. Try again in a few minutes.',
      ),
      { cause: error },
    );
  }
  const [opened] = await ctx.db
    .update(checkouts)
    .set({ gateway_ref: hosted.gatewayRef, url: hosted.url })
    .where(eq(checkouts.id, row!.id))
    .returning();
  return toCheckoutDto(opened!, now);
}

/**
 * POST /v1/organizations/{orgId}/checkout/: a hosted page to subscribe to a plan. CUSTOM is
 * arranged with sales; an organization paying already changes its plan instead. A trial may be
 * ended by subscribing.
 */
export async function startSubscriptionCheckout(
  ctx: AppContext,
  actor: Actor,
  choice: PlanChoice,
): Promise<Checkout> {
  const plan = await findPlan(ctx.db, ctx.config.appProfile, choice.plan);
  if (!plan) throw notFound('No such plan.');
  if (!plan.self_serve || plan.type === 'CUSTOM')
    throw conflict(
      ErrorCode.PLAN_NOT_SELF_SERVE,
      `The Custom plan is arranged with our team: write to ${ctx.config.supportEmail}.`,
    );
  const current = await findSubscription(ctx.db, actor.organization.id, ctx.config.appProfile);
  if (
    current &&
    current.subscription.status !== 'TRIALING' &&
    isSubscriptionActive(
      {
        is_active: current.subscription.is_active,
        expired_in: current.subscription.expired_in?.toISOString() ?? null,
        amount: current.subscription.amount,
      },
      ctx.clock.now(),
    )
  )
    throw conflict(
      ErrorCode.ALREADY_SUBSCRIBED,
      'This organization already has a subscription: change its plan instead.',
    );
  return openHostedCheckout(ctx, actor, {
    kind: 'SUBSCRIPTION',
    planId: plan.id,
    amount: plan.price,
    currency: plan.currency,
    description: planDescription(plan),
  });
}

/** POST …/payment-methods/checkout/: a hosted page that only keeps a card (nothing charged). */
export async function startCardCheckout(ctx: AppContext, actor: Actor): Promise<Checkout> {
  return openHostedCheckout(ctx, actor, {
    kind: 'PAYMENT_METHOD',
    amount: 0,
    currency: 'usd',
    description: describeCheckout('PAYMENT_METHOD', undefined),
  });
}

/** GET …/checkout/{checkoutId}/: the outcome after the browser came back. */
export async function getCheckout(
  ctx: AppContext,
  actor: Actor,
  checkoutId: string,
): Promise<Checkout> {
  const [row] = await ctx.db
    .select()
    .from(checkouts)
    .where(and(eq(checkouts.id, checkoutId), eq(checkouts.organization_id, actor.organization.id)));
  if (!row) throw notFound('No such checkout.');
  return toCheckoutDto(row, ctx.clock.now());
}

/** The checkout of a gateway's session with its plan (the sandbox's hosted page). */
export async function findCheckoutByRef(
  ctx: AppContext,
  gatewayRef: string,
): Promise<{ checkout: CheckoutRow; plan: PlanRow | undefined } | undefined> {
  const [row] = await ctx.db.select().from(checkouts).where(eq(checkouts.gateway_ref, gatewayRef));
  if (!row) return undefined;
  return { checkout: row, plan: row.plan_id ? await findPlanById(ctx.db, row.plan_id) : undefined };
}
