import type {
  ACTIVATION_CODE_LENGTH as CONTRACT_CODE_LENGTH,
  PASSWORD_MAX_LENGTH as CONTRACT_MAX,
  PASSWORD_MIN_LENGTH as CONTRACT_MIN,
} from '@portolan/contract';

/**
 * Client-side checks with the same rules and wording as the API, so users learn early; the
 * server stays the judge (it also refuses common passwords, reported as WEAK_PASSWORD).
 *
 * The numbers are typed with the contract's literal types, so they cannot drift from it, while
 * the contract module that defines them (full of zod schemas) stays out of the bundle.
 */
export const PASSWORD_MIN_LENGTH: typeof CONTRACT_MIN = 8;
export const PASSWORD_MAX_LENGTH: typeof CONTRACT_MAX = 256;
export const CODE_LENGTH: typeof CONTRACT_CODE_LENGTH = 6;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailError(value: string): string | null {
  const email = value.trim();
  if (!email) return 'Enter your e-mail address.';
  if (email.length > 254 || !EMAIL_RE.test(email)) return 'Enter a valid e-mail address.';
  return null;
}

export function requiredError(message: string) {
  return (value: string): string | null => (value.trim() ? null : message);
}

/** Mirrors the contract's passwordProblem(), except the common-password list (server side). */
export function newPasswordError(value: string, email?: string): string | null {
  if (!value) return 'Enter a password.';
  if (value.length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (value.length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters.`;
  if (email) {
    const lowered = value.toLowerCase();
    const e = email.trim().toLowerCase();
    if (e && (lowered === e || lowered === e.split('@')[0]))
      return 'The password cannot be your e-mail address.';
  }
  return null;
}

export function confirmError(value: string, password: string): string | null {
  if (!value) return 'Enter the password again.';
  return value === password ? null : 'The passwords do not match.';
}

export function codeError(value: string): string | null {
  return new RegExp(`^\\d{${CODE_LENGTH}}$`).test(value)
    ? null
    : `Enter the ${CODE_LENGTH}-digit code from the e-mail.`;
}
