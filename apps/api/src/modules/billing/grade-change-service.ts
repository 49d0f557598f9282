import crypto from 'node:crypto';
import {
  compareResources,
  ErrorCode,
  prorate,
  type GradeChange,
  type GradeChangePreview,
  type PlanChoice,
  type Subscription,
} from '@portolan/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db, Tx } from '../../db/client.ts';
import { subscriptions } from '../../db/schema/index.ts';
import { CHARGE_FAILURE_MESSAGES } from '../../lib/payments/gateway.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import { lockTenant, type Actor } from '../access/index.ts';
import { recordBillingActivity } from './activity.ts';
import { callerOf } from './idempotency.ts';
import { recordInvoice } from './invoices.ts';
import { listBalanceServices } from './wallet-service.ts';
import { addPeriod, defaultCard, formatDay } from './renewal.ts';
import {
  countUsage,
  findPlan,
  findSubscription,
  toPlanDto,
  toSubscriptionDto,
  type PlanRow,
  type SubscriptionRow,
} from './subscription-repo.ts';

/**
 * Plan changes (REFERENCE "Billing", spec §7 grade-changes): a preview of the prorated invoice and
 * of the limits the new plan would leave, and the change itself. An upgrade pays the prorated
 * difference now; a downgrade's unused time becomes credit taken off the next renewal. A trial has
 * paid nothing, so changing its plan starts a paid period on the new plan now.
 */

type GradeCtx = Pick<AppContext, 'db' | 'clock' | 'config' | 'payments'>;

/** Statuses a plan can be changed (or unsubscribed) in: the subscription is running. */
export const RUNNING_STATUSES: readonly SubscriptionRow['status'][] = [
  'TRIALING',
  'ACTIVE',
  'PAST_DUE',
];

export const notSubscribed = () =>
  conflict(ErrorCode.NOT_SUBSCRIBED, 'The organization has no active subscription.');

interface PlannedChange {
  subscription: SubscriptionRow;
  plan: PlanRow;
  preview: GradeChangePreview;
  /** The subscription's credit after the change. */
  credit: number;
  /** The period after the change (a trial starts a new one now). */
  periodStart: Date | null;
  periodEnd: Date | null;
}

/** Works the change out from the subscription read (locked, for a checkout). Writes nothing. */
async function planChange(
  ctx: GradeCtx,
  conn: Db | Tx,
  organizationId: string,
  choice: PlanChoice,
  found: Awaited<ReturnType<typeof findSubscription>>,
): Promise<PlannedChange> {
  const app = ctx.config.appProfile;
  if (!found || !RUNNING_STATUSES.includes(found.subscription.status)) throw notSubscribed();
  const { subscription: sub, plan: current } = found;
  if (choice.plan === 'CUSTOM')
    throw conflict(
      ErrorCode.PLAN_NOT_SELF_SERVE,
      'The Custom plan is arranged with our sales team.',
    );
  const [plan, services] = await Promise.all([
    findPlan(conn, app, choice.plan),
    listBalanceServices(conn, app),
  ]);
  if (!plan) throw notFound('No such plan.');
  if (!plan.self_serve)
    throw conflict(ErrorCode.PLAN_NOT_SELF_SERVE, 'This plan is arranged with our sales team.');
  if (plan.id === current.id)
    throw conflict(ErrorCode.SAME_PLAN, 'The organization is already on this plan.');

  const now = ctx.clock.now();
  const change: GradeChange = plan.price > current.price ? 'UPGRADE' : 'DOWNGRADE';
  const credit = Math.max(sub.credit, 0);
  let lines: { description: string; amount: number }[];
  let periodStart = sub.current_period_start;
  let periodEnd = sub.expired_in;
  let total: number;
  let applied = 0;
  let creditAfter: number;

  if (sub.status === 'TRIALING' || !periodStart || !periodEnd) {
    // Nothing was paid for the trial: the new plan's first period starts now, paid in full.
    periodStart = now;
    periodEnd = addPeriod(now, plan.period);
    lines = [
      {
        description: `${plan.name} plan (${formatDay(periodStart)} – ${formatDay(periodEnd)})`,
        amount: plan.price,
      },
    ];
    applied = Math.min(credit, plan.price);
    total = plan.price - applied;
    creditAfter = credit - applied;
  } else {
    const dates = `${formatDay(now)} – ${formatDay(periodEnd)}`;
    lines = [
      {
        description: `Unused time on ${current.name} (${dates})`,
        amount: prorate(current.price, 0, periodStart, periodEnd, now),
      },
      {
        description: `Remaining time on ${plan.name} (${dates})`,
        amount: prorate(0, plan.price, periodStart, periodEnd, now),
      },
    ];
    const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
    if (change === 'UPGRADE') {
      applied = subtotal > 0 ? Math.min(credit, subtotal) : 0;
      total = Math.max(subtotal - applied, 0);
      creditAfter = credit - applied;
    } else {
      // A downgrade charges nothing: what its unused time was worth is kept as credit.
      total = 0;
      creditAfter = credit + Math.max(-subtotal, 0);
    }
  }

  const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
  const usage = await countUsage(conn, organizationId);
  return {
    subscription: sub,
    plan,
    credit: creditAfter,
    periodStart,
    periodEnd,
    preview: {
      change,
      plan: toPlanDto(plan, services),
      invoice: {
        lines,
        subtotal,
        discounts: 0,
        applied_balance: applied,
        total,
        currency: plan.currency,
        next_payment_date: periodEnd.toISOString(),
      },
      resource_comparison: compareResources(usage, plan.config),
    },
  };
}

