import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from './password-policy.ts';
import {
  COMPLIANCE_MAX_LIMIT,
  COMPLIANCE_PAGE_SIZE,
  MFA_GRACE_DAYS_MAX,
  MFA_METHODS,
  MFA_POLICIES,
  PASSKEY_NAME_MAX_LENGTH,
  RECOVERY_CODE_PATTERN,
  SECURITY_EVENT_KINDS,
  SECURITY_EVENT_MAX_LIMIT,
  SECURITY_EVENT_PAGE_SIZE,
  SIGN_IN_METHODS,
} from './mfa.ts';
import { SESSION_DEVICES } from './account-sessions.ts';
import { pageQuerySchema, paginated } from './pagination.ts';
import { secretText, singleLine } from './text.ts';

/** The second factor's calls (issue 20): zod, for the API; the web app imports only their types. */

const datetime = () => z.iso.datetime({ offset: true });

/** A code from the authenticator app: six digits (spaces typed between them are dropped). */
export const totpCodeSchema = singleLine()
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.'));

/** A recovery code as shown (`k7p2m-x9c4t`); case and the dash do not matter. */
export const recoveryCodeSchema = singleLine()
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(RECOVERY_CODE_PATTERN, 'Enter one of your recovery codes, as written.'));

/** POST /v1/user/mfa/totp/: a new secret, pending until confirmed with a code of it. */
export const totpSetupResponseSchema = z.object({
  /** Base32 (RFC 4648, no padding), for typing into an app that cannot scan the QR code. */
  secret: z.string(),
  /** otpauth://totp/Portolan:<e-mail>?secret=…&issuer=Portolan&algorithm=SHA1&digits=6&period=30 */
  otpauth_url: z.string(),
});
export type TotpSetupResponse = z.infer<typeof totpSetupResponseSchema>;

export const totpConfirmRequestSchema = z.strictObject({ code: totpCodeSchema });

/** The recovery codes, shown this once: only their hashes are kept. */
export const recoveryCodesResponseSchema = z.object({
  recovery_codes: z.array(z.string()),
});
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponseSchema>;

/** GET /v1/user/mfa/: the account's factors. */
export const mfaStatusResponseSchema = z.object({
  /** The methods a sign-in challenge of this account offers; empty: no second factor. */
  methods: z.array(z.enum(MFA_METHODS)),
  totp: z.object({
    enabled: z.boolean(),
    confirmed_at: datetime().nullable(),
  }),
  /** How many passkeys the account has (GET /v1/user/mfa/passkeys/ lists them). */
  passkeys: z.number().int().min(0),
  recovery_codes_remaining: z.number().int().min(0),
  /** When the session's last proof of presence (its sign-in or a step-up) stops counting. */
  step_up_until: datetime(),
});
export type MfaStatusResponse = z.infer<typeof mfaStatusResponseSchema>;

/** The sign-in answer of an account with a second factor: no session yet. */
export const mfaChallengeResponseSchema = z.object({
  mfa_required: z.literal(true),
  /** Send it to /v1/rest-auth/app/login/mfa/ with the second factor; lives 5 minutes. */
  mfa_token: z.string(),
  methods: z.array(z.enum(MFA_METHODS)),
});
export type MfaChallengeResponse = z.infer<typeof mfaChallengeResponseSchema>;

