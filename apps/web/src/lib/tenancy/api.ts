import {
  PAGE_SIZE,
  type MyOrganizationEntry,
  type Paginated,
  type UserClientSettings,
} from '@portolan/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api';

/** The caller's organizations with their workspaces (GET /v1/me/organizations/and/clients/). */
export const myOrganizationsKey = ['me', 'organizations', 'and', 'clients'] as const;

export function fetchMyOrganizations(signal?: AbortSignal): Promise<MyOrganizationEntry[]> {
  return api
    .get<Paginated<MyOrganizationEntry>>('/v1/me/organizations/and/clients/', {
      signal,
      query: { page: 1, limit: PAGE_SIZE.orgList },
    })
    .then((page) => page.results);
}

export function myOrganizationsQueryOptions() {
  return queryOptions({
    queryKey: myOrganizationsKey,
    queryFn: ({ signal }) => fetchMyOrganizations(signal),
    staleTime: 60_000,
  });
}

export function useMyOrganizations() {
  return useQuery(myOrganizationsQueryOptions());
}

/** The user's role, modules and name in one workspace (GET /v1/clients/{id}/users/{userId}/settings/). */
export function fetchUserClientSettings(
  clientId: string,
  userId: string,
): Promise<UserClientSettings> {
  return api.get<UserClientSettings>(
    `/v1/clients/${encodeURIComponent(clientId)}/users/${encodeURIComponent(userId)}/settings/`,
    { silent: true },
  );
}

/** POST /v1/activities/: the user opened a workspace (recorded once per user and workspace). */
export function recordWorkspaceAccess(
  clientId: string,
  data: { app_profile?: string; module?: string },
): Promise<unknown> {
  return api.post('/v1/activities/', {
    action: 'ACCESS_WORKSPACE',
    object_id: clientId,
    object_type: 'client',
    data,
  });
}
