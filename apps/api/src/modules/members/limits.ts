import type { Tx } from '../../db/client.ts';

/** Which of the plan's user limits a new or changed member counts against (spec §5). */
export type MemberKind = 'internal' | 'external';

/**
 * Whether the organization may have one more member of this kind: the plan's
 * `max_internal_users` (OWNER, ADMIN, STAFF) or `max_external_users` (CLIENT). Spec §5: allowed
 * when billing is off, or the subscription is active and the count, pending invitations included,
 * is below the limit (-1 or null is unlimited).
 *
 * Today it always allows: the billing issue fills it in. Callers (inviting, force-inviting,
 * granting workspace access to a newcomer, changing a role between internal and external) run it
 * inside their transaction after locking the organization row `FOR UPDATE`, so parallel requests
 * cannot both see room for one more.
 */
export async function assertMemberLimit(
  _tx: Tx,
  _organizationId: string,
  _kind: MemberKind,
): Promise<void> {}