/** POST …/grade-changes/preview/: what the change would cost and leave. Writes nothing. */
export async function previewGradeChange(
  ctx: GradeCtx,
  actor: Actor,
  choice: PlanChoice,
): Promise<GradeChangePreview> {
  const orgId = actor.organization.id;
  const found = await findSubscription(ctx.db, orgId, ctx.config.appProfile);
  return (await planChange(ctx, ctx.db, orgId, choice, found)).preview;
}

/**
 * POST …/grade-changes/checkout/: the change, under the subscription's row lock so two changes
 * never both apply (the second finds the plan already changed: SAME_PLAN). An upgrade charges the
 * default card first; a failed charge changes nothing (no invoice is kept, the transaction rolls
 * back). The charge runs inside the transaction: acceptable while the gateway answers quickly (the
 * sandbox is in process); its idempotency key makes a retry after a lost commit a replay.
 */
export async function checkoutGradeChange(
  ctx: GradeCtx,
  actor: Actor,
  choice: PlanChoice,
  idempotencyKey: string,
): Promise<Subscription> {
  return ctx.db.transaction(async (tx) => {
    const orgId = actor.organization.id;
    await lockTenant(tx, { organizationId: orgId });
    const found = await findSubscription(tx, orgId, ctx.config.appProfile, { lock: true });
    const planned = await planChange(ctx, tx, orgId, choice, found);
    const { subscription: sub, plan, preview } = planned;
    const { invoice } = preview;
    let chargeRef: string | null = null;
    if (invoice.total > 0) {
      const card = await defaultCard(tx, sub);
      if (!card)
        throw conflict(ErrorCode.NO_PAYMENT_METHOD, 'Add a card to the organization first.');
      const result = await ctx.payments.charge({
        customerRef: sub.gateway_customer_ref,
        paymentMethodRef: card.gateway_ref,
        amount: invoice.total,
        currency: invoice.currency,
        description: `Change to the ${plan.name} plan`,
        // The caller's key, per caller (another member's same key is another change), hashed so
        // the gateway's key stays within Stripe's 255 characters.
        idempotencyKey: `grade:${sub.id}:${crypto
          .createHash('sha256')
          .update(`${callerOf(actor)}\n${idempotencyKey}`)
          .digest('hex')}`,
      });
      if (!result.ok)
        throw new AppError(ErrorCode.PAYMENT_FAILED, CHARGE_FAILURE_MESSAGES[result.reason]);
      chargeRef = result.chargeRef;
    }
    const [updated] = await tx
      .update(subscriptions)
      .set({
        plan_id: plan.id,
        amount: plan.price,
        currency: plan.currency,
        limits: plan.config,
        credit: planned.credit,
        status: sub.status === 'PAST_DUE' ? 'PAST_DUE' : 'ACTIVE',
        is_active: true,
        current_period_start: planned.periodStart,
        expired_in: planned.periodEnd,
      })
      .where(eq(subscriptions.id, sub.id))
      .returning();
    await recordInvoice(tx, {
      organizationId: sub.organization_id,
      subscriptionId: sub.id,
      kind: preview.change,
      status: 'PAID',
      amount: invoice.total,
      currency: invoice.currency,
      description: `${preview.change === 'UPGRADE' ? 'Upgrade' : 'Downgrade'} to the ${plan.name} plan`,
      lines: [
        ...invoice.lines,
        ...(invoice.applied_balance > 0
          ? [{ description: 'Applied balance', amount: -invoice.applied_balance }]
          : []),
      ],
      gatewayRef: chargeRef,
      at: ctx.clock.now(),
    });
    await recordBillingActivity(tx, {
      userId: actor.userId,
      organizationId: orgId,
      action: 'CHANGE_PLAN',
      data: {
        change: preview.change,
        from: found?.plan.type ?? null,
        plan: plan.type,
        amount: invoice.total,
        currency: invoice.currency,
      },
      event: {
        type: 'subscription.changed',
        data: {
          change: 'plan_changed',
          plan: plan.type,
          previous_plan: found?.plan.type ?? null,
          status: updated!.status,
          period_end: updated!.expired_in?.toISOString() ?? null,
        },
      },
      at: ctx.clock.now(),
    });
    return toSubscriptionDto(updated!, plan);
  });
}
