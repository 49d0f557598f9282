// The members module's face: its routes, and what other modules may use of it.
import type { App } from '../../context.ts';
import { workspaceMemberRoutes } from './client-routes.ts';
import { organizationMemberRoutes } from './org-routes.ts';

// Memberships other modules make in their own transactions: an organization's creator, a
// workspace's first members, and what invitations offer, join and take back.
export {
  findMembership,
  joinAsExternal,
  joinPendingMembership,
  putMembership,
  withdrawPendingMemberships,
  type Membership,
} from './invited.ts';
export { addOrganizationOwner, grantActiveWorkspaces, grantWorkspaceAccess } from './writes.ts';

/** Members of organizations and workspaces: lists, role changes, removal, workspace access. */
export async function membersModule(app: App): Promise<void> {
  await app.register(organizationMemberRoutes);
  await app.register(workspaceMemberRoutes);
}
export { membersExporter } from './data-export.ts';
