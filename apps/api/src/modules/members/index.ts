// The members module's face: its routes, and what other modules may use of it.
import type { App } from '../../context.ts';
import { workspaceMemberRoutes } from './client-routes.ts';
import { organizationMemberRoutes } from './org-routes.ts';

/** Members of organizations and workspaces: lists, role changes, removal, workspace access. */
export async function membersModule(app: App): Promise<void> {
  await app.register(organizationMemberRoutes);
  await app.register(workspaceMemberRoutes);
}
export { membersExporter } from './data-export.ts';
