import type { Tx } from '../../db/client.ts';

/**
 * Whether the organization may have one more workspace: the plan's `max_workspaces` (spec §5:
 * allowed when billing is off, or the organization has an active subscription and fewer live
 * workspaces than the limit; -1 or null is unlimited).
 *
 * Today it always allows: the billing issue fills it in (read the organization's subscription and
 * limit, count its live workspaces, throw a 403 with a code of its own when the limit is reached).
 * It runs inside the creation transaction after the organization row has been locked
 * `FOR UPDATE`, so two creations cannot both see room for one more.
 */
export async function assertWorkspaceLimit(_tx: Tx, _organizationId: string): Promise<void> {}
