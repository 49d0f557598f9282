/**
 * Roles and what each may do, as data, with the pure rules of spec §6 over them. The server
 * enforces these (the access hook and the services); the web app only uses them to show or hide.
 * Zod-free, so the web app imports it without pulling zod into its bundle.
 */
import { ROLES, type Role } from './constants.ts';

/** A membership is PENDING until its invitation is accepted. */
export const MEMBERSHIP_STATUSES = ['MEMBER', 'PENDING'] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

/** Roles a member of an organization can hold (spec §6: OWNER, ADMIN, STAFF; CLIENT is external). */
export const ORG_ROLES = ['OWNER', 'ADMIN', 'STAFF', 'CLIENT'] as const satisfies readonly Role[];
export type OrgRole = (typeof ORG_ROLES)[number];

/** Roles a member of a workspace can hold. */
export const WORKSPACE_ROLES = ROLES;
export type WorkspaceRole = Role;

/** Display names of the roles (`role: {key, name}` in answers). */
export const ROLE_NAMES: Record<Role, string> = {
  OWNER: 'Owner',
  ADMIN: 'Admin',
  MANAGER: 'Manager',
  STAFF: 'Staff',
  CLIENT: 'Client',
};

/** Internal members (OWNER, ADMIN, STAFF) count against max_internal_users; CLIENT is external. */
export const INTERNAL_ROLES: readonly Role[] = ['OWNER', 'ADMIN', 'STAFF'];
export const isInternalRole = (role: Role) => INTERNAL_ROLES.includes(role);

/** From most to least powerful; used to compare roles, never to grant. */
const RANK: Record<Role, number> = { OWNER: 5, ADMIN: 4, MANAGER: 3, STAFF: 2, CLIENT: 1 };
export const isAtLeast = (role: Role, floor: Role) => RANK[role] >= RANK[floor];

/** What can be done to an organization, and the organization roles that may do it. */
export const ORG_PERMISSIONS = {
  /** Read the organization and see it in lists. */
  'organization.read': ['OWNER', 'ADMIN', 'STAFF', 'CLIENT'],
  /** Change its name and logo. */
  'organization.update': ['OWNER', 'ADMIN'],
  /** Open the organization settings (the gear of spec §6). */
  'organization.settings': ['OWNER', 'ADMIN', 'STAFF'],
  /** See the organization's activity log. */
  'organization.activities.read': ['OWNER', 'ADMIN'],
  /** List the organization's workspaces (what each member sees is filtered further). */
  'organization.clients.read': ['OWNER', 'ADMIN', 'STAFF', 'CLIENT'],
  /** Create a workspace: STAFF's wait for approval. */
  'organization.clients.create': ['OWNER', 'ADMIN', 'STAFF'],
  /** Approve a pending workspace, see every workspace, change and delete any of them. */
  'organization.clients.manage': ['OWNER', 'ADMIN'],
  /** Members, invitations and roles of the organization. */
  'organization.members.read': ['OWNER', 'ADMIN', 'STAFF'],
  'organization.members.manage': ['OWNER', 'ADMIN'],
  /** Billing pages and payments (spec §5, §6). */
  'organization.billing': ['OWNER', 'ADMIN'],
  /** Draw a service on the organization's balance (the modules its internal members use). */
  'organization.balance.charge': ['OWNER', 'ADMIN', 'STAFF'],
  /** The organization's access rules and custom roles (usable in all its workspaces). */
  'organization.roles.read': ['OWNER', 'ADMIN'],
  'organization.roles.manage': ['OWNER', 'ADMIN'],
  /** Download everything the organization holds as an archive (issue 11): its OWNERs only. */
  'organization.data.export': ['OWNER'],
  /** Require a second factor of every member (issue 20 item 5): its OWNERs only. */
  'organization.security.manage': ['OWNER'],
  /** The organization's API keys: create (with a step-up), list, revoke (issue 21 item 1). */
  'organization.api_keys.manage': ['OWNER', 'ADMIN'],
  /** The organization's webhook endpoints, their secrets and deliveries (issue 21 item 2). */
  'organization.webhooks.manage': ['OWNER', 'ADMIN'],
  /** Read the organization's event feed (issue 21 item 3). */
  'organization.events.read': ['OWNER', 'ADMIN'],
  /** Notify named members from a module's back end (issue 21 item 6). */
  'organization.notifications.send': ['OWNER', 'ADMIN'],
  /** Ask whether a member may do something, and why (a module's back end; issue 21 item 5). */
  'organization.access.check': ['OWNER', 'ADMIN'],
} as const satisfies Record<string, readonly OrgRole[]>;
export type OrgPermission = keyof typeof ORG_PERMISSIONS;

