// The organizations module's face: organizations, and the caller's own lists of organizations and
// workspaces.
import type { App } from '../../context.ts';
import { meRoutes } from './me-routes.ts';
import { organizationRoutes } from './routes.ts';
import { securityPolicyRoutes } from './security-policy-routes.ts';

/**
 * /v1/organizations/ and /v1/organizations/{id}/; the caller's lists (/v1/me/…, /v1/user/clients/…);
 * the security policy (/v1/organizations/{orgId}/security-policy/).
 */
export async function organizationsModule(app: App): Promise<void> {
  await app.register(organizationRoutes);
  await app.register(meRoutes);
  await app.register(securityPolicyRoutes);
}
export { organizationsExporter } from './data-export.ts';
