import type { SessionListResponse } from '@portolan/contract';
import { keepPreviousData, queryOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { useRefreshWithLog } from './security-events-api';

const sessionsKey = ['account-sessions'] as const;

/** GET /v1/user/sessions/?page&limit: where the account is signed in, most recently active first. */
export function sessionsQueryOptions(page: number, limit: number) {
  return queryOptions({
    queryKey: [...sessionsKey, page, limit],
    queryFn: () =>
      api.get<SessionListResponse>('/v1/user/sessions/', {
        query: { page, limit },
        loadingMessage: 'Loading your sessions…',
      }),
    placeholderData: keepPreviousData,
  });
}

/** DELETE /v1/user/sessions/{id}/: that session is signed out at once, on every server. */
export function useRevokeSession() {
  const refresh = useRefreshWithLog(sessionsKey);
  return useMutation({
    mutationFn: (id: string) =>
      api.delete<{ detail: string }>(`/v1/user/sessions/${id}/`, {
        loadingMessage: 'Signing the session out…',
      }),
    onSettled: refresh,
  });
}

/** POST /v1/user/sessions/revoke-others/: every session but this one is signed out. */
export function useRevokeOtherSessions() {
  const refresh = useRefreshWithLog(sessionsKey);
  return useMutation({
    mutationFn: () =>
      api.post<{ detail: string; revoked: number }>('/v1/user/sessions/revoke-others/', undefined, {
        loadingMessage: 'Signing the other sessions out…',
      }),
    onSettled: refresh,
  });
}