/** What can be done in a workspace, and the workspace roles that may do it. */
export const WORKSPACE_PERMISSIONS = {
  /** Read the workspace, its modules and one's own settings in it. */
  'client.read': ['OWNER', 'ADMIN', 'MANAGER', 'STAFF', 'CLIENT'],
  /** Change its name, logo and dashboard button colour (the workspace settings gear). */
  'client.update': ['OWNER', 'ADMIN'],
  /** Switch modules on and off (REFERENCE "Who may do what": OWNER, ADMIN or MANAGER). */
  'client.modules.update': ['OWNER', 'ADMIN', 'MANAGER'],
  /** Members of the workspace: invite, change roles, remove. */
  'client.members.read': ['OWNER', 'ADMIN', 'MANAGER', 'STAFF'],
  'client.members.manage': ['OWNER', 'ADMIN', 'MANAGER'],
  /**
   * The workspace's access rules and custom roles, and its members' custom roles and overrides
   * (REFERENCE: only OWNER, ADMIN or MANAGER change roles and rules). Anyone reads their own.
   */
  'client.roles.read': ['OWNER', 'ADMIN', 'MANAGER'],
  'client.roles.manage': ['OWNER', 'ADMIN', 'MANAGER'],
  /** See and revoke every share link of the workspace (anyone else: the links they made). */
  'client.shareLinks.manage': ['OWNER', 'ADMIN'],
} as const satisfies Record<string, readonly WorkspaceRole[]>;
export type WorkspacePermission = keyof typeof WORKSPACE_PERMISSIONS;

export type Permission = OrgPermission | WorkspacePermission;

export const isOrgPermission = (p: Permission): p is OrgPermission => p in ORG_PERMISSIONS;

/** The roles holding a permission, for a query that selects them (`role in (…)`). */
export function rolesWith(permission: OrgPermission): readonly OrgRole[];
export function rolesWith(permission: WorkspacePermission): readonly WorkspaceRole[];
export function rolesWith(permission: Permission): readonly Role[] {
  return isOrgPermission(permission)
    ? ORG_PERMISSIONS[permission]
    : WORKSPACE_PERMISSIONS[permission];
}

/**
 * Who is acting, as the access layer loaded it for one tenant: the role in the organization
 * (null when not a member of it) and, for workspace routes, the role in the workspace.
 */
export interface ActorRoles {
  orgRole: OrgRole | null;
  workspaceRole?: WorkspaceRole | null;
}

/**
 * The role that counts in a workspace: organization OWNERs and ADMINs act as the workspace's
 * OWNER or ADMIN (REFERENCE: they see and act on every workspace of their organization).
 */
export function effectiveWorkspaceRole(actor: ActorRoles): WorkspaceRole | null {
  const own = actor.workspaceRole ?? null;
  const fromOrg: WorkspaceRole | null =
    actor.orgRole === 'OWNER' || actor.orgRole === 'ADMIN' ? actor.orgRole : null;
  if (own && fromOrg) return isAtLeast(own, fromOrg) ? own : fromOrg;
  return own ?? fromOrg;
}

/** Whether the actor may do this: the one question the server and the web app both ask. */
export function can(actor: ActorRoles, permission: Permission): boolean {
  if (isOrgPermission(permission)) {
    return (
      actor.orgRole !== null &&
      (ORG_PERMISSIONS[permission] as readonly Role[]).includes(actor.orgRole)
    );
  }
  const role = effectiveWorkspaceRole(actor);
  return role !== null && (WORKSPACE_PERMISSIONS[permission] as readonly Role[]).includes(role);
}

/**
 * Spec §6, acting on another user's role: OWNER on anyone; ADMIN on anyone except an OWNER;
 * MANAGER not on an ADMIN or OWNER; STAFF and CLIENT on nobody.
 */
export function canActOnRole(actor: Role | null, target: Role): boolean {
  switch (actor) {
    case 'OWNER':
      return true;
    case 'ADMIN':
      return target !== 'OWNER';
    case 'MANAGER':
      return target !== 'ADMIN' && target !== 'OWNER';
    default:
      return false;
  }
}

/** Spec §6, the second check: OWNER always; ADMIN not on an OWNER; STAFF and CLIENT never. */
export function passesSecondCheck(actor: Role | null, target: Role): boolean {
  if (actor === 'OWNER') return true;
  if (actor === 'ADMIN') return target !== 'OWNER';
  return false;
}

/** Spec §6 hasUserAction: true for an OWNER, or an ADMIN when the target is not an OWNER. */
export function hasUserAction(actor: Role | null, target: Role): boolean {
  return actor === 'OWNER' || (actor === 'ADMIN' && target !== 'OWNER');
}

/**
 * Spec §6: an organization is fully owned by one user when every other member is an active
 * OWNER (so there is nobody left to act on).
 */
export function isFullyOwned(
  members: readonly { user_id: string; role: Role; status: MembershipStatus }[],
  userId: string,
): boolean {
  return members
    .filter((m) => m.user_id !== userId)
    .every((m) => m.role === 'OWNER' && m.status === 'MEMBER');
}

/** Spec §6: the organization settings gear, for OWNER, ADMIN or STAFF of an organization one has access to. */
export const showsOrganizationGear = (org: { has_access: boolean; role: Role | null }) =>
  org.has_access &&
  org.role !== null &&
  can({ orgRole: org.role as OrgRole }, 'organization.settings');

/** Spec §6: the workspace settings gear, for OWNER or ADMIN of the workspace or of its organization. */
export const showsWorkspaceGear = (actor: ActorRoles) => can(actor, 'client.update');
