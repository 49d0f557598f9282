import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import { clients } from '../../db/schema/index.ts';

/**
 * Which workspaces a user sees in lists (REFERENCE "Who may do what"), as one SQL condition over
 * `clients`, shared by every list so the rule is written once:
 * - an accepted OWNER or ADMIN of the organization sees every live workspace of it, active or
 *   waiting for approval;
 * - anyone else sees the active workspaces they are an accepted member of, and the pending ones
 *   they created (clients.owner_id).
 * The caller says, in terms of its own joins, whether the user is an organization admin
 * (`true` when already known in code) and whether they hold an accepted workspace membership.
 */
export function workspaceVisibleTo(
  userId: string,
  facts: { orgAdmin: SQL | boolean; acceptedWorkspaceMember: SQL },
): SQL | undefined {
  if (facts.orgAdmin === true) return undefined;
  return (
    or(
      facts.orgAdmin === false ? undefined : facts.orgAdmin,
      and(eq(clients.active, true), facts.acceptedWorkspaceMember),
      and(eq(clients.active, false), eq(clients.owner_id, userId)),
    ) ?? sql`false`
  );
}
