/**
 * Who may change whose role, and who may remove whom, in an organization and in a workspace
 * (spec §6, REFERENCE "Who may do what"), as pure functions over the roles. The server refuses
 * with them and the web app hides the buttons with the same answers. Zod-free, so the web app
 * imports it without pulling zod into its bundle.
 *
 * Each function answers null when the action is allowed, else the reason it is not
 * (MEMBER_REFUSAL_MESSAGES says it in words). Rules that need data (the last OWNER of an
 * organization, a membership still pending) are the server's: see modules/members. The request
 * and answer schemas of the member calls are in members.ts; the constants the web app needs
 * without them are here.
 */
import {
  canActOnRole,
  effectiveWorkspaceRole,
  hasUserAction,
  passesSecondCheck,
  type OrgRole,
} from './access.ts';
import type { Role } from './constants.ts';

/**
 * What happens to a removed organization member's workspace memberships (REFERENCE): removed
 * everywhere, or kept in their workspaces as an external (CLIENT) member of the organization.
 */
export const MEMBER_REMOVAL_CHOICES = ['remove_everywhere', 'keep_as_external'] as const;
export type MemberRemovalChoice = (typeof MEMBER_REMOVAL_CHOICES)[number];

/**
 * The `roles` filters of the organization's member list (spec §6: internal users are OWNER,
 * ADMIN and STAFF, external ones CLIENT), as the query sends them: `?roles=OWNER,ADMIN,STAFF`.
 */
export const INTERNAL_ORG_ROLES = ['OWNER', 'ADMIN', 'STAFF'] as const satisfies OrgRole[];
export const EXTERNAL_ORG_ROLES = ['CLIENT'] as const satisfies OrgRole[];

/** Members per page of the member lists unless `limit` says otherwise. */
export const MEMBER_PAGE_SIZE = 10;

/** At most this many workspaces in one grant of access. */
export const GRANT_ACCESS_MAX = 250;

export const MEMBER_REFUSALS = [
  /** The actor's role may not change or remove members at all (STAFF, CLIENT). */
  'NOT_PERMITTED',
  /** Removing oneself, or changing one's own workspace role. */
  'SELF',
  /** The member's role is above what the actor may act on (an ADMIN on an OWNER, …). */
  'TARGET_OUTRANKS',
  /** The role asked for is above what the actor may give (an ADMIN making an OWNER, …). */
  'ROLE_OUTRANKS',
  /** A workspace OWNER's role: only the organization's OWNER or ADMIN may change it. */
  'WORKSPACE_OWNER_ROLE',
  /** A workspace OWNER cannot be removed from the workspace. */
  'WORKSPACE_OWNER',
] as const;
export type MemberRefusal = (typeof MEMBER_REFUSALS)[number];

export const MEMBER_REFUSAL_MESSAGES: Record<MemberRefusal, string> = {
  NOT_PERMITTED: 'Your role does not allow changing or removing members.',
  SELF: 'You cannot do this to your own membership.',
  TARGET_OUTRANKS: 'Your role cannot act on a member with this role.',
  ROLE_OUTRANKS: 'Your role cannot give this role.',
  WORKSPACE_OWNER_ROLE:
    "Only the organization's Owner or an Admin can change the role of a workspace Owner.",
  WORKSPACE_OWNER: 'A workspace Owner cannot be removed from the workspace.',
};

/** A member of an organization as the rules see them. */
export interface OrgMemberRef {
  userId: string;
  role: OrgRole;
}

/**
 * Changing an organization role (Owner, Admin, Staff, Client): an OWNER may change anyone's; an
 * ADMIN anyone's but an OWNER's, and never to OWNER; STAFF and CLIENT nobody's (§6: hasUserAction
 * on the member's role, the second check on the new role).
 *
 * One's own role follows the same rules: an OWNER may step down (hand over by making another
 * member OWNER first) and an ADMIN may step down to STAFF or CLIENT; nobody can raise their own
 * role, since nobody may give a role above their own. The server refuses to demote the last
 * OWNER, which needs the organization's data.
 */
export function canChangeOrgRole(
  actor: OrgMemberRef,
  target: OrgMemberRef,
  newRole: OrgRole,
): MemberRefusal | null {
  if (!managesOrgMembers(actor.role)) return 'NOT_PERMITTED';
  if (!hasUserAction(actor.role, target.role)) return 'TARGET_OUTRANKS';
  if (!passesSecondCheck(actor.role, newRole)) return 'ROLE_OUTRANKS';
  return null;
}

/**
 * Removing an organization member: never oneself; an OWNER removes anyone else, an ADMIN anyone
 * but an OWNER; STAFF and CLIENT nobody.
 */
export function canRemoveOrgMember(
  actor: OrgMemberRef,
  target: OrgMemberRef,
): MemberRefusal | null {
  if (!managesOrgMembers(actor.role)) return 'NOT_PERMITTED';
  if (actor.userId === target.userId) return 'SELF';
  if (!hasUserAction(actor.role, target.role)) return 'TARGET_OUTRANKS';
  return null;
}

const managesOrgMembers = (role: OrgRole) => role === 'OWNER' || role === 'ADMIN';

