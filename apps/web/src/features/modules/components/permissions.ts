import { can, type ActorRoles, type Permission } from '@portolan/contract';

/** What each permission lets a member do, in the words of a module home. */
const LABELS: [Permission, string][] = [
  ['client.read', 'Open this workspace and its modules'],
  ['client.update', 'Change the workspace name, logo and dashboard button colour'],
  ['client.modules.update', 'Switch the workspace’s modules on and off'],
  ['client.members.read', 'See the members of the workspace'],
  ['client.members.manage', 'Invite members, change their roles and remove them'],
  ['organization.settings', 'Open the organization settings'],
  ['organization.clients.create', 'Add workspaces to the organization'],
  ['organization.activities.read', 'Read the organization’s activity log'],
];

/** The things the member may do, from the contract's `can`; what they may not, apart. */
export function describeAccess(actor: ActorRoles): { allowed: string[]; denied: string[] } {
  const allowed: string[] = [];
  const denied: string[] = [];
  for (const [permission, label] of LABELS) (can(actor, permission) ? allowed : denied).push(label);
  return { allowed, denied };
}
