import { and, eq, isNull, sql } from 'drizzle-orm';
import type { OrgRole, WorkspaceRole } from '@portolan/contract';
import type { Db, Tx } from '../../db/client.ts';
import {
  clientMembers,
  clients,
  organizationMembers,
  organizations,
  passkeys,
  userMfa,
} from '../../db/schema/index.ts';

export type OrganizationRow = typeof organizations.$inferSelect;
export type ClientRow = typeof clients.$inferSelect;

/** The caller's second factors, read with their standing for the organization's MFA policy. */
export interface Factors {
  totp: boolean;
  passkey: boolean;
}
const factorsOf = (totpConfirmedAt: Date | null, hasPasskey: boolean): Factors => ({
  totp: totpConfirmedAt !== null,
  passkey: hasPasskey,
});
/** Whether the user has a passkey: a scalar subquery of the standing query. */
const hasPasskey = (userId: string) =>
  sql<boolean>`exists (select 1 from ${passkeys} where ${passkeys.user_id} = ${userId})`;

/**
 * The caller's standing in one organization, in one query: the live organization (with its MFA
 * policy), the caller's accepted (MEMBER) membership of it, if any, and the caller's factors. Undefined when the organization does not exist.
 */
export async function loadOrganizationStanding(
  db: Db | Tx,
  organizationId: string,
  userId: string,
) {
  const [row] = await db
    .select({
      organization: organizations,
      orgRole: organizationMembers.role,
      totpAt: userMfa.totp_confirmed_at,
      passkey: hasPasskey(userId),
    })
    .from(organizations)
    .leftJoin(
      organizationMembers,
      and(
        eq(organizationMembers.organization_id, organizations.id),
        eq(organizationMembers.user_id, userId),
        eq(organizationMembers.status, 'MEMBER'),
      ),
    )
    .leftJoin(userMfa, eq(userMfa.user_id, userId))
    .where(and(eq(organizations.id, organizationId), isNull(organizations.deleted_at)))
    .limit(1);
  return (
    row && {
      organization: row.organization,
      orgRole: (row.orgRole ?? null) as OrgRole | null,
      factors: factorsOf(row.totpAt, Boolean(row.passkey)),
    }
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
      totpAt: userMfa.totp_confirmed_at,
      passkey: hasPasskey(userId),
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
    .leftJoin(userMfa, eq(userMfa.user_id, userId))
    .where(and(eq(clients.id, clientId), isNull(clients.deleted_at)))
    .limit(1);
  return (
    row && {
      client: row.client,
      organization: row.organization,
      orgRole: (row.orgRole ?? null) as OrgRole | null,
      workspaceRole: (row.workspaceRole ?? null) as WorkspaceRole | null,
      factors: factorsOf(row.totpAt, Boolean(row.passkey)),
    }
  );
}
