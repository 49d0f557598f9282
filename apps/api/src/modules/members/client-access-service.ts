import {
  APP_PROFILES,
  canAddWorkspaceMember,
  canChangeWorkspaceRole,
  ROLE_NAMES,
  type GrantAccess,
  type MemberClientAccess,
  type OrgRole,
  type Role,
} from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import type { Actor } from '../access/index.ts';
import { ActivityAction } from '../activities/index.ts';
import { listClientAccess, type ClientAccessRow } from './client-access-repo.ts';
import { underOrganizationLock } from './org-service.ts';
import { assertAllowed, membershipPending, notAMember, refused } from './refusals.ts';
import { loadStandings } from './repo.ts';
import { recordActivities } from '../activities/index.ts';
import { recordChangeEvents, type ChangeEvent } from '../events/index.ts';
import { putWorkspaceMemberships, revokeInvitations } from './writes.ts';
import { notFound } from '../../lib/errors.ts';

/** The client-access screen: which workspaces an organization member belongs to, and granting more. */

const toDto = (row: ClientAccessRow): MemberClientAccess => ({
  client: row.client,
  role: row.role && { key: row.role, name: ROLE_NAMES[row.role] },
  status: row.status,
});

/**
 * The organization's workspaces the caller may see (as in their workspace list), each with the
 * member's role and status there, or nulls. 404 when the person is not a member (pending or
 * accepted) of the organization.
 */
export async function listMemberClients(
  ctx: AppContext,
  actor: Actor,
  userId: string,
): Promise<MemberClientAccess[]> {
  const organizationId = actor.organization.id;
  const { people } = await loadStandings(ctx.db, { organizationId }, [userId]);
  if (!people.get(userId)?.org) throw notAMember('organization');
  const rows = await listClientAccess(
    ctx.db,
    { userId: actor.userId, organizationId, orgRole: actor.orgRole! },
    userId,
    APP_PROFILES[ctx.config.appProfile],
  );
  return rows.map(toDto);
}

/**
 * Gives an accepted member of the organization these workspace memberships, adding the missing
 * ones and changing the role of those they have (a pending one becomes accepted, its invitation
 * revoked), all or nothing: a workspace that is not a live one of this organization in the
 * caller's sight answers 404, a role the caller may not give or change 403, and nothing is
 * written. Each workspace is judged by the contract's workspace rules with the caller's role in
 * it. Records ADD_MEMBER per membership added, UPDATE_MEMBER per role changed.
 */
export async function grantClientAccess(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  input: GrantAccess,
): Promise<MemberClientAccess[]> {
  const organizationId = actor.organization.id;
  const clientIds = input.clients.map((c) => c.client_id);
  await underOrganizationLock(ctx, actor, userId, async (tx, { me, them }) => {
    if (me.userId === userId) throw refused('SELF');
    if (them.org.status === 'PENDING') throw membershipPending();
    const viewer = { userId: me.userId, organizationId, orgRole: me.org.role as OrgRole };
    const rows = await listClientAccess(
      tx,
      viewer,
      userId,
      APP_PROFILES[ctx.config.appProfile],
      clientIds,
    );
    if (rows.length !== clientIds.length) throw notFound('No such workspace in this organization.');
    const byId = new Map(rows.map((row) => [row.client.id, row]));
    for (const { client_id, role } of input.clients) {
      const row = byId.get(client_id)!;
      const actorRef = { userId: me.userId, role: row.viewerRole, orgRole: viewer.orgRole };
      assertAllowed(
        row.role
          ? canChangeWorkspaceRole(
              actorRef,
              { userId, role: row.role, orgRole: them.org.role },
              role,
            )
          : canAddWorkspaceMember(actorRef, role),
      );
    }
    const changed = await putWorkspaceMemberships(
      tx,
      userId,
      input.clients.map((c) => ({ clientId: c.client_id, role: c.role })),
    );
    const accepted = rows.filter((r) => r.status === 'PENDING').map((r) => r.client.id);
    if (accepted.length > 0) {
      await revokeInvitations(
        ctx,
        tx,
        { organizationId, clientIds: accepted },
        userId,
        ctx.clock.now(),
      );
    }
    const roleOf = new Map(input.clients.map((c) => [c.client_id, c.role]));
    await recordGrants(
      ctx,
      tx,
      { actorId: actor.userId, organizationId, userId, email: them.email },
      changed.map(({ clientId, added }) => {
        const before = byId.get(clientId)!;
        const joined = added || before.status === 'PENDING';
        return {
          client: before.client,
          from: joined ? null : before.role,
          to: roleOf.get(clientId)!,
        };
      }),
    );
  });
  return listMemberClients(ctx, actor, userId);
}

/** What a grant changed in one workspace: the member joined it (`from` null), or a new role. */
interface GrantChange {
  client: { id: string; name: string };
  from: Role | null;
  to: Role;
}

/**
 * ADD_MEMBER or UPDATE_MEMBER per workspace in the organization's log, and the events
 * member.added or member.role_changed: two statements whatever the number of workspaces.
 */
async function recordGrants(
  ctx: AppContext,
  tx: Tx,
  grant: { actorId: string; organizationId: string; userId: string; email: string },
  changes: readonly GrantChange[],
): Promise<void> {
  const { organizationId, userId, email } = grant;
  const at = ctx.clock.now();
  await recordActivities(
    tx,
    changes.map(({ client, from, to }) => ({
      userId: grant.actorId,
      action: from ? ActivityAction.UPDATE_MEMBER : ActivityAction.ADD_MEMBER,
      objectType: 'client' as const,
      objectId: client.id,
      organizationId,
      data: {
        email,
        user_id: userId,
        client_id: client.id,
        client_name: client.name,
        ...(from ? { from, to } : { role: to }),
      },
    })),
    at,
  );
  await recordChangeEvents(
    tx,
    organizationId,
    at,
    changes.map(({ client, from, to }): ChangeEvent => {
      const member = { scope: 'workspace', client_id: client.id, user_id: userId, email } as const;
      return from
        ? { type: 'member.role_changed', data: { ...member, from, to } }
        : { type: 'member.added', data: { ...member, role: to, via: 'grant' } };
    }),
  );
}
