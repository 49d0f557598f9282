import type { ErrorCode as ContractErrorCode } from '@portolan/contract';

/**
 * The contract's error codes, as values for the web app to branch on.
 *
 * The contract's own `ErrorCode` object lives in a module that also defines zod schemas, and
 * importing it would pull zod into the page bundles. This mirror is checked against the
 * contract's type in both directions: a code added, removed or renamed there fails the build.
 */
export const ErrorCode = {
  VALIDATION_ERROR: 'VALIDATION_ERROR',
  INVALID_JSON: 'INVALID_JSON',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  NOT_AUTHENTICATED: 'NOT_AUTHENTICATED',
  PERMISSION_DENIED: 'PERMISSION_DENIED',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  RATE_LIMITED: 'RATE_LIMITED',
  FEATURE_DISABLED: 'FEATURE_DISABLED',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  EMAIL_TAKEN: 'EMAIL_TAKEN',
  INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
  ACCOUNT_NOT_ACTIVATED: 'ACCOUNT_NOT_ACTIVATED',
  ACCOUNT_DISABLED: 'ACCOUNT_DISABLED',
  ALREADY_ACTIVATED: 'ALREADY_ACTIVATED',
  INVALID_CODE: 'INVALID_CODE',
  CODE_EXPIRED: 'CODE_EXPIRED',
  TOO_MANY_ATTEMPTS: 'TOO_MANY_ATTEMPTS',
  INVALID_TOKEN: 'INVALID_TOKEN',
  WEAK_PASSWORD: 'WEAK_PASSWORD',
  WRONG_PASSWORD: 'WRONG_PASSWORD',
  OIDC_FAILED: 'OIDC_FAILED',
} as const satisfies { [K in ContractErrorCode]: K };

// The reverse direction: every key here is a contract code.
type Extra = Exclude<keyof typeof ErrorCode, ContractErrorCode>;
const noExtraCodes: [Extra] extends [never] ? true : never = true;
void noExtraCodes;

export type ErrorCode = ContractErrorCode;
