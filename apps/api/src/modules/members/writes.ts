import type { ActivityAction, ActivityObjectType, OrgRole, Role } from '@portolan/contract';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import {
  activities,
  clientMembers,
  clients,
  invitations,
  memberCustomRoles,
  memberPermissionOverrides,
  notifications,
  organizationMembers,
} from '../../db/schema/index.ts';
import { announceTo } from '../notifications/index.ts';

/**
 * Changing memberships, each in a fixed number of statements whatever the number of workspaces.
 * Some write tables of other modules (invitations, notifications, permissions, activities) whose
 * faces do not offer these changes yet; each such place says so.
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

/** Which workspaces a change concerns: every one of the organization, or some of them. */
export interface Scope {
  organizationId: string;
  clientIds?: readonly string[];
}
const inScope = (column: typeof clients.id | typeof invitations.client_id, scope: Scope): SQL =>
  scope.clientIds ? inArray(column, [...scope.clientIds]) : sql`true`;
const workspacesOf = (scope: Scope) =>
  sql`select ${clients.id} from ${clients}
    where ${clients.organization_id} = ${scope.organizationId} and ${inScope(clients.id, scope)}`;

/**
 * Removes a person's workspace memberships in the scope with their custom roles and own
 * permission overrides there, in one statement. (The permissions module's tables, written here
 * until its face offers this.)
 */
export async function removeFromWorkspaces(tx: Tx, scope: Scope, userId: string) {
  await tx.execute(sql`
    with workspaces as (${workspacesOf(scope)}),
    roles as (delete from ${memberCustomRoles} where ${memberCustomRoles.user_id} = ${userId}
      and ${memberCustomRoles.client_id} in (select * from workspaces)),
    overrides as (delete from ${memberPermissionOverrides}
      where ${memberPermissionOverrides.user_id} = ${userId}
      and ${memberPermissionOverrides.client_id} in (select * from workspaces))
    delete from ${clientMembers} where ${clientMembers.user_id} = ${userId}
      and ${clientMembers.client_id} in (select * from workspaces)`);
}

/**
 * Revokes a person's PENDING invitations in the scope (to the organization and its workspaces,
 * or to some of its workspaces) and closes the bell's notifications offering them, which lose their token,
 * in one statement. (The invitations and notifications modules' tables, written here until their
 * faces offer this.)
 */
export async function revokeInvitations(tx: Tx, scope: Scope, userId: string, at: Date) {
  await tx.execute(sql`
    with revoked as (update ${invitations} set status = 'REVOKED', decided_at = ${at},
        modified_at = ${at}
      where ${invitations.user_id} = ${userId} and ${invitations.status} = 'PENDING'
        and ${invitations.organization_id} = ${scope.organizationId}
        and ${inScope(invitations.client_id, scope)}
      returning ${invitations.id})
    update ${notifications} set status = 'DONE', is_seen = true,
      meta = ${notifications.meta} - 'invitation_token', modified_at = ${at}
    where ${notifications.invitation_id} in (select id from revoked)`);
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

export interface ActivityEntry {
  userId: string;
  action: ActivityAction;
  objectType: ActivityObjectType;
  objectId: string;
  organizationId: string;
  data: Record<string, unknown>;
}

/**
 * Records several activities in one statement, as the activities module's recordActivity records
 * one. (Its table, written here until its face offers a batch.)
 */
export async function recordActivities(tx: Tx, entries: readonly ActivityEntry[], at: Date) {
  if (entries.length === 0) return;
  await tx.insert(activities).values(
    entries.map((e) => ({
      user_id: e.userId,
      action: e.action,
      object_type: e.objectType,
      object_id: e.objectId,
      organization_id: e.organizationId,
      data: e.data,
      created_at: at,
      modified_at: at,
    })),
  );
}
