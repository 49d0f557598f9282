import type { ErrorCode, MfaPolicy } from '@portolan/contract';
import { create } from 'zustand';
import { ApiError } from './api-error';
import { useAuthStore } from './auth-store';
import { currentPath, navigateTo, pathnameOf } from './navigation';

/**
 * The code of the server's refusal, as a literal: this module is in the entry chunk, and the
 * contract's whole ErrorCode table would come with it.
 */
const MFA_REQUIRED: ErrorCode = 'MFA_REQUIRED';

/** Where a member refused by an organization's policy sets up a second factor. */
export const SECURITY_SETTINGS_PATH = '/ps/profile?tab=security';
const SETTINGS_PATHNAME = '/ps/profile';

/**
 * An organization refused the member (403 MFA_REQUIRED, issue 20 item 5): which one, what it
 * requires, the server's sentence, and the page they were on, to go back to once they comply.
 */
export interface MfaRefusal {
  organizationId: string | null;
  requireMfa: Exclude<MfaPolicy, 'off'>;
  message: string;
  /** The page that was refused (null: none known; the dashboard then). */
  from: string | null;
  /** Whose refusal it is: another account signed in in this tab does not see it. */
  userId: string | null;
}

export const useMfaRequiredStore = create<{ refusal: MfaRefusal | null }>()(() => ({
  refusal: null,
}));

export function isMfaRequired(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === MFA_REQUIRED;
}

/**
 * A call of the signed-in user got 403 MFA_REQUIRED: remember the refusal and lead them to My
 * Settings → Security, in place of the refused page (Back does not bounce them there again). On My
 * Settings already (its own calls are account calls, never refused), nothing moves: no loop.
 */
export function reportMfaRequired(error: ApiError): void {
  const details = (error.details ?? {}) as { organization_id?: unknown; require_mfa?: unknown };
  const here = currentPath();
  const onSettings = pathnameOf(here) === SETTINGS_PATHNAME;
  const previous = useMfaRequiredStore.getState().refusal;
  useMfaRequiredStore.setState({
    refusal: {
      organizationId: typeof details.organization_id === 'string' ? details.organization_id : null,
      requireMfa: details.require_mfa === 'phishing_resistant' ? 'phishing_resistant' : 'any',
      message: error.message,
      from: onSettings ? (previous?.from ?? null) : here,
      userId: useAuthStore.getState().user?.user_id ?? null,
    },
  });
  if (!onSettings) navigateTo(SECURITY_SETTINGS_PATH, { replace: true });
}

/** The refusal of the signed-in user, if any. */
export function useMfaRefusal(): MfaRefusal | null {
  const refusal = useMfaRequiredStore((s) => s.refusal);
  const userId = useAuthStore((s) => s.user?.user_id ?? null);
  return refusal && refusal.userId === userId ? refusal : null;
}

/** They comply now and go on (or, in tests, start afresh). */
export function clearMfaRefusal(): void {
  useMfaRequiredStore.setState({ refusal: null });
}
