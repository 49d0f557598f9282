import { isSubscriptionActive, type Plan, type Subscription } from '@portolan/contract';

export type PlanAction =
  | { kind: 'contact' }
  | { kind: 'current' }
  | { kind: 'subscribe'; current: boolean }
  | { kind: 'upgrade' }
  | { kind: 'downgrade' };

/** Which plan costs more: by price per period, then by the plans' order. */
function rank(a: { price: number; order?: number }, b: { price: number; order?: number }): number {
  return a.price - b.price || (a.order ?? 0) - (b.order ?? 0);
}

/**
 * What a plan's card offers. A CUSTOM (not self-serve) plan is arranged by e-mail. Without an
 * active subscription, or during a trial, every plan is subscribed to (paid through the hosted
 * page); with one, the other plans are an upgrade or a downgrade of the current one (the
 * server's rule: more per period is an upgrade).
 */
export function planAction(
  plan: Plan,
  subscription: Subscription | null | undefined,
  plans: readonly Plan[],
  now?: Date,
): PlanAction {
  if (!plan.self_serve) return { kind: 'contact' };
  const isCurrent = subscription?.plan.type === plan.type;
  if (
    !subscription ||
    subscription.status === 'TRIALING' ||
    !isSubscriptionActive(subscription, now)
  ) {
    return { kind: 'subscribe', current: isCurrent && subscription?.status === 'TRIALING' };
  }
  if (isCurrent) return { kind: 'current' };
  const currentPlan = plans.find((p) => p.type === subscription.plan.type) ?? subscription.plan;
  return rank(plan, currentPlan) > 0 ? { kind: 'upgrade' } : { kind: 'downgrade' };
}
