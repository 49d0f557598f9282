import {
  ErrorCode,
  hasRoomFor,
  isSubscriptionActive,
  LIMIT_RESOURCES,
  type PlanLimitKey,
} from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { countUsage, findSubscription } from './subscription-repo.ts';

const LIMIT_WORDS: Record<PlanLimitKey, string> = {
  max_workspaces: 'workspaces',
  max_internal_users: 'internal users',
  max_external_users: 'external users',
};

/**
 * Spec §5: one more workspace or member is allowed when billing is off, or the organization has
 * an active subscription and its count (pending invitations included) is below the limit the
 * subscription holds (-1 or null: unlimited). Otherwise 402 SUBSCRIPTION_REQUIRED, or 403
 * PLAN_LIMIT_REACHED naming the limit.
 *
 * Callers hold the organization's row lock (`FOR UPDATE`) in the transaction that then creates,
 * so concurrent requests are counted one after another and never overshoot.
 */
export async function assertPlanRoom(
  ctx: AppContext,
  tx: Tx,
  organizationId: string,
  limit: PlanLimitKey,
): Promise<void> {
  if (!ctx.config.features.billing) return;
  const found = await findSubscription(tx, organizationId, ctx.config.appProfile);
  const subscription = found?.subscription;
  const state = subscription && {
    is_active: subscription.is_active,
    expired_in: subscription.expired_in?.toISOString() ?? null,
    amount: subscription.amount,
  };
  if (!subscription || !isSubscriptionActive(state, ctx.clock.now())) {
    throw new AppError(
      ErrorCode.SUBSCRIPTION_REQUIRED,
      'This organization has no active subscription. An owner or admin can choose a plan under Billing.',
    );
  }
  const max = subscription.limits[limit];
  const current = (await countUsage(tx, organizationId))[LIMIT_RESOURCES[limit]];
  if (hasRoomFor(max, current)) return;
  throw new AppError(
    ErrorCode.PLAN_LIMIT_REACHED,
    `Your plan allows ${max} ${LIMIT_WORDS[limit]}, and the organization has ${current}. Upgrade the plan under Billing to add more.`,
    { limit, max, current },
  );
}

/** Which of the plan's user limits a new or changed member counts against (spec §5). */
export type MemberKind = 'internal' | 'external';

/**
 * Whether the organization may have one more member of this kind: the plan's
 * `max_internal_users` (OWNER, ADMIN, STAFF) or `max_external_users` (CLIENT), pending
 * invitations counted. Callers (inviting, force-inviting, granting workspace access to a
 * newcomer, changing a role between internal and external) run it inside their transaction after
 * locking the organization row `FOR UPDATE`, so parallel requests cannot both see room for one more.
 */
export async function assertMemberLimit(
  ctx: AppContext,
  tx: Tx,
  organizationId: string,
  kind: MemberKind,
): Promise<void> {
  await assertPlanRoom(
    ctx,
    tx,
    organizationId,
    kind === 'internal' ? 'max_internal_users' : 'max_external_users',
  );
}
