import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { assertPlanRoom } from '../billing/index.ts';

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
