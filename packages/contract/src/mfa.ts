/**
 * Account security (issue 20): the second factor, its sign-in challenge and step-up. Zod-free: the
 * web app imports these.
 */

/** TOTP (RFC 6238): 30-second steps, 6 digits, a code of the step before or after also counts. */
export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
export const TOTP_WINDOW_STEPS = 1;
/** The issuer an authenticator app shows beside the account. */
export const TOTP_ISSUER = 'Portolan';

/** Recovery codes: this many at a time, each good once; shown once, stored hashed. */
export const RECOVERY_CODE_COUNT = 10;
/** A recovery code as shown: two groups of five letters or digits (`k7p2m-x9c4t`). */
export const RECOVERY_CODE_PATTERN = /^[a-z0-9]{5}-?[a-z0-9]{5}$/i;

/** Passkeys (WebAuthn): at most this many per account; a ceremony's challenge lives this long. */
export const PASSKEY_MAX_PER_ACCOUNT = 10;
export const PASSKEY_CHALLENGE_TTL_S = 300;
export const PASSKEY_NAME_MAX_LENGTH = 100;

/** The sign-in challenge: its token lives this long and dies at this many wrong answers. */
export const MFA_TOKEN_TTL_S = 300;
export const MFA_MAX_ATTEMPTS = 5;
/**
 * Wrong second-factor answers one account may give, over all its challenges and step-ups, within
 * MFA_FAILURE_WINDOW_S; past it every answer is refused (429) until the window moves on.
 */
export const MFA_MAX_FAILURES = 10;
export const MFA_FAILURE_WINDOW_S = 15 * 60;

/** How a second factor may be given, in the order the sign-in step offers them. */
export const MFA_METHODS = ['totp', 'passkey', 'recovery_code'] as const;
export type MfaMethod = (typeof MFA_METHODS)[number];

/**
 * What an organization requires of its members (issue 20 item 5): nothing, any second factor, or
 * a phishing-resistant one (a passkey). Members without one keep `grace_days` from the policy's
 * start, then get 403 MFA_REQUIRED on the organization's routes.
 */
export const MFA_POLICIES = ['off', 'any', 'phishing_resistant'] as const;
export type MfaPolicy = (typeof MFA_POLICIES)[number];
export const MFA_GRACE_DAYS_DEFAULT = 7;
export const MFA_GRACE_DAYS_MAX = 90;
export const COMPLIANCE_PAGE_SIZE = 20;
export const COMPLIANCE_MAX_LIMIT = 100;

/** Which factors meet a policy: a passkey meets both; TOTP and recovery codes only `any`. */
export function meetsMfaPolicy(policy: MfaPolicy, factors: { totp: boolean; passkey: boolean }) {
  if (policy === 'off') return true;
  if (policy === 'phishing_resistant') return factors.passkey;
  return factors.totp || factors.passkey;
}

/** A sensitive action needs a proof of presence (a sign-in or a step-up) this recent, unless configured. */
export const STEP_UP_MAX_AGE_S_DEFAULT = 600;

/** What the security log records (GET /v1/user/security-events/). */
export const SECURITY_EVENT_KINDS = [
  'sign_in',
  'sign_in_failed',
  'mfa_failed',
  'totp_enabled',
  'totp_disabled',
  'recovery_codes_regenerated',
  'recovery_code_used',
  'password_changed',
  'password_reset',
  'session_revoked',
  'sessions_revoked',
  'step_up',
  'email_change_requested',
  'email_changed',
  'passkey_added',
  'passkey_removed',
] as const;
export type SecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];

/** How a sign-in or a step-up was proven. */
export const SIGN_IN_METHODS = ['password', 'google', 'passkey', 'totp', 'recovery_code'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

export const SECURITY_EVENT_PAGE_SIZE = 20;
export const SECURITY_EVENT_MAX_LIMIT = 100;
