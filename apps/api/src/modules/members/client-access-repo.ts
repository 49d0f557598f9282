import {
  can,
  type MembershipStatus,
  type ModuleCode,
  type OrgRole,
  type Role,
} from '@portolan/contract';
import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import { clientMembers, clientModules, clients } from '../../db/schema/index.ts';
import { workspaceVisibleTo } from '../access/index.ts';

/** The client-access screen: an organization's workspaces and one member's place in each. */

const theirs = alias(clientMembers, 'their_membership');
const mine = alias(clientMembers, 'viewer_membership');

export interface ClientAccessRow {
  client: { id: string; name: string; logo: string | null; active: boolean };
  /** The member's membership of the workspace, if any. */
  role: Role | null;
  status: MembershipStatus | null;
  /** The viewer's own accepted role in the workspace, if any. */
  viewerRole: Role | null;
}

/**
 * The organization's live workspaces the viewer may see (OWNER and ADMIN: all; others: the active
 * ones they belong to and the pending ones they created), only those with a module of the app
 * profile as in every list, by name, each with the member's membership, in one query. With
 * `clientIds`, only those workspaces.
 */
export async function listClientAccess(
  db: Db | Tx,
  viewer: { userId: string; organizationId: string; orgRole: OrgRole },
  memberId: string,
  profileModules: readonly ModuleCode[],
  clientIds?: readonly string[],
): Promise<ClientAccessRow[]> {
  const rows = await db
    .select({
      client: { id: clients.id, name: clients.name, logo: clients.logo, active: clients.active },
      role: theirs.role,
      status: theirs.status,
      viewerRole: mine.role,
    })
    .from(clients)
    .leftJoin(theirs, and(eq(theirs.client_id, clients.id), eq(theirs.user_id, memberId)))
    .leftJoin(
      mine,
      and(
        eq(mine.client_id, clients.id),
        eq(mine.user_id, viewer.userId),
        eq(mine.status, 'MEMBER'),
      ),
    )
    .where(
      and(
        eq(clients.organization_id, viewer.organizationId),
        isNull(clients.deleted_at),
        clientIds ? inArray(clients.id, [...clientIds]) : undefined,
        sql`exists (select 1 from ${clientModules} where ${clientModules.client_id} = ${clients.id}
          and ${inArray(clientModules.module, [...profileModules])})`,
        workspaceVisibleTo(viewer.userId, {
          orgAdmin: can(viewer, 'organization.clients.manage'),
          acceptedWorkspaceMember: isNotNull(mine.role),
        }),
      ),
    )
    .orderBy(asc(sql`lower(${clients.name})`), asc(clients.id));
  return rows;
}
