import { RENEWAL_RETRY_DAYS } from '@portolan/contract';
import { and, asc, eq, inArray, isNull, lte, notInArray, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { paymentMethods, plans, subscriptions } from '../../db/schema/index.ts';
import { days, hours } from '../../lib/clock.ts';
import { startJob, type Job, type RunningJob } from '../../lib/jobs.ts';
import { recordChangeEvents } from '../events/index.ts';
import { tellRenewalFailed } from './dunning.ts';
import { recordInvoice } from './invoices.ts';
import type { PlanRow, SubscriptionRow } from './subscription-repo.ts';

/**
 * The renewal job (spec §4 billing; REFERENCE "Billing"): at the end of each period the default
 * card is charged for the next one. A failed charge leaves the subscription PAST_DUE (still
 * active) and is retried RENEWAL_RETRY_DAYS after the period's end; the last failed retry ends it.
 * An unsubscription takes effect here too: the subscription ends at its period's end.
 *
 * A charge whose outcome is unknown (no answer, the gateway's 5xx) is not a failure: the
 * gateway may have taken the money. Nothing is recorded, the attempt keeps its number (so its
 * idempotency key) and is asked again after UNKNOWN_OUTCOME_RETRY_MS, until the gateway answers
 * for sure; only a definite decline moves on to the next attempt, with a new key.
 *
 * Each definite failure is told to the organization's OWNERs and ADMINs (dunning.ts), in the
 * same transaction as the attempt.
 */

/** How long after a charge of unknown outcome the same attempt is asked again. */
export const UNKNOWN_OUTCOME_RETRY_MS = hours(1);

/** `mail`: the dunning e-mails' links (dunning.ts). */
export type RenewalContext = Pick<AppContext, 'db' | 'payments' | 'mail'>;

/** The end of a period starting at `start`: one calendar month (the day clamped) or year later. */
export function addPeriod(start: Date, period: 'month' | 'year'): Date {
  const months = period === 'year' ? 12 : 1;
  const out = new Date(start.getTime());
  const day = out.getUTCDate();
  out.setUTCDate(1);
  out.setUTCMonth(out.getUTCMonth() + months);
  // 31 January + 1 month is the last day of February, not 3 March.
  const lastDay = new Date(Date.UTC(out.getUTCFullYear(), out.getUTCMonth() + 1, 0)).getUTCDate();
  out.setUTCDate(Math.min(day, lastDay));
  return out;
}

/** MM/DD/YYYY (spec §9), in UTC so an invoice reads the same wherever the server runs. */
export function formatDay(date: Date): string {
  const mm = String(date.getUTCMonth() + 1).padStart(2, '0');
  const dd = String(date.getUTCDate()).padStart(2, '0');
  return `${mm}/${dd}/${date.getUTCFullYear()}`;
}

/** The organization's default card, if it still has it. */
export async function defaultCard(tx: Tx, subscription: SubscriptionRow) {
  if (!subscription.default_payment_method_id) return undefined;
  const [card] = await tx
    .select()
    .from(paymentMethods)
    .where(
      and(
        eq(paymentMethods.id, subscription.default_payment_method_id),
        eq(paymentMethods.organization_id, subscription.organization_id),
        isNull(paymentMethods.deleted_at),
      ),
    );
  return card;
}

/**
 * Handles every subscription due at `now`, each in a transaction of its own, claimed with
 * FOR UPDATE SKIP LOCKED: several instances (or two overlapping runs) never handle one twice.
 * Each subscription is handled at most once per run, so one long overdue catches up a period per
 * run instead of looping here. Returns how many were handled.
 */
export async function runRenewals(ctx: RenewalContext, now: Date): Promise<number> {
  const seen: string[] = [];
  for (;;) {
    const handled = await ctx.db.transaction(async (tx) => {
      const [due] = await tx
        .select({ subscription: subscriptions, plan: plans })
        .from(subscriptions)
        .innerJoin(plans, eq(plans.id, subscriptions.plan_id))
        .where(
          and(
            or(
              and(
                inArray(subscriptions.status, ['TRIALING', 'ACTIVE']),
                lte(subscriptions.expired_in, now),
              ),
              and(eq(subscriptions.status, 'PAST_DUE'), lte(subscriptions.next_retry_at, now)),
            ),
            seen.length ? notInArray(subscriptions.id, seen) : undefined,
          ),
        )
        .orderBy(asc(subscriptions.expired_in))
        .limit(1)
        .for('update', { of: subscriptions, skipLocked: true });
      if (!due) return null;
      await renewOne(ctx, tx, due.subscription, due.plan, now);
      return due.subscription.id;
    });
    if (!handled) return seen.length;
    seen.push(handled);
  }
}

async function renewOne(
  ctx: RenewalContext,
  tx: Tx,
  sub: SubscriptionRow,
  plan: PlanRow,
  now: Date,
): Promise<void> {
  const periodEnd = sub.expired_in!;
  const at = (values: Partial<typeof subscriptions.$inferInsert>) =>
    tx.update(subscriptions).set(values).where(eq(subscriptions.id, sub.id));
  /** The subscription lapses: its event (subscription.changed, ended). */
  const ended = (status: 'CANCELED' | 'EXPIRED') =>
    recordChangeEvents(tx, sub.organization_id, now, [
      {
        type: 'subscription.changed',
        data: {
          change: 'ended',
          plan: plan.type,
          previous_plan: null,
          status,
          period_end: periodEnd.toISOString(),
        },
      },
    ]);

  if (sub.cancel_at_period_end) {
    await at({ status: 'CANCELED', is_active: false, next_retry_at: null });
    await ended('CANCELED');
    return;
  }

  const consumed = Math.min(Math.max(sub.credit, 0), sub.amount);
  const due = sub.amount - consumed;
  const nextEnd = addPeriod(periodEnd, plan.period);
  const lines = [
    {
      description: `${plan.name} plan (${formatDay(periodEnd)} – ${formatDay(nextEnd)})`,
      amount: sub.amount,
    },
    ...(consumed > 0 ? [{ description: 'Applied balance', amount: -consumed }] : []),
  ];
  const invoice = {
    organizationId: sub.organization_id,
    subscriptionId: sub.id,
    kind: 'RENEWAL' as const,
    amount: due,
    currency: sub.currency,
    description: `Renewal of the ${plan.name} plan`,
    lines,
    at: now,
  };

  let outcome:
    { ok: true; chargeRef: string | null } | { ok: false; message: string; unknown?: true };
  if (due === 0) {
    outcome = { ok: true, chargeRef: null };
  } else {
    const card = await defaultCard(tx, sub);
    // The charge runs inside the transaction holding the row lock: another runner skips the row
    // meanwhile, and the idempotency key makes a charge retried after a lost commit a replay.
    outcome = card
      ? await ctx.payments.charge({
          customerRef: sub.gateway_customer_ref,
          paymentMethodRef: card.gateway_ref,
          amount: due,
          currency: sub.currency,
          description: invoice.description,
          // One key per attempt: the same until the gateway answers it for sure.
          idempotencyKey: `renewal:${sub.id}:${periodEnd.toISOString()}:${sub.retry_count}`,
        })
      : { ok: false, message: 'The organization has no card to charge. Add one.' };
  }

  if (outcome.ok) {
    await at({
      status: 'ACTIVE',
      is_active: true,
      current_period_start: periodEnd,
      expired_in: nextEnd,
      credit: sub.credit - consumed,
      retry_count: 0,
      next_retry_at: null,
      limits: plan.config,
    });
    // A plan costing nothing (CUSTOM, arranged with sales) renews without an invoice.
    if (sub.amount > 0)
      await recordInvoice(tx, { ...invoice, status: 'PAID', gatewayRef: outcome.chargeRef });
    return;
  }

  if (outcome.unknown) {
    await at({
      status: 'PAST_DUE',
      is_active: true,
      next_retry_at: new Date(now.getTime() + UNKNOWN_OUTCOME_RETRY_MS),
    });
    return;
  }

  await recordInvoice(tx, { ...invoice, status: 'FAILED', gatewayRef: null });
  // retry_count counts failed attempts: the first failure schedules RENEWAL_RETRY_DAYS[0], the
  // n-th RENEWAL_RETRY_DAYS[n-1]; a failure with no retry left ends the subscription.
  const retryDays = RENEWAL_RETRY_DAYS[sub.retry_count];
  // Dunning: the OWNERs and ADMINs hear of each failed attempt, in this transaction.
  const failed = {
    organizationId: sub.organization_id,
    plan: plan.name,
    reason: outcome.message,
    attempt: sub.retry_count + 1,
    now,
  };
  if (retryDays === undefined) {
    await at({
      status: 'EXPIRED',
      is_active: false,
      retry_count: sub.retry_count + 1,
      next_retry_at: null,
    });
    await ended('EXPIRED');
    await tellRenewalFailed(ctx, tx, { ...failed, nextAttemptAt: null });
    return;
  }
  const nextAttemptAt = new Date(periodEnd.getTime() + days(retryDays));
  await at({
    status: 'PAST_DUE',
    // Still active while retried: the organization keeps working during the grace days.
    is_active: true,
    retry_count: sub.retry_count + 1,
    next_retry_at: nextAttemptAt,
  });
  await tellRenewalFailed(ctx, tx, { ...failed, nextAttemptAt });
}

/** How often the job looks for due subscriptions. */
export const RENEWAL_INTERVAL_MS = 60_000;

/** The renewal job, declared for the runner (lib/jobs.ts). */
export const renewalJob = (ctx: RenewalContext & Pick<AppContext, 'clock'>): Job => ({
  name: 'renewal',
  everyMs: RENEWAL_INTERVAL_MS,
  // One line at the start of an outage and then one an hour, not one per tick.
  logEvery: 60,
  run: () => runRenewals(ctx, ctx.clock.now()),
});

/** The renewal job on its own (tests): every `intervalMs` until stopped. */
export function startRenewalJob(
  ctx: RenewalContext & Pick<AppContext, 'clock'>,
  options: { log?: FastifyBaseLogger; intervalMs?: number } = {},
): RunningJob {
  return startJob(
    { ...renewalJob(ctx), everyMs: options.intervalMs ?? RENEWAL_INTERVAL_MS },
    options.log,
  );
}
