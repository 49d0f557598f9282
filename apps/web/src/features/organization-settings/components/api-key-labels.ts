import { API_KEY_PERMISSIONS, isOrgPermission, type Permission } from '@portolan/contract';

/**
 * Each permission in a few words, for the key picker and the key list. Typed against the whole
 * catalogue, so a new permission cannot go unlabelled (the picker offers API_KEY_PERMISSIONS only).
 */
const PERMISSION_LABELS: Record<Permission, string> = {
  'organization.read': 'Read the organization',
  'organization.update': 'Change name and logo',
  'organization.settings': 'Open the settings',
  'organization.activities.read': 'Read activities',
  'organization.clients.read': 'List workspaces',
  'organization.clients.create': 'Create workspaces',
  'organization.clients.manage': 'Manage workspaces',
  'organization.members.read': 'Read members',
  'organization.members.manage': 'Manage members',
  'organization.billing': 'Billing',
  'organization.balance.charge': 'Charge the balance',
  'organization.roles.read': 'Read rules and roles',
  'organization.roles.manage': 'Manage rules and roles',
  'organization.data.export': 'Export all data',
  'organization.security.manage': 'Security policy',
  'organization.api_keys.manage': 'Manage API keys',
  'organization.webhooks.manage': 'Manage webhooks',
  'organization.events.read': 'Read events',
  'organization.notifications.send': 'Send notifications',
  'organization.access.check': 'Check member access',
  'client.read': 'Read workspaces',
  'client.update': 'Change workspaces',
  'client.modules.update': 'Switch modules',
  'client.members.read': 'Read workspace members',
  'client.members.manage': 'Manage workspace members',
  'client.roles.read': 'Read workspace rules and roles',
  'client.roles.manage': 'Manage workspace rules and roles',
  'client.shareLinks.manage': 'Manage share links',
};

/** A permission's label; the permission itself for one this web app does not know yet. */
export const permissionLabel = (permission: string) =>
  PERMISSION_LABELS[permission as Permission] ?? permission;

/** The permissions a key may carry, in the picker's two groups. */
export const KEY_PERMISSION_GROUPS = [
  {
    id: 'organization',
    title: 'Organization permissions',
    description: 'The organization itself, its members, billing and integrations.',
    permissions: API_KEY_PERMISSIONS.filter((p) => isOrgPermission(p)),
  },
  {
    id: 'workspace',
    title: 'Workspace permissions',
    description: 'Inside the workspaces the key may reach.',
    permissions: API_KEY_PERMISSIONS.filter((p) => !isOrgPermission(p)),
  },
] as const;