/** What sign-in with a password answers: a session token, or the second factor's challenge. */
export const loginResponseSchema = z.union([
  z.object({ token: z.string() }),
  mfaChallengeResponseSchema,
]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/**
 * A WebAuthn ceremony's options for the browser (`navigator.credentials.create` or `.get`, as
 * @simplewebauthn/browser takes them) and the id of the challenge to answer with.
 */
export const passkeyOptionsResponseSchema = z.object({
  challenge_id: z.uuid(),
  options: z.record(z.string(), z.unknown()),
});
export type PasskeyOptionsResponse = z.infer<typeof passkeyOptionsResponseSchema>;

/** What the browser answered (RegistrationResponseJSON or AuthenticationResponseJSON). */
const credentialResponse = z.looseObject({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal('public-key'),
  response: z.record(z.string(), z.unknown()),
});

/** A passkey's answer to a challenge: sign-in, a second factor, a step-up. */
export const passkeyAssertionSchema = z.strictObject({
  challenge_id: z.uuid('Start again: the passkey request has no challenge.'),
  response: credentialResponse,
});
export type PasskeyAssertion = z.infer<typeof passkeyAssertionSchema>;

/** POST /v1/user/mfa/passkeys/: the new passkey's answer to the registration challenge. */
export const passkeyRegistrationSchema = z.strictObject({
  challenge_id: z.uuid('Start again: the passkey request has no challenge.'),
  response: credentialResponse,
  name: singleLine()
    .min(1, 'Name the passkey.')
    .max(PASSKEY_NAME_MAX_LENGTH, `At most ${PASSKEY_NAME_MAX_LENGTH} characters.`)
    .optional(),
});
export type PasskeyRegistration = z.infer<typeof passkeyRegistrationSchema>;

export const passkeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  created_at: datetime(),
  last_used_at: datetime().nullable(),
  /** Synced by its provider (iCloud Keychain, Google Password Manager…), so it survives a lost device. */
  backed_up: z.boolean(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyListResponseSchema = z.object({ results: z.array(passkeySchema) });
export type PasskeyListResponse = z.infer<typeof passkeyListResponseSchema>;

/** The answer to adding a passkey: it, and the recovery codes when it is the account's first factor. */
export const passkeyAddedResponseSchema = z.object({
  passkey: passkeySchema,
  recovery_codes: z.array(z.string()).nullable(),
});
export type PasskeyAddedResponse = z.infer<typeof passkeyAddedResponseSchema>;

/** POST /v1/rest-auth/app/login/mfa/passkey-options/: a passkey challenge for the sign-in's second step. */
export const mfaTokenRequestSchema = z.strictObject({
  mfa_token: singleLine().min(1, 'Sign in again: the sign-in step has no token.').max(2000),
});

/** Exactly one proof: the message names the field to fill. */
function oneProof<T extends Record<string, unknown>>(fields: (keyof T & string)[], first: string) {
  return (value: T, ctx: z.RefinementCtx) => {
    const given = fields.filter((f) => value[f] !== undefined);
    if (given.length === 0) {
      ctx.addIssue({ code: 'custom', path: [first], message: 'Enter a code.' });
    } else if (given.length > 1) {
      ctx.addIssue({
        code: 'custom',
        path: [given[1]!],
        message: `Send one of ${fields.join(', ')}, not several.`,
      });
    }
  };
}

/** POST /v1/rest-auth/app/login/mfa/: the challenge's token and one second factor. */
export const mfaLoginRequestSchema = z
  .strictObject({
    mfa_token: singleLine().min(1, 'Sign in again: the sign-in step has no token.').max(2000),
    code: totpCodeSchema.optional(),
    recovery_code: recoveryCodeSchema.optional(),
    passkey: passkeyAssertionSchema.optional(),
  })
  .superRefine(oneProof(['code', 'recovery_code', 'passkey'], 'code'));
export type MfaLoginRequest = z.infer<typeof mfaLoginRequestSchema>;

/** POST /v1/user/step-up/: the password, a code or a recovery code. */
export const stepUpRequestSchema = z
  .strictObject({
    password: secretText().min(1, 'Enter your password.').max(PASSWORD_MAX_LENGTH).optional(),
    code: totpCodeSchema.optional(),
    recovery_code: recoveryCodeSchema.optional(),
    passkey: passkeyAssertionSchema.optional(),
  })
  .superRefine(oneProof(['password', 'code', 'recovery_code', 'passkey'], 'password'));
export type StepUpRequest = z.infer<typeof stepUpRequestSchema>;

export const stepUpResponseSchema = z.object({
  detail: z.string(),
  /** Sensitive actions are allowed without asking again until then. */
  step_up_until: datetime(),
});
export type StepUpResponse = z.infer<typeof stepUpResponseSchema>;

/** The `details` of a 403 STEP_UP_REQUIRED: how the caller may prove presence. */
export const stepUpRequiredDetailsSchema = z.object({
  methods: z.array(z.enum(['password', ...MFA_METHODS])),
});

/** GET /v1/user/security-events/?page&limit: the account's security log, newest first. */
export const securityEventListQuerySchema = pageQuerySchema(
  SECURITY_EVENT_PAGE_SIZE,
  SECURITY_EVENT_MAX_LIMIT,
);

export const securityEventSchema = z.object({
  id: z.uuid(),
  kind: z.enum(SECURITY_EVENT_KINDS),
  /** How a sign-in or step-up was proven: its first factor (`password`, `google`); else null. */
  method: z.enum(SIGN_IN_METHODS).nullable(),
  /** The second factor it was asked for (`totp`, `recovery_code`), if any. */
  factor: z.enum(SIGN_IN_METHODS).nullable(),
  device: z.enum(SESSION_DEVICES),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  ip: z.string().nullable(),
  created_at: datetime(),
});
export type SecurityEvent = z.infer<typeof securityEventSchema>;

export const securityEventListResponseSchema = paginated(securityEventSchema);
export type SecurityEventListResponse = z.infer<typeof securityEventListResponseSchema>;

/** GET /v1/organizations/{orgId}/security-policy/ */
export const securityPolicySchema = z.object({
  require_mfa: z.enum(MFA_POLICIES),
  grace_days: z.number().int().min(0),
  /** When the current requirement began (null: off). */
  since: datetime().nullable(),
  /** From when members without a qualifying factor are refused (null: off). */
  enforced_from: datetime().nullable(),
});
export type SecurityPolicy = z.infer<typeof securityPolicySchema>;

/** PUT …/security-policy/: the OWNER, who must meet the new policy first. */
export const securityPolicyUpdateSchema = z.strictObject({
  require_mfa: z.enum(MFA_POLICIES, `Choose one of ${MFA_POLICIES.join(', ')}.`),
  grace_days: z
    .number('Enter a number of days.')
    .int('Enter a whole number of days.')
    .min(0, 'Enter 0 days or more.')
    .max(MFA_GRACE_DAYS_MAX, `Enter ${MFA_GRACE_DAYS_MAX} days or fewer.`),
});
export type SecurityPolicyUpdate = z.infer<typeof securityPolicyUpdateSchema>;

/** GET …/security-policy/compliance/?page&limit&compliant */
export const complianceQuerySchema = pageQuerySchema(
  COMPLIANCE_PAGE_SIZE,
  COMPLIANCE_MAX_LIMIT,
).extend({
  compliant: z.enum(['true', 'false'], 'Use true or false.').optional(),
});
export type ComplianceQuery = z.infer<typeof complianceQuerySchema>;

export const complianceMemberSchema = z.object({
  user_id: z.uuid(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.string(),
  /** The member's second factors: `totp`, `passkey`. */
  factors: z.array(z.enum(['totp', 'passkey'])),
  /** Whether the member meets the organization's policy (always, when it is off). */
  compliant: z.boolean(),
});
export type ComplianceMember = z.infer<typeof complianceMemberSchema>;

export const complianceListResponseSchema = paginated(complianceMemberSchema).extend({
  /** Members who do not meet the policy, over all pages. */
  non_compliant: z.number().int().min(0),
});
export type ComplianceListResponse = z.infer<typeof complianceListResponseSchema>;

/** POST /v1/user/email-change/: a code goes to the new address, a notice to the current one. */
export const emailChangeRequestSchema = z.strictObject({
  new_email: singleLine()
    .max(254)
    .pipe(z.email({ message: 'Enter a valid e-mail address.' })),
  password: secretText().min(1, 'Enter your password.').max(PASSWORD_MAX_LENGTH),
});
export type EmailChangeRequest = z.infer<typeof emailChangeRequestSchema>;

/** POST /v1/user/email-change/confirm/: the code from the new address switches the account to it. */
export const emailChangeConfirmSchema = z.strictObject({
  code: singleLine().regex(/^\d{6}$/, 'Enter the 6-digit code from the e-mail.'),
});
export const emailChangeResponseSchema = z.object({
  detail: z.string(),
  /** The address the code went to, as given. */
  email: z.string(),
});
