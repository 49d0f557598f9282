/**
 * The pending activation of a new account: the token to submit the e-mailed code with, and the
 * e-mail it went to. Kept in sessionStorage so that a reload stays on the code step.
 */
export const ACTIVATION_STORAGE_KEY = 'portolan.activation';

export interface PendingActivation {
  token: string;
  email: string;
}

export function loadActivation(): PendingActivation | null {
  try {
    const raw = window.sessionStorage.getItem(ACTIVATION_STORAGE_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<PendingActivation>;
    if (typeof value.token !== 'string' || !value.token) return null;
    return { token: value.token, email: typeof value.email === 'string' ? value.email : '' };
  } catch {
    return null;
  }
}

export function saveActivation(value: PendingActivation): void {
  window.sessionStorage.setItem(ACTIVATION_STORAGE_KEY, JSON.stringify(value));
}

export function clearActivation(): void {
  window.sessionStorage.removeItem(ACTIVATION_STORAGE_KEY);
}

/** The `details` of a 409 ACCOUNT_NOT_ACTIVATED answer, when it has the expected shape. */
export function activationFromDetails(details: unknown): PendingActivation | null {
  if (typeof details !== 'object' || details === null) return null;
  const { token, email } = details as { token?: unknown; email?: unknown };
  if (typeof token !== 'string' || !token) return null;
  return { token, email: typeof email === 'string' ? email : '' };
}