/**
 * Someone acting in a workspace: `role` is their role there (their effective role, or their own
 * membership's: the rules take the effective one either way, an organization OWNER or ADMIN
 * counting as the workspace's OWNER or ADMIN), null when they have none; `orgRole` their role in
 * its organization.
 */
export interface WorkspaceActorRef {
  userId: string;
  role: Role | null;
  orgRole: OrgRole | null;
}
export interface WorkspaceMemberRef {
  userId: string;
  /** Their own membership's role in the workspace. */
  role: Role;
  /** Their accepted role in its organization (null or absent when they have none). */
  orgRole?: OrgRole | null;
}

/**
 * Whether the actor's role reaches the member's in a workspace (§6 canActOnRole), the member's
 * organization role counting too: an organization OWNER is an OWNER wherever they are, so only
 * an organization OWNER acts on them (an organization ADMIN, an OWNER member of every workspace,
 * does not: "ADMIN on anyone except OWNER"); an organization ADMIN counts as at least an ADMIN.
 * Also decides who changes a member's permissions (modules/permissions).
 */
export function reachesWorkspaceMember(
  actor: Pick<WorkspaceActorRef, 'role' | 'orgRole'>,
  target: Pick<WorkspaceMemberRef, 'role' | 'orgRole'>,
): boolean {
  if (target.orgRole === 'OWNER') return actor.orgRole === 'OWNER';
  const acting = effectiveWorkspaceRole({ orgRole: actor.orgRole, workspaceRole: actor.role });
  const counted = effectiveWorkspaceRole({
    orgRole: target.orgRole ?? null,
    workspaceRole: target.role,
  })!;
  return canActOnRole(acting, counted);
}

/**
 * The role that counts for a workspace action: the effective one, so that an organization OWNER
 * or ADMIN acts as the workspace's OWNER or ADMIN even if `role` was given as their own
 * membership's. Null unless they may act on members at all (workspace-level actions belong to the
 * workspace's OWNER, ADMIN or MANAGER, or the organization's OWNER or ADMIN).
 */
function managingRole(actor: WorkspaceActorRef): Role | null {
  const role = effectiveWorkspaceRole({ orgRole: actor.orgRole, workspaceRole: actor.role });
  return role === 'OWNER' || role === 'ADMIN' || role === 'MANAGER' ? role : null;
}
const isOrgAdmin = (actor: WorkspaceActorRef) =>
  actor.orgRole === 'OWNER' || actor.orgRole === 'ADMIN';

/**
 * Changing a member's workspace role: by the workspace's OWNER, ADMIN or MANAGER or the
 * organization's OWNER or ADMIN; §6 canActOnRole on the member's role and on the new role
 * (OWNER on anyone; ADMIN not on an OWNER; MANAGER not on an ADMIN or OWNER). A workspace
 * OWNER's role needs the organization's OWNER or ADMIN, whatever the actor's workspace role; an
 * organization OWNER's needs an organization OWNER (reachesWorkspaceMember). Never one's own: an organization OWNER or ADMIN keeps their power in the workspace anyway, and
 * a workspace MANAGER would only lock themself out.
 */
export function canChangeWorkspaceRole(
  actor: WorkspaceActorRef,
  target: WorkspaceMemberRef,
  newRole: Role,
): MemberRefusal | null {
  const role = managingRole(actor);
  if (!role) return 'NOT_PERMITTED';
  if (actor.userId === target.userId) return 'SELF';
  if (target.orgRole === 'OWNER') {
    if (actor.orgRole !== 'OWNER') return 'TARGET_OUTRANKS';
  } else if (target.role === 'OWNER') {
    if (!isOrgAdmin(actor)) return 'WORKSPACE_OWNER_ROLE';
  } else if (!reachesWorkspaceMember(actor, target)) return 'TARGET_OUTRANKS';
  if (!canActOnRole(role, newRole)) return 'ROLE_OUTRANKS';
  return null;
}

/**
 * Giving someone a workspace membership with a role (granting access): the same people as for a
 * role change, and only a role they may act on.
 */
export function canAddWorkspaceMember(actor: WorkspaceActorRef, role: Role): MemberRefusal | null {
  const own = managingRole(actor);
  if (!own) return 'NOT_PERMITTED';
  if (!canActOnRole(own, role)) return 'ROLE_OUTRANKS';
  return null;
}

/**
 * Removing a member from a workspace: by the same people as a role change, never oneself, never
 * a workspace OWNER, and only a member whose role the actor may act on, their organization role
 * counting (reachesWorkspaceMember: a MANAGER never removes an organization OWNER or ADMIN).
 */
export function canRemoveWorkspaceMember(
  actor: WorkspaceActorRef,
  target: WorkspaceMemberRef,
): MemberRefusal | null {
  const role = managingRole(actor);
  if (!role) return 'NOT_PERMITTED';
  if (actor.userId === target.userId) return 'SELF';
  if (target.role === 'OWNER') return 'WORKSPACE_OWNER';
  if (!reachesWorkspaceMember(actor, target)) return 'TARGET_OUTRANKS';
  return null;
}
