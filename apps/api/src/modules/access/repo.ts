import { and, eq, isNull } from 'drizzle-orm';
import type { OrgRole, WorkspaceRole } from '@portolan/contract';
import type { Db, Tx } from '../../db/client.ts';
import {
  clientMembers,
  clients,
  organizationMembers,
  organizations,
} from '../../db/schema/index.ts';

export type OrganizationRow = typeof organizations.$inferSelect;
export type ClientRow = typeof clients.$inferSelect;

/**
 * The caller's standing in one organization, in one query: the live organization and the caller's
 * accepted (MEMBER) membership of it, if any. Undefined when the organization does not exist.
 */
export async function loadOrganizationStanding(
  db: Db | Tx,
  organizationId: string,
  userId: string,
) {
  const [row] = await db
    .select({ organization: organizations, orgRole: organizationMembers.role })
    .from(organizations)
    .leftJoin(
      organizationMembers,
      and(
        eq(organizationMembers.organization_id, organizations.id),
        eq(organizationMembers.user_id, userId),
        eq(organizationMembers.status, 'MEMBER'),
      ),
    )
    .where(and(eq(organizations.id, organizationId), isNull(organizations.deleted_at)))
    .limit(1);
  return (
    row && { organization: row.organization, orgRole: (row.orgRole ?? null) as OrgRole | null }
  );
}

/**
 * The caller's standing in one workspace, in one query: the live workspace of a live organization,
 * and the caller's accepted memberships of both.
 */
export async function loadClientStanding(db: Db | Tx, clientId: string, userId: string) {
  const [row] = await db
    .select({
      client: clients,
      organization: organizations,
      orgRole: organizationMembers.role,
      workspaceRole: clientMembers.role,
    })
    .from(clients)
    .innerJoin(
      organizations,
      and(eq(organizations.id, clients.organization_id), isNull(organizations.deleted_at)),
    )
    .leftJoin(
      organizationMembers,
      and(
        eq(organizationMembers.organization_id, clients.organization_id),
        eq(organizationMembers.user_id, userId),
        eq(organizationMembers.status, 'MEMBER'),
      ),
    )
    .leftJoin(
      clientMembers,
      and(
        eq(clientMembers.client_id, clients.id),
        eq(clientMembers.user_id, userId),
        eq(clientMembers.status, 'MEMBER'),
      ),
    )
    .where(and(eq(clients.id, clientId), isNull(clients.deleted_at)))
    .limit(1);
  return (
    row && {
      client: row.client,
      organization: row.organization,
      orgRole: (row.orgRole ?? null) as OrgRole | null,
      workspaceRole: (row.workspaceRole ?? null) as WorkspaceRole | null,
    }
  );
}
