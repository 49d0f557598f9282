import type { AppConfig } from '../../config.ts';
import type { Clock } from '../clock.ts';
import { createStaticCredentialChecker, type CredentialChecker } from './checker.ts';
import { createHttpCredentialChecker, type HttpCredentialCheckerOptions } from './http.ts';

export * from './checker.ts';
export { createHttpCredentialChecker } from './http.ts';
export type { HttpCredentialCheckerOptions } from './http.ts';

/**
 * The checker configuration chooses: the endpoint of CREDENTIAL_CHECK_URL, or, unset, none at
 * all (every workspace's credential counts as valid).
 */
export function createCredentialChecker(
  config: Pick<AppConfig, 'credentialCheckUrl'>,
  deps: { clock: Clock; log?: HttpCredentialCheckerOptions['log'] },
): CredentialChecker {
  return config.credentialCheckUrl
    ? createHttpCredentialChecker(config.credentialCheckUrl, deps)
    : createStaticCredentialChecker();
}
