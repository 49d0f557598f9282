import type {
  MfaStatusResponse,
  RecoveryCodesResponse,
  TotpSetupResponse,
} from '@portolan/contract';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { useRefreshWithLog } from './security-events-api';

/** The account's factors: a change of its passkeys reads them again too. */
export const mfaKey = ['account-mfa'] as const;

/** GET /v1/user/mfa/: the account's second factors (TOTP on or off, passkeys, recovery codes left). */
export function mfaStatusQueryOptions() {
  return queryOptions({
    queryKey: mfaKey,
    queryFn: () =>
      api.get<MfaStatusResponse>('/v1/user/mfa/', {
        loadingMessage: 'Loading your two-step verification…',
      }),
  });
}

/** POST /v1/user/mfa/totp/ → a new pending secret {secret, otpauth_url}; 409 when TOTP is on. */
export function useStartTotpSetup() {
  return useMutation({
    mutationFn: () =>
      api.post<TotpSetupResponse>('/v1/user/mfa/totp/', undefined, {
        loadingMessage: 'Preparing your authenticator app’s key…',
      }),
  });
}

/** POST /v1/user/mfa/totp/confirm/ {code} → the recovery codes, shown this once; TOTP is on. */
export function useConfirmTotp() {
  const refresh = useRefreshWithLog(mfaKey);
  return useMutation({
    mutationFn: (code: string) =>
      api.post<RecoveryCodesResponse>(
        '/v1/user/mfa/totp/confirm/',
        { code },
        { loadingMessage: 'Checking the code…' },
      ),
    onSuccess: () => refresh(),
  });
}

/** DELETE /v1/user/mfa/totp/: TOTP off, its recovery codes gone. */
export function useRemoveTotp() {
  const refresh = useRefreshWithLog(mfaKey);
  return useMutation({
    mutationFn: () =>
      api.delete<{ detail: string }>('/v1/user/mfa/totp/', {
        loadingMessage: 'Turning two-step verification off…',
      }),
    onSuccess: () => refresh(),
  });
}

/** POST /v1/user/mfa/recovery-codes/ → new recovery codes; the old ones stop working. */
export function useRegenerateRecoveryCodes() {
  const refresh = useRefreshWithLog(mfaKey);
  return useMutation({
    mutationFn: () =>
      api.post<RecoveryCodesResponse>('/v1/user/mfa/recovery-codes/', undefined, {
        loadingMessage: 'Making new recovery codes…',
      }),
    onSuccess: () => refresh(),
  });
}
