import type { ApiKey, ApiKeyCreate, ApiKeyCreated, ApiKeyList } from '@portolan/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

const enc = encodeURIComponent;

const apiKeysKey = (orgId: string) => ['organizations', orgId, 'api-keys'] as const;
const apiKeysPath = (orgId: string) => `/v1/organizations/${enc(orgId)}/api-keys/`;

/** GET /v1/organizations/{orgId}/api-keys/ (OWNER, ADMIN): the live keys, newest first, never the keys. */
export function apiKeysQueryOptions(orgId: string) {
  return queryOptions({
    queryKey: apiKeysKey(orgId),
    queryFn: ({ signal }) => api.get<ApiKeyList>(apiKeysPath(orgId), { signal }),
  });
}

/**
 * POST …/api-keys/ {name, permissions, workspace_ids?, expires_at?} (with a step-up when the
 * sign-in is old: the API client asks for it and sends again): the key, answered this once.
 */
export function useCreateApiKey(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiKeyCreate) =>
      api.post<ApiKeyCreated>(apiKeysPath(orgId), body, {
        loadingMessage: 'Creating the API key…',
      }),
    onSuccess: ({ key: _secret, ...created }) => {
      // The list never holds the key itself: only what GET answers.
      queryClient.setQueryData<ApiKeyList>(apiKeysKey(orgId), (list) =>
        list ? { results: [created, ...list.results] } : list,
      );
      return queryClient.invalidateQueries({ queryKey: apiKeysKey(orgId) });
    },
  });
}

/** DELETE …/api-keys/{keyId}/: the key stops working at once; its row leaves the list. */
export function useRevokeApiKey(orgId: string) {
  const queryClient = useQueryClient();
  const drop = (keyId: string) =>
    queryClient.setQueryData<ApiKeyList>(apiKeysKey(orgId), (list) =>
      list ? { results: list.results.filter((k) => k.id !== keyId) } : list,
    );
  return useMutation({
    mutationFn: (key: ApiKey) =>
      api.delete<void>(`${apiKeysPath(orgId)}${enc(key.id)}/`, {
        loadingMessage: 'Revoking the API key…',
      }),
    onSuccess: (_, key) => drop(key.id),
    // Revoked elsewhere meanwhile (404) or not: the list is read again either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysKey(orgId) }),
  });
}
