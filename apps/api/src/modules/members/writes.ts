import { rolesWith, type OrgRole, type Role } from '@portolan/contract';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { clientMembers, clients, invitations, organizationMembers } from '../../db/schema/index.ts';
import { announceTo, settleRevokedInvitationNotifications } from '../notifications/index.ts';
import { dropMemberGrants } from '../permissions/index.ts';

/**
 * Changing memberships, each in a fixed number of statements whatever the number of workspaces.
 * This module writes only its own tables (organization_members, client_members); what goes with
 * a change in other modules' tables goes through their faces, in the same transaction.
 */

export async function setOrgRole(tx: Tx, organizationId: string, userId: string, role: OrgRole) {
  await tx
    .update(organizationMembers)
    .set({ role })
    .where(
      and(
        eq(organizationMembers.organization_id, organizationId),
        eq(organizationMembers.user_id, userId),
      ),
    );
}

export async function deleteOrgMembership(tx: Tx, organizationId: string, userId: string) {
  await tx
    .delete(organizationMembers)
    .where(
      and(
        eq(organizationMembers.organization_id, organizationId),
        eq(organizationMembers.user_id, userId),
      ),
    );
}

/** The creator of a new organization is its accepted OWNER. */
export async function addOrganizationOwner(tx: Tx, organizationId: string, userId: string) {
  await tx.insert(organizationMembers).values({
    organization_id: organizationId,
    user_id: userId,
    role: 'OWNER',
    status: 'MEMBER',
  });
}

/**
 * An organization OWNER or ADMIN is an OWNER member of each of its active workspaces (REFERENCE
 * "Who may do what"), in one statement; memberships already there stay as they are (the
 * organization role gives them OWNER or ADMIN powers there anyway).
 */
export async function grantActiveWorkspaces(tx: Tx, organizationId: string, userId: string) {
  await tx.execute(sql`
    insert into ${clientMembers} (client_id, user_id, role, status)
    select ${clients.id}, ${userId}::uuid, 'OWNER', 'MEMBER' from ${clients}
    where ${clients.organization_id} = ${organizationId} and ${clients.active}
      and ${clients.deleted_at} is null
    on conflict do nothing`);
}

/**
 * Makes users OWNER members of a workspace in one statement (the clients module, creating or
 * approving it): the given users, and with `organizationAdmins` every OWNER and ADMIN of the
 * organization, each only while an accepted member of the organization. Existing memberships
 * are left as they are.
 */
export async function grantWorkspaceAccess(
  tx: Tx,
  client: { id: string; organization_id: string },
  who: { organizationAdmins: boolean; userIds: readonly string[] },
): Promise<void> {
  const om = organizationMembers;
  const chosen = [
    who.organizationAdmins
      ? inArray(om.role, [...rolesWith('organization.clients.manage')])
      : undefined,
    who.userIds.length > 0 ? inArray(om.user_id, [...who.userIds]) : undefined,
  ].filter((c): c is SQL => c !== undefined);
  if (chosen.length === 0) return;
  await tx.execute(sql`
    insert into ${clientMembers} (client_id, user_id, role, status)
    select ${client.id}::uuid, ${om.user_id}, 'OWNER', 'MEMBER' from ${om}
    where ${om.organization_id} = ${client.organization_id} and ${om.status} = 'MEMBER'
      and (${sql.join(chosen, sql` or `)})
    on conflict do nothing`);
}

/** Which workspaces a change concerns: every one of the organization, or some of them. */
export interface Scope {
  organizationId: string;
  clientIds?: readonly string[];
}
const inScope = (column: typeof clients.id, scope: Scope): SQL =>
  scope.clientIds ? inArray(column, [...scope.clientIds]) : sql`true`;
const workspacesOf = (scope: Scope) =>
  sql`select ${clients.id} from ${clients}
    where ${clients.organization_id} = ${scope.organizationId} and ${inScope(clients.id, scope)}`;

/**
 * Removes a person's workspace memberships in the scope with their custom roles and own
 * permission overrides there (the permissions module's), in two statements.
 */
export async function removeFromWorkspaces(tx: Tx, scope: Scope, userId: string) {
  await dropMemberGrants(tx, userId, workspacesOf(scope));
  await tx.execute(sql`
    delete from ${clientMembers} where ${clientMembers.user_id} = ${userId}
      and ${clientMembers.client_id} in (${workspacesOf(scope)})`);
}

/**
 * Revokes a person's PENDING invitations in the scope (to the organization and its workspaces,
 * or to some of its workspaces) and closes the bell's notifications offering them, which lose
 * their token: the invitations' and the notifications' modules do, in two statements. The
 * invitations module's part comes through the app's context: it writes memberships through this
 * module's face, so importing it back would close a module cycle.
 */
export async function revokeInvitations(
  ctx: AppContext,
  tx: Tx,
  scope: Scope,
  userId: string,
  at: Date,
) {
  const revoked = await ctx.revokePendingInvitations(tx, scope, userId, at);
  await settleRevokedInvitationNotifications(tx, revoked, at);
  // Their open bells learn at commit that an invitation they could see is gone.
  await announceTo(tx, userId);
}

/**
 * Someone who joined the organization only through a workspace invitation (a PENDING external
 * membership, no invitation to the organization itself) leaves it when their last workspace
 * membership there goes: nothing would be left for them to accept.
 */
export async function dropLoneExternalInvitee(tx: Tx, organizationId: string, userId: string) {
  await tx.execute(sql`
    delete from ${organizationMembers}
    where ${organizationMembers.organization_id} = ${organizationId}
      and ${organizationMembers.user_id} = ${userId}
      and ${organizationMembers.status} = 'PENDING' and ${organizationMembers.role} = 'CLIENT'
      and not exists (select 1 from ${clientMembers} join ${clients}
        on ${clients.id} = ${clientMembers.client_id}
        where ${clients.organization_id} = ${organizationId}
          and ${clientMembers.user_id} = ${userId})
      and not exists (select 1 from ${invitations}
        where ${invitations.organization_id} = ${organizationId}
          and ${invitations.user_id} = ${userId} and ${invitations.kind} = 'organization'
          and ${invitations.status} = 'PENDING')`);
}

export async function setWorkspaceRole(tx: Tx, clientId: string, userId: string, role: Role) {
  await tx
    .update(clientMembers)
    .set({ role })
    .where(and(eq(clientMembers.client_id, clientId), eq(clientMembers.user_id, userId)));
}

/**
 * Gives a person these accepted workspace memberships, adding the missing ones and setting the
 * role (and MEMBER) of those there, in one statement. Answers the workspaces whose membership was
 * added (`added`) or changed.
 */
export async function putWorkspaceMemberships(
  tx: Tx,
  userId: string,
  entries: readonly { clientId: string; role: Role }[],
): Promise<{ clientId: string; added: boolean }[]> {
  return tx
    .insert(clientMembers)
    .values(entries.map((e) => ({ client_id: e.clientId, user_id: userId, role: e.role })))
    .onConflictDoUpdate({
      target: [clientMembers.client_id, clientMembers.user_id],
      set: { role: sql`excluded.role`, status: 'MEMBER', modified_at: sql`now()` },
      setWhere: sql`(${clientMembers.role}, ${clientMembers.status}) is distinct from
        (excluded.role, 'MEMBER')`,
    })
    .returning({ clientId: clientMembers.client_id, added: sql<boolean>`xmax = 0` });
}
