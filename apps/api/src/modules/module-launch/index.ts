// The module launch module's face (issue 21 item 4): launch tokens, the JWKS, the signing keys.
import type { App } from '../../context.ts';
import { moduleLaunchRoutes } from './routes.ts';

export { ensureSigningKey } from './signing-keys.ts';
export { pruneSigningKeys } from './prune.ts';

/** POST /v1/clients/{clientId}/modules/{module}/launch/ and GET /.well-known/jwks.json. */
export async function moduleLaunchModule(app: App): Promise<void> {
  await app.register(moduleLaunchRoutes);
}
