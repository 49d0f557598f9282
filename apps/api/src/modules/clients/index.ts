// The clients (workspaces) module's face: its routes, and the checks other modules may reuse.
import type { App } from '../../context.ts';
import { credentialRoutes } from './credential-routes.ts';
import { clientRoutes } from './routes.ts';
import { sellerSettingsRoutes } from './seller-settings-routes.ts';

/** The module's routes (registered by app.ts through MODULES). */
export async function clientsModule(app: App): Promise<void> {
  await app.register(clientRoutes);
  await app.register(credentialRoutes);
  await app.register(sellerSettingsRoutes);
}
export { clientsExporter } from './data-export.ts';
