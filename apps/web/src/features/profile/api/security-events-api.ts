import type { SecurityEventListResponse } from '@portolan/contract';
import { keepPreviousData, queryOptions, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** Every read of the log: a change of the account's security (a factor, a session) invalidates it. */
export const securityEventsKey = ['account-security-events'] as const;

/** GET /v1/user/security-events/?page&limit: the account's security log, newest first. */
export function securityEventsQueryOptions(page: number, limit: number) {
  return queryOptions({
    queryKey: [...securityEventsKey, page, limit],
    queryFn: () =>
      api.get<SecurityEventListResponse>('/v1/user/security-events/', {
        query: { page, limit },
        loadingMessage: 'Loading your security log…',
      }),
    placeholderData: keepPreviousData,
  });
}

/**
 * Reads `keys` again, and the security log: every change of the account's security is an event
 * of it.
 */
export function useRefreshWithLog(...keys: (readonly unknown[])[]) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [...keys, securityEventsKey].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    );
}
