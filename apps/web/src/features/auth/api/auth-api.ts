import type {
  ActivationResponse,
  ActivationTokenResponse,
  AppLoginRequest,
  GoogleLoginResponse,
  LoginResponse,
  MfaChallengeResponse,
  MfaLoginRequest,
  PasskeyAssertion,
  PasskeyOptionsResponse,
  RegistrationRequest,
  TokenResponse,
} from '@portolan/contract';
import { api } from '../../../lib/api';

/** Every call of the sign-in, registration and password-reset flows (spec §7, Auth). */

export interface DetailResponse {
  detail: string;
}

export interface PasswordResetResponse {
  detail: string;
  token: string;
}

/**
 * POST /v1/rest-auth/app/login/ {email, password} → {token}, or, for an account with a second
 * factor, its challenge {mfa_required, mfa_token, methods} (no session yet).
 */
export function login(body: AppLoginRequest) {
  return api.post<LoginResponse>('/v1/rest-auth/app/login/', body);
}

/** The challenge of a sign-in answer, or null when it carries the session token. */
export function challengeOf(res: object): MfaChallengeResponse | null {
  return 'mfa_required' in res && res.mfa_required === true ? (res as MfaChallengeResponse) : null;
}

/**
 * POST /v1/rest-auth/app/login/mfa/ {mfa_token} and one of {code}, {recovery_code}, {passkey}
 * → {token}: the second step of a sign-in (of either kind), a session token exactly like the
 * sign-in answer's.
 */
export function loginWithSecondFactor(body: MfaLoginRequest) {
  return api.post<TokenResponse>('/v1/rest-auth/app/login/mfa/', body);
}

/**
 * POST /v1/rest-auth/app/login/mfa/passkey-options/ {mfa_token} → {challenge_id, options}: a
 * challenge for one of the account's passkeys, to answer in the second step ({mfa_token, passkey}).
 */
export function secondStepPasskeyOptions(mfaToken: string) {
  return api.post<PasskeyOptionsResponse>(
    '/v1/rest-auth/app/login/mfa/passkey-options/',
    { mfa_token: mfaToken },
    { loadingMessage: 'Preparing the passkey request…' },
  );
}

/** POST /v1/rest-auth/passkey/options/ → {challenge_id, options}: any passkey of this site may answer. */
export function passkeySignInOptions() {
  return api.post<PasskeyOptionsResponse>('/v1/rest-auth/passkey/options/', undefined, {
    loadingMessage: 'Preparing the passkey request…',
  });
}

/**
 * POST /v1/rest-auth/passkey/ {challenge_id, response} → {token}: a sign-in with a passkey alone
 * (it is both factors), a session token exactly like the sign-in answer's.
 */
export function loginWithPasskey(body: PasskeyAssertion) {
  return api.post<TokenResponse>('/v1/rest-auth/passkey/', body, { loadingMessage: 'Signing in…' });
}

/**
 * POST /v1/rest-auth/registration/ → 201 {token, email, detail}; the token is for activation.
 * The answer is the same whether or not the address already has an account (no enumeration).
 */
export function register(body: RegistrationRequest) {
  return api.post<ActivationTokenResponse>('/v1/rest-auth/registration/', body);
}

/**
 * PATCH /v1/rest-auth/registration/activation/ {code}, the activation token as Authorization
 * → {detail, token}: `token` is a session token exactly like the sign-in answer's.
 */
export function activate(code: string, activationToken: string) {
  return api.patch<ActivationResponse>(
    '/v1/rest-auth/registration/activation/',
    { code },
    { token: activationToken },
  );
}

/** GET /v1/rest-auth/registration/activation/resend-code/ with the activation token. */
export function resendActivationCode(activationToken: string) {
  return api.get<DetailResponse>('/v1/rest-auth/registration/activation/resend-code/', {
    token: activationToken,
  });
}

/** POST /v1/rest-auth/password/reset/ {email} → {detail, token}. */
export function requestPasswordReset(email: string) {
  return api.post<PasswordResetResponse>('/v1/rest-auth/password/reset/', { email });
}

/** POST /v1/rest-auth/password/reset/identity/ {code, token} → {token} (the reset token). */
export function verifyPasswordResetCode(code: string, token: string) {
  return api.post<TokenResponse>('/v1/rest-auth/password/reset/identity/', { code, token });
}

/** POST /v1/rest-auth/password/reset/confirm/ {token, password} → {detail}. */
export function confirmPasswordReset(token: string, password: string) {
  return api.post<DetailResponse>('/v1/rest-auth/password/reset/confirm/', { token, password });
}

/** The challenge of Google sign-in's answer, with the path to go to once it is answered. */
export type GoogleMfaChallenge = MfaChallengeResponse & { path: string | null };

/**
 * POST /v1/social-auth/google/ {code, state} → {token, path} (the path given at the start, or
 * null), or, for an account with a second factor, its challenge with that path.
 */
export function googleLogin(code: string, state: string) {
  return api.post<GoogleLoginResponse>('/v1/social-auth/google/', { code, state });
}

/** Where the "Sign in with Google" link points: the server redirects to Google from there. */
export function googleStartUrl(path: string | null): string {
  const base = '/v1/social-auth/google/start/';
  return path ? `${base}?path=${encodeURIComponent(path)}` : base;
}
