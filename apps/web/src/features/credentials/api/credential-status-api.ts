import type { CredentialStatus } from '@portolan/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/**
 * GET /v1/clients/{id}/credential-status/ (spec §7 "credential status fetch"): whether the
 * workspace's marketplace-seller credential passed its check. A background call: no progress bar,
 * no error toast; when it fails the page simply shows no alert.
 */
export function credentialStatusQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: ['credentials', 'status', clientId] as const,
    queryFn: ({ signal }) =>
      api.get<CredentialStatus>(`/v1/clients/${encodeURIComponent(clientId)}/credential-status/`, {
        signal,
        silent: true,
        noServerErrorToast: true,
        noNetworkErrorToast: true,
      }),
    // The server keeps each answer for a minute; asking more often learns nothing.
    staleTime: 60_000,
  });
}
