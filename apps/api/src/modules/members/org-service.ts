import {
  can,
  canChangeOrgRole,
  canRemoveOrgMember,
  isInternalRole,
  MEMBER_REMOVAL_CHOICES,
  type MemberRemovalChoice,
  type OrgMember,
  type OrgMemberListQuery,
  type OrgRole,
  type Paginated,
} from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { lockTenant, type Actor } from '../access/index.ts';
import { ActivityAction } from '../activities/index.ts';
import { assertMemberLimit } from '../billing/index.ts';
import { recordActivityWithEvents } from '../events/index.ts';
import { tellRoleChanged } from './role-notice.ts';
import { pageOf, rowsOf } from '../../lib/pagination.ts';
import {
  assertAllowed,
  callerOutside,
  choiceField,
  lastOwner,
  membershipPending,
  notAMember,
} from './refusals.ts';
import { listOrgMembers, loadStandings, ONE, type PersonStanding } from './repo.ts';
import {
  deleteOrgMembership,
  grantActiveWorkspaces,
  removeFromWorkspaces,
  revokeInvitations,
  setOrgRole,
} from './writes.ts';

/** Members of an organization: the list, one member, role changes and removal. */

export async function listOrganizationMembers(
  ctx: AppContext,
  actor: Actor,
  query: OrgMemberListQuery,
): Promise<Paginated<OrgMember>> {
  const { count, results } = await listOrgMembers(
    ctx.db,
    actor.organization.id,
    { roles: query.roles, key: query.key },
    rowsOf(query),
  );
  return pageOf(count, query, results);
}

export async function getOrganizationMember(
  ctx: AppContext,
  actor: Actor,
  userId: string,
): Promise<OrgMember> {
  const { results } = await listOrgMembers(ctx.db, actor.organization.id, { userId }, ONE);
  if (!results[0]) throw notAMember('organization');
  return results[0];
}

/** The actor and the member, both as organization members, read under the organization's lock. */
interface OrgStandings {
  me: PersonStanding & { org: { role: OrgRole; status: 'MEMBER' } };
  them: PersonStanding & { org: { role: OrgRole } };
  /** The organization's accepted OWNERs. */
  owners: number;
}

/**
 * Runs a change of one member in a transaction holding the organization's row lock, so that role
 * changes and removals of its members happen one at a time: the rules then see the actor's and
 * the member's roles as they are now (another OWNER may have just demoted the actor) and the last
 * OWNER cannot be demoted or removed by two requests at once.
 */
export async function underOrganizationLock<T>(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  change: (tx: Tx, standings: OrgStandings) => Promise<T>,
): Promise<T> {
  const organizationId = actor.organization.id;
  return ctx.db.transaction(async (tx) => {
    if (!(await lockTenant(tx, { organizationId }))) throw callerOutside();
    const { people, owners } = await loadStandings(tx, { organizationId }, [actor.userId, userId]);
    const me = people.get(actor.userId);
    if (me?.org?.status !== 'MEMBER') throw callerOutside();
    const them = people.get(userId);
    if (!them?.org) throw notAMember('organization');
    return change(tx, { me, them, owners } as OrgStandings);
  });
}

/** Where the changes of this file are, in their events. */
const ORGANIZATION = { scope: 'organization', client_id: null } as const;

const ref = (person: OrgStandings['me'] | OrgStandings['them']) => ({
  userId: person.userId,
  role: person.org.role,
});

/**
 * Changes a member's organization role by the contract's rules. The last accepted OWNER cannot be
 * demoted (409 LAST_OWNER); a change between internal and external counts against the plan's
 * limit of the new kind; becoming OWNER or ADMIN grants every active workspace. Setting the role
 * a member has changes and records nothing.
 */
