import type { SharedView } from '@portolan/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/**
 * GET /v1/share/{token}/: the read-only view a link opens. Sent without the stored session (the
 * token is the credential), so it reads the same signed in or out and a stale session never
 * sends the visitor to sign in. A 404 is the answer for every link that opens nothing.
 */
export function sharedViewQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['shared-view', token] as const,
    queryFn: ({ signal }) =>
      api.get<SharedView>(`/v1/share/${encodeURIComponent(token)}/`, {
        signal,
        token: null,
        noAuthRedirect: true,
      }),
    // A revoked link must not keep showing from the cache.
    staleTime: 0,
    gcTime: 0,
  });
}
