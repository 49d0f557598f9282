import type {
  PasskeyAddedResponse,
  PasskeyListResponse,
  PasskeyOptionsResponse,
} from '@portolan/contract';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { createPasskey } from '../../../lib/passkeys';
import { mfaKey } from './mfa-api';
import { useRefreshWithLog } from './security-events-api';

const passkeysKey = ['account-passkeys'] as const;

/** GET /v1/user/mfa/passkeys/: the account's passkeys, the oldest first. */
export function passkeysQueryOptions() {
  return queryOptions({
    queryKey: passkeysKey,
    queryFn: () =>
      api.get<PasskeyListResponse>('/v1/user/mfa/passkeys/', {
        loadingMessage: 'Loading your passkeys…',
      }),
  });
}

/**
 * Adds a passkey: POST /v1/user/mfa/passkeys/options/ (a step-up first when due; 409 PASSKEY_LIMIT
 * at the most) → the browser makes the passkey (a PasskeyError when it does not) → POST
 * /v1/user/mfa/passkeys/ {challenge_id, response, name?} → {passkey, recovery_codes}, the codes
 * only when it is the account's first factor.
 */
export function useAddPasskey() {
  const refresh = useRefreshWithLog(passkeysKey, mfaKey);
  return useMutation({
    mutationFn: async (name: string) => {
      const start = await api.post<PasskeyOptionsResponse>(
        '/v1/user/mfa/passkeys/options/',
        undefined,
        { loadingMessage: 'Preparing the passkey request…' },
      );
      const made = await createPasskey(start);
      return api.post<PasskeyAddedResponse>(
        '/v1/user/mfa/passkeys/',
        name ? { ...made, name } : made,
        { loadingMessage: 'Adding the passkey…' },
      );
    },
    onSuccess: () => refresh(),
  });
}

/**
 * DELETE /v1/user/mfa/passkeys/{id}/ (a step-up first when due); the account's last factor takes
 * the recovery codes along.
 */
export function useRemovePasskey() {
  const refresh = useRefreshWithLog(passkeysKey, mfaKey);
  return useMutation({
    mutationFn: (id: string) =>
      api.delete<{ detail: string }>(`/v1/user/mfa/passkeys/${id}/`, {
        loadingMessage: 'Removing the passkey…',
      }),
    onSettled: () => refresh(),
  });
}
