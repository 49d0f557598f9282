// The second factors' face: what other modules may use of it.
import type { App } from '../../context.ts';
import { mfaRoutes } from './routes.ts';

export { checkSecondFactor, mfaMethodsOf, type SecondFactor } from './factors.ts';
export { assertionOptions, verifyAssertion } from './passkeys.ts';
export { pruneWebauthnChallenges } from './prune.ts';

/** The account's second factors (issue 20): /v1/user/mfa/. */
export async function mfaModule(app: App): Promise<void> {
  await app.register(mfaRoutes);
}