export async function changeOrganizationRole(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  role: OrgRole,
): Promise<OrgMember> {
  const organizationId = actor.organization.id;
  await underOrganizationLock(ctx, actor, userId, async (tx, { me, them, owners }) => {
    assertAllowed(canChangeOrgRole(ref(me), ref(them), role));
    if (them.org.status === 'PENDING') throw membershipPending();
    const from = them.org.role;
    if (from === role) return;
    if (from === 'OWNER' && owners <= 1) throw lastOwner();
    if (isInternalRole(from) !== isInternalRole(role)) {
      await assertMemberLimit(
        ctx,
        tx,
        organizationId,
        isInternalRole(role) ? 'internal' : 'external',
      );
    }
    await setOrgRole(tx, organizationId, userId, role);
    if (can({ orgRole: role }, 'organization.clients.manage')) {
      await grantActiveWorkspaces(tx, organizationId, userId);
    }
    const change = { email: them.email, from, to: role };
    await recordActivityWithEvents(
      tx,
      {
        userId: actor.userId,
        action: ActivityAction.UPDATE_MEMBER,
        objectType: 'user',
        objectId: userId,
        organizationId,
        data: change,
        at: ctx.clock.now(),
      },
      [{ type: 'member.role_changed', data: { ...ORGANIZATION, user_id: userId, ...change } }],
    );
    await tellRoleChanged(ctx, tx, {
      actorId: actor.userId,
      userId,
      organization: actor.organization,
      client: null,
      from,
      to: role,
    });
  });
  return getOrganizationMember(ctx, actor, userId);
}

const choices = MEMBER_REMOVAL_CHOICES.join(' or ');

/**
 * Removes a member from the organization by the contract's rules (never oneself; a non-owner
 * never an OWNER), and never the last accepted OWNER.
 * - A pending member: the invitation is cancelled; the pending membership goes with whatever the
 *   invitation offered in the organization's workspaces. The choice is not needed.
 * - A member still in workspaces of the organization needs a choice: `remove_everywhere` removes
 *   them from those workspaces (custom roles and overrides with them) and from the organization,
 *   revoking their pending invitations; `keep_as_external` keeps them in their workspaces as an
 *   external (CLIENT) member of the organization, counted against the plan's external limit.
 * - Anyone else is removed (or kept as external, if that is the choice).
 */
export async function removeOrganizationMember(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  choice: MemberRemovalChoice | undefined,
): Promise<void> {
  const organizationId = actor.organization.id;
  await underOrganizationLock(ctx, actor, userId, async (tx, { me, them, owners }) => {
    assertAllowed(canRemoveOrgMember(ref(me), ref(them)));
    const { role, status } = them.org;
    if (role === 'OWNER' && status === 'MEMBER' && owners <= 1) throw lastOwner();
    const pending = status === 'PENDING';
    if (!pending && them.workspaces > 0 && !choice) {
      throw choiceField(
        `This member still belongs to ${them.workspaces} workspace(s) of the organization: ` +
          `choose ${choices} (remove them everywhere, or keep them in their workspaces as an ` +
          'external member).',
      );
    }
    const keptAsExternal = !pending && choice === 'keep_as_external';
    if (keptAsExternal) {
      if (role === 'CLIENT') {
        throw choiceField('This member is external already: choose remove_everywhere.');
      }
      await assertMemberLimit(ctx, tx, organizationId, 'external');
      await setOrgRole(tx, organizationId, userId, 'CLIENT');
    } else {
      await revokeInvitations(ctx, tx, { organizationId }, userId, ctx.clock.now());
      await removeFromWorkspaces(tx, { organizationId }, userId);
      await deleteOrgMembership(tx, organizationId, userId);
    }
    const member = { ...ORGANIZATION, user_id: userId, email: them.email };
    await recordActivityWithEvents(
      tx,
      {
        userId: actor.userId,
        action: ActivityAction.DELETE_MEMBER,
        objectType: 'user',
        objectId: userId,
        organizationId,
        data: {
          email: them.email,
          role,
          status,
          choice: pending ? null : (choice ?? null),
        },
        at: ctx.clock.now(),
      },
      // Kept in their workspaces, they stay in the organization as an external member.
      keptAsExternal
        ? [{ type: 'member.role_changed', data: { ...member, from: role, to: 'CLIENT' } }]
        : [{ type: 'member.removed', data: { ...member, role, status } }],
    );
  });
}
