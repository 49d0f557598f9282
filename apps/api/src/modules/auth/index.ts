// The auth module's face: what other modules may use of it.
import type { App } from '../../context.ts';
import { accountSessionRoutes } from './account-session-routes.ts';
import { emailChangeRoutes } from './email-change-routes.ts';
import { googleRoutes } from './google-routes.ts';
import { passwordRoutes } from './password-routes.ts';
import { authRoutes } from './routes.ts';

export { liveSessionOf } from './bearer.ts';
export { hashPassword, setHashConcurrency } from './passwords.ts';
export { pruneAuth, type AuthPruned } from './prune.ts';
export { SessionCache } from './session-cache.ts';
export { startSessionIn, type ClientMeta } from './service.ts';
export { stepUpMethodsOf } from './step-up.ts';

/**
 * Registration, sign-in (password and Google), sessions and passwords: /v1/rest-auth/…, and the
 * account's sessions list: /v1/user/sessions/.
 */
export async function authModule(app: App): Promise<void> {
  await app.register(authRoutes);
  await app.register(passwordRoutes);
  await app.register(googleRoutes);
  await app.register(accountSessionRoutes);
  await app.register(emailChangeRoutes);
}
export { authExporter } from './data-export.ts';
