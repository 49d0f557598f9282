// The invitations module's face: inviting, force-inviting, resending, accepting and declining.
import type { App } from '../../context.ts';
import { acceptRoutes } from './accept-routes.ts';
import { declineRoutes } from './decline.ts';
import { invitationRoutes } from './routes.ts';

export { revokePendingInvitations } from './repo.ts';

/** Invitations to organizations and workspaces (spec §7), their acceptance and their decline. */
export async function invitationsModule(app: App): Promise<void> {
  await app.register(invitationRoutes);
  await app.register(acceptRoutes);
  await app.register(declineRoutes);
}
export { invitationsExporter } from './data-export.ts';
