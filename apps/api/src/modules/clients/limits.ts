import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { assertPlanRoom } from '../billing/index.ts';

/**
 * Whether the organization may have one more workspace: the plan's `max_workspaces` (spec §5).
 * It runs inside the creation transaction after the organization row has been locked
 * `FOR UPDATE`, so two creations cannot both see room for one more.
 */
export async function assertWorkspaceLimit(
  ctx: AppContext,
  tx: Tx,
  organizationId: string,
): Promise<void> {
  await assertPlanRoom(ctx, tx, organizationId, 'max_workspaces');
}
