import type { User } from '@portolan/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from './api';

/**
 * The signed-in user (GET /v1/rest-auth/user/). Shared by the shell (avatar), the sign-in flow
 * and the pages that show or edit the profile, so it lives here rather than in one feature.
 */
export const currentUserKey = ['rest-auth', 'user'] as const;

/** `token`: use this token instead of the stored one (a sign-in that is not stored yet). */
export function fetchCurrentUser(signal?: AbortSignal, token?: string): Promise<User> {
  return api.get<User>('/v1/rest-auth/user/', token === undefined ? { signal } : { signal, token });
}

export function currentUserQueryOptions() {
  return queryOptions({
    queryKey: currentUserKey,
    queryFn: ({ signal }) => fetchCurrentUser(signal),
    staleTime: 5 * 60_000,
  });
}

/** "Ada Lovelace", else the e-mail. */
export function displayName(user: Pick<User, 'first_name' | 'last_name' | 'email'>): string {
  const name = `${user.first_name} ${user.last_name}`.trim();
  return name || user.email;
}
