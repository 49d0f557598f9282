import { NEW_ORGANIZATION_TRIAL_PLAN } from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { subscriptions } from '../../db/schema/index.ts';
import { findPlan } from './subscription-repo.ts';

const DAY_MS = 86_400_000;

/**
 * A new organization starts a free trial of the STANDARD plan, with no card (decision 0009): its
 * first minutes end in a working workspace, within the plan's limits. At the trial's end the
 * renewal job charges the default card; with none the subscription goes past due, then expires.
 * Nothing happens with billing off, or when the plan has no trial days.
 */
export async function startTrial(
  ctx: AppContext,
  tx: Tx,
  organizationId: string,
  subscriberId: string,
): Promise<void> {
  if (!ctx.config.features.billing) return;
  const plan = await findPlan(tx, ctx.config.appProfile, NEW_ORGANIZATION_TRIAL_PLAN);
  if (!plan || plan.trial_days <= 0) return;
  const now = ctx.clock.now();
  await tx
    .insert(subscriptions)
    .values({
      organization_id: organizationId,
      app_profile: ctx.config.appProfile,
      plan_id: plan.id,
      status: 'TRIALING',
      is_active: true,
      amount: plan.price,
      currency: plan.currency,
      current_period_start: now,
      expired_in: new Date(now.getTime() + plan.trial_days * DAY_MS),
      subscriber_id: subscriberId,
      limits: plan.config,
    })
    .onConflictDoNothing();
}
