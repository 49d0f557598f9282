import { ErrorCode, type Subscription } from '@portolan/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { subscriptions } from '../../db/schema/index.ts';
import { AppError, conflict } from '../../lib/errors.ts';
import { lockTenant, type Actor } from '../access/index.ts';
import { recordBillingActivity } from './activity.ts';
import { notSubscribed, RUNNING_STATUSES } from './grade-change-service.ts';
import { findSubscription, toSubscriptionDto } from './subscription-repo.ts';

/**
 * GET …/unsubscription/ (spec §7; REFERENCE "Billing": cancels at the end of the period, only the
 * subscriber may). The subscription keeps running until `expired_in`; the renewal job then ends it
 * instead of charging. Under the subscription's row lock: of two at once, one answers 409.
 */
export async function unsubscribe(
  ctx: Pick<AppContext, 'db' | 'clock' | 'config'>,
  actor: Actor,
): Promise<Subscription> {
  return ctx.db.transaction(async (tx) => {
    await lockTenant(tx, { organizationId: actor.organization.id });
    const found = await findSubscription(tx, actor.organization.id, ctx.config.appProfile, {
      lock: true,
    });
    if (!found) throw notSubscribed();
    const { subscription: sub, plan } = found;
    if (sub.subscriber_id !== actor.userId)
      throw new AppError(
        ErrorCode.NOT_SUBSCRIBER,
        'Only the member who subscribed can cancel the subscription.',
      );
    if (!RUNNING_STATUSES.includes(sub.status)) throw notSubscribed();
    if (sub.cancel_at_period_end)
      throw conflict(
        ErrorCode.ALREADY_CANCELED,
        'The subscription is already canceled and ends with its period.',
      );
    const now = ctx.clock.now();
    const [updated] = await tx
      .update(subscriptions)
      .set({ cancel_at_period_end: true, canceled_at: now })
      .where(eq(subscriptions.id, sub.id))
      .returning();
    await recordBillingActivity(tx, {
      userId: actor.userId,
      organizationId: actor.organization.id,
      action: 'UNSUBSCRIBE',
      data: { plan: plan.type, ends_at: sub.expired_in?.toISOString() ?? null },
      event: {
        type: 'subscription.changed',
        data: {
          change: 'unsubscribed',
          plan: plan.type,
          previous_plan: null,
          status: updated!.status,
          period_end: updated!.expired_in?.toISOString() ?? null,
        },
      },
      at: now,
    });
    return toSubscriptionDto(updated!, plan);
  });
}
