import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from './password-policy.ts';
import {
  MFA_METHODS,
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
  })
  .superRefine(oneProof(['code', 'recovery_code'], 'code'));
export type MfaLoginRequest = z.infer<typeof mfaLoginRequestSchema>;

/** POST /v1/user/step-up/: the password, a code or a recovery code. */
export const stepUpRequestSchema = z
  .strictObject({
    password: secretText().min(1, 'Enter your password.').max(PASSWORD_MAX_LENGTH).optional(),
    code: totpCodeSchema.optional(),
    recovery_code: recoveryCodeSchema.optional(),
  })
  .superRefine(oneProof(['password', 'code', 'recovery_code'], 'password'));
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
