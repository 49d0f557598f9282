import { RECOVERY_CODE_PATTERN, TOTP_DIGITS, type PasskeyAssertion } from '@portolan/contract';
import { ApiError, errorMessage } from '../../../lib/api';
import { ErrorCode } from '../../../lib/error-codes';
import { PasskeyError } from '../../../lib/passkeys';
import type { StepUpMethod } from '../../../lib/step-up';

/**
 * One proof of presence (issue 20): the password, a code from the authenticator app, a passkey or
 * a recovery code. The sign-in's second step asks for the second factors, the step-up dialog for
 * any of them, as the server offers them.
 */
export type ProofMethod = StepUpMethod;

/** The proofs typed into a field (a passkey answers the browser's own prompt). */
export type TypedProof = Exclude<ProofMethod, 'passkey'>;

/** What the server's body names each proof. */
export type ProofBody =
  | { password: string }
  | { code: string }
  | { recovery_code: string }
  | { passkey: PasskeyAssertion };

export const ProofMessages = {
  missingPassword: 'Enter your password.',
  missingCode: `Enter the ${TOTP_DIGITS}-digit code from your authenticator app.`,
  missingRecoveryCode: 'Enter one of your recovery codes, as written.',
  wrongPassword: 'This is not your password. Check it and try again.',
  wrongCode: 'That code is not right. Check your authenticator app and try again.',
  wrongRecoveryCode: 'That recovery code is not right, or it has been used already.',
  wrongPasskey: 'The passkey could not be verified. Try again, or use another way.',
  tooManyAttempts: 'Too many attempts. Try again in a few minutes.',
  unavailable: 'We could not check it right now. Please try again in a moment.',
} as const;

/** The check before calling the API, with the API's rules. */
export function proofProblem(method: TypedProof, value: string): string | null {
  const compact = value.replace(/\s+/g, '');
  if (method === 'password') return value ? null : ProofMessages.missingPassword;
  if (method === 'totp')
    return new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(compact) ? null : ProofMessages.missingCode;
  return RECOVERY_CODE_PATTERN.test(compact) ? null : ProofMessages.missingRecoveryCode;
}

export function proofBody(method: TypedProof, value: string): ProofBody {
  if (method === 'password') return { password: value };
  const compact = value.replace(/\s+/g, '');
  return method === 'totp' ? { code: compact } : { recovery_code: compact };
}

const FIELD_OF: Record<ProofMethod, string> = {
  password: 'password',
  totp: 'code',
  passkey: 'passkey',
  recovery_code: 'recovery_code',
};

const WRONG: Record<ProofMethod, string> = {
  password: ProofMessages.wrongPassword,
  totp: ProofMessages.wrongCode,
  passkey: ProofMessages.wrongPasskey,
  recovery_code: ProofMessages.wrongRecoveryCode,
};

/** Where a refused proof's message goes: on the field, above the form, or a quiet note there. */
export interface ProofRefusal {
  field: string | null;
  form: string | null;
  /** Not a failure: the user closed the browser's passkey prompt. */
  note: string | null;
}

function apiRefusal(error: ApiError, method: ProofMethod): Omit<ProofRefusal, 'note'> {
  const detail = error.fieldErrors.find(
    (d) => d.field.replace(/^body\./, '') === FIELD_OF[method],
  )?.message;
  switch (error.code) {
    case ErrorCode.WRONG_PASSWORD:
      return { field: ProofMessages.wrongPassword, form: null };
    case ErrorCode.INVALID_CODE:
      // The server's detail says more (a code already used); else the usual sentence.
      return { field: detail ?? WRONG[method], form: null };
    case ErrorCode.TOO_MANY_ATTEMPTS:
    case ErrorCode.RATE_LIMITED:
      return { field: null, form: ProofMessages.tooManyAttempts };
    default:
      if (detail) return { field: detail, form: null };
      return {
        field: null,
        form:
          error.status >= 500 || error.status === 0
            ? ProofMessages.unavailable
            : errorMessage(error),
      };
  }
}

/**
 * Where a refused proof's message goes: on the field (a wrong password or code, a validation
 * detail naming it), above the form (too many attempts, the server unreachable, anything else),
 * or, for the user closing the passkey prompt, a quiet note. A passkey has no field: what would
 * be said on it goes above the form.
 */
export function proofError(error: unknown, method: ProofMethod): ProofRefusal {
  if (error instanceof PasskeyError) {
    return error.problem === 'cancelled'
      ? { field: null, form: null, note: error.message }
      : { field: null, form: error.message, note: null };
  }
  if (!(error instanceof ApiError)) return { field: null, form: errorMessage(error), note: null };
  const { field, form } = apiRefusal(error, method);
  return method === 'passkey'
    ? { field: null, form: form ?? field, note: null }
    : { field, form, note: null };
}
