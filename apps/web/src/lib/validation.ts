import { ACTIVATION_CODE_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from '@portolan/contract';

/**
 * Client-side checks with the same rules and wording as the API (the contract's zod-free rule
 * functions), so users learn early; the server stays the judge.
 */
export { PASSWORD_MIN_LENGTH };
export const CODE_LENGTH = ACTIVATION_CODE_LENGTH;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkEmail(value: string, missing: string): string | null {
  const email = value.trim();
  if (!email) return missing;
  if (email.length > 254 || !EMAIL_RE.test(email)) return 'Enter a valid e-mail address.';
  return null;
}

export function emailError(value: string): string | null {
  return checkEmail(value, 'Enter your e-mail address.');
}

/** Someone else's address (an invitation). */
export function inviteeEmailError(value: string): string | null {
  return checkEmail(value, 'Enter the e-mail address of the person.');
}

export function requiredError(message: string) {
  return (value: string): string | null => (value.trim() ? null : message);
}

export function newPasswordError(value: string, email?: string): string | null {
  if (!value) return 'Enter a password.';
  return passwordProblem(value, email);
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
