import {
  canChangeWorkspaceRole,
  canRemoveWorkspaceMember,
  effectiveWorkspaceRole,
  type ClientMember,
  type ClientMemberListQuery,
  type OrgRole,
  type Paginated,
  type Role,
} from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { lockTenant, type Actor } from '../access/index.ts';
import { ActivityAction } from '../activities/index.ts';
import { recordActivityWithEvents } from '../events/index.ts';
import { tellRoleChanged } from './role-notice.ts';
import { pageOf, rowsOf } from '../../lib/pagination.ts';
import { assertAllowed, callerOutside, membershipPending, notAMember } from './refusals.ts';
import { listClientMembers, loadStandings, ONE, type PersonStanding } from './repo.ts';
import {
  dropLoneExternalInvitee,
  removeFromWorkspaces,
  revokeInvitations,
  setWorkspaceRole,
} from './writes.ts';

/** Members of a workspace: the list, role changes and removal. */

type ClientActor = Actor & { client: NonNullable<Actor['client']> };
const clientOf = (actor: Actor): ClientActor['client'] => {
  if (!actor.client) throw new Error('a workspace route without a workspace in its access rule');
  return actor.client;
};

export async function listWorkspaceMembers(
  ctx: AppContext,
  actor: Actor,
  query: ClientMemberListQuery,
): Promise<Paginated<ClientMember>> {
  const { count, results } = await listClientMembers(
    ctx.db,
    clientOf(actor),
    { key: query.key },
    rowsOf(query),
  );
  return pageOf(count, query, results);
}

/** One member of the workspace (pending too); 404 for anyone else. */
export async function getWorkspaceMember(ctx: AppContext, actor: Actor, userId: string) {
  const { results } = await listClientMembers(ctx.db, clientOf(actor), { userId }, ONE);
  if (!results[0]) throw notAMember('workspace');
  return results[0];
}

/** What the workspace rules need of the actor: their accepted roles, read under the lock. */
const actorRef = (me: PersonStanding) => ({
  userId: me.userId,
  role: me.workspace?.status === 'MEMBER' ? me.workspace.role : null,
  orgRole: me.org?.status === 'MEMBER' ? (me.org.role as OrgRole) : null,
});

/**
 * Runs a change of one workspace member in a transaction holding the workspace's row lock, with
 * the actor's and the member's memberships read under it.
 */
async function underWorkspaceLock<T>(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  change: (
    tx: Tx,
    me: ReturnType<typeof actorRef>,
    them: PersonStanding & { workspace: { role: Role } },
  ) => Promise<T>,
): Promise<T> {
  const client = clientOf(actor);
  return ctx.db.transaction(async (tx) => {
    const tenant = { organizationId: client.organization_id, clientId: client.id };
    if (!(await lockTenant(tx, tenant))) throw callerOutside();
    const { people } = await loadStandings(
      tx,
      { organizationId: client.organization_id, clientId: client.id },
      [actor.userId, userId],
    );
    const found = people.get(actor.userId);
    const me = found && actorRef(found);
    if (!me || !effectiveWorkspaceRole({ orgRole: me.orgRole, workspaceRole: me.role })) {
      throw callerOutside();
    }
    const them = people.get(userId);
    if (!them?.workspace) throw notAMember('workspace');
    return change(tx, me, them as PersonStanding & { workspace: { role: Role } });
  });
}

/** The member as the workspace rules see them: their organization role counts too (§6). */
const memberRef = (them: PersonStanding & { workspace: { role: Role } }) => ({
  userId: them.userId,
  role: them.workspace.role,
  orgRole: them.org?.status === 'MEMBER' ? (them.org.role as OrgRole) : null,
});

const workspaceData = (client: ClientActor['client'], them: PersonStanding) => ({
  email: them.email,
  user_id: them.userId,
  client_id: client.id,
  client_name: client.name,
});

/** The member and the workspace, as their events say them. */
const memberInWorkspace = (client: ClientActor['client'], them: PersonStanding) =>
  ({ scope: 'workspace', client_id: client.id, user_id: them.userId, email: them.email }) as const;

/**
 * Changes a member's workspace role by the contract's rules (a workspace OWNER's needs the
 * organization's OWNER or ADMIN). A pending member's is refused (409 MEMBERSHIP_PENDING); the
 * role they have already changes and records nothing.
 */
export async function changeWorkspaceRole(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  role: Role,
): Promise<ClientMember> {
  const client = clientOf(actor);
  await underWorkspaceLock(ctx, actor, userId, async (tx, me, them) => {
    assertAllowed(canChangeWorkspaceRole(me, memberRef(them), role));
    if (them.workspace.status === 'PENDING') throw membershipPending();
    const from = them.workspace.role;
    if (from === role) return;
    await setWorkspaceRole(tx, client.id, userId, role);
    await recordActivityWithEvents(
      tx,
      {
        userId: actor.userId,
        action: ActivityAction.UPDATE_MEMBER,
        objectType: 'client',
        objectId: client.id,
        organizationId: client.organization_id,
        data: { ...workspaceData(client, them), from, to: role },
        at: ctx.clock.now(),
      },
      [
        {
          type: 'member.role_changed',
          data: { ...memberInWorkspace(client, them), from, to: role },
        },
      ],
    );
    await tellRoleChanged(ctx, tx, {
      actorId: actor.userId,
      userId,
      organization: actor.organization,
      client,
      from,
      to: role,
    });
  });
  return getWorkspaceMember(ctx, actor, userId);
}

/**
 * Removes a member from the workspace by the contract's rules (never a workspace OWNER: 409
 * WORKSPACE_OWNER; never oneself), with their custom roles and overrides there; a pending
 * membership is a cancelled invitation (revoked). Someone who was only a pending external member
 * of the organization through this invitation leaves the organization too.
 */
export async function removeWorkspaceMember(
  ctx: AppContext,
  actor: Actor,
  userId: string,
): Promise<void> {
  const client = clientOf(actor);
  const scope = { organizationId: client.organization_id, clientIds: [client.id] };
  await underWorkspaceLock(ctx, actor, userId, async (tx, me, them) => {
    assertAllowed(canRemoveWorkspaceMember(me, memberRef(them)));
    await revokeInvitations(ctx, tx, scope, userId, ctx.clock.now());
    await removeFromWorkspaces(tx, scope, userId);
    await dropLoneExternalInvitee(tx, client.organization_id, userId);
    const { role, status } = them.workspace;
    await recordActivityWithEvents(
      tx,
      {
        userId: actor.userId,
        action: ActivityAction.DELETE_MEMBER,
        objectType: 'client',
        objectId: client.id,
        organizationId: client.organization_id,
        data: { ...workspaceData(client, them), role, status },
        at: ctx.clock.now(),
      },
      [{ type: 'member.removed', data: { ...memberInWorkspace(client, them), role, status } }],
    );
  });
}
