/**
 * The paths of the permission pages (access rules, custom roles, a member's permissions), for the
 * settings tabs and for the pages of other features that link to them.
 */

const enc = encodeURIComponent;

/** Where access rules and custom roles live: an organization (all its workspaces) or one workspace. */
export type RuleLevel = 'organization' | 'client';

/** The settings area of the level: ps/organization-settings/:orgId or ps/client-settings/:id. */
export const settingsBase = (level: RuleLevel, id: string) =>
  level === 'organization'
    ? `/ps/organization-settings/${enc(id)}`
    : `/ps/client-settings/${enc(id)}`;

export const accessRulesPath = (level: RuleLevel, id: string) =>
  `${settingsBase(level, id)}/access-rules`;
export const customRolesPath = (level: RuleLevel, id: string) =>
  `${settingsBase(level, id)}/custom-roles`;

/** ps/client-settings/:id/user-list/:userId/permissions: from the workspace's users. */
export const workspaceMemberPermissionsPath = (clientId: string, userId: string) =>
  `/ps/client-settings/${enc(clientId)}/user-list/${enc(userId)}/permissions`;

/** ps/organizations/:orgId/users/:userId/client-access/:clientId/permissions/: from client access. */
export const clientAccessPermissionsPath = (orgId: string, userId: string, clientId: string) =>
  `/ps/organizations/${enc(orgId)}/users/${enc(userId)}/client-access/${enc(clientId)}/permissions/`;
