import type {
  Activity,
  AppProfile,
  Client,
  ClientApplication,
  ClientReplace,
  ClientsViewOption,
  Organization,
  OrganizationUpdate,
  OrgRole,
  Paginated,
  User,
} from '@portolan/contract';
import { PAGE_SIZE } from '@portolan/contract';
import { ACTIVITY_PAGE_SIZE_WEB } from './constants';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useParams } from 'react-router';
import { api } from '../../../lib/api';
import { currentUserKey } from '../../../lib/current-user';
import { toast } from '../../../lib/toasts';
import {
  clientKey,
  invalidateTenancy,
  organizationClientsPrefix,
  organizationKey,
  organizationQueryOptions,
} from '../../../lib/tenant-api';

const enc = encodeURIComponent;

export type StatusFilter = 'all' | 'enabled' | 'pending';

/** The organization of the page (`:orgId`) and the caller's role in it. */
export function useOrganization() {
  const { orgId = '' } = useParams();
  const query = useQuery(organizationQueryOptions(orgId));
  const role = (query.data?.role?.key ?? null) as OrgRole | null;
  return { orgId, query, role };
}

/** PUT /v1/organizations/{id}/ {name, logo}. */
export function useUpdateOrganization(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: OrganizationUpdate) =>
      api.put<Organization>(`/v1/organizations/${enc(orgId)}/`, body, {
        loadingMessage: 'Saving…',
      }),
    onSuccess: (org) => {
      queryClient.setQueryData(organizationKey(orgId), org);
      void invalidateTenancy(queryClient);
    },
  });
}

/** Workspaces per page of the organization's list (spec §9: the org list's page size). */
export const WORKSPACES_PAGE_SIZE = PAGE_SIZE.orgList;

/** GET /v1/organizations/{orgId}/clients/?status&key&page&limit. */
export function organizationClientsQueryOptions(
  orgId: string,
  status: StatusFilter,
  key: string,
  page = 1,
) {
  return queryOptions({
    queryKey: [...organizationClientsPrefix(orgId), { status, key, page }],
    queryFn: ({ signal }) =>
      api.get<Paginated<Client>>(`/v1/organizations/${enc(orgId)}/clients/`, {
        signal,
        query: { status, key: key || undefined, page, limit: WORKSPACES_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });
}

/** After a change to one workspace: its own data, the organization's list and the caller's lists. */
function useAfterWorkspaceChange(orgId: string) {
  const queryClient = useQueryClient();
  return (client?: Client) => {
    if (client) queryClient.setQueryData(clientKey(client.id), client);
    return invalidateTenancy(queryClient, orgId);
  };
}

/** POST /v1/organizations/{orgId}/clients/{clientId}/approve/. */
export function useApproveWorkspace(orgId: string) {
  const after = useAfterWorkspaceChange(orgId);
  return useMutation({
    mutationFn: (clientId: string) =>
      api.post<Client>(
        `/v1/organizations/${enc(orgId)}/clients/${enc(clientId)}/approve/`,
        undefined,
        {
          loadingMessage: 'Approving the workspace…',
        },
      ),
    onSuccess: (client) => after(client),
  });
}

/** DELETE /v1/organizations/{orgId}/clients/{clientId}/. */
export function useDeleteWorkspace(orgId: string) {
  const after = useAfterWorkspaceChange(orgId);
  return useMutation({
    mutationFn: (clientId: string) =>
      api.delete<void>(`/v1/organizations/${enc(orgId)}/clients/${enc(clientId)}/`, {
        loadingMessage: 'Deleting the workspace…',
      }),
    onSuccess: () => after(),
  });
}

/** PUT /v1/organizations/{orgId}/clients/{clientId}/ {name, logo?, dashboard_button_color?}. */
export function useReplaceWorkspace(orgId: string, clientId: string) {
  const after = useAfterWorkspaceChange(orgId);
  return useMutation({
    mutationFn: (body: ClientReplace) =>
      api.put<Client>(`/v1/organizations/${enc(orgId)}/clients/${enc(clientId)}/`, body, {
        loadingMessage: 'Saving…',
      }),
    onSuccess: (client) => after(client),
  });
}

export const applicationKey = (orgId: string, clientId: string, app: string) =>
  ['organizations', orgId, 'clients', clientId, 'apps', app] as const;

/** GET /v1/organizations/{orgId}/clients/{clientId}/apps/{appId}/. */
export function applicationQueryOptions(orgId: string, clientId: string, app: AppProfile) {
  return queryOptions({
    queryKey: applicationKey(orgId, clientId, app),
    queryFn: ({ signal }) =>
      api.get<ClientApplication>(
        `/v1/organizations/${enc(orgId)}/clients/${enc(clientId)}/apps/${enc(app)}/`,
        { signal },
      ),
  });
}

/** POST /v1/organizations/{orgId}/clients/{clientId}/apps/{appId}/ {enabled}. */
export function useSetApplication(orgId: string, clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ app, enabled }: { app: AppProfile; enabled: boolean }) =>
      api.post<ClientApplication>(
        `/v1/organizations/${enc(orgId)}/clients/${enc(clientId)}/apps/${enc(app)}/`,
        { enabled },
        { loadingMessage: enabled ? 'Switching the application on…' : 'Switching it off…' },
      ),
    onSuccess: (application) => {
      queryClient.setQueryData(applicationKey(orgId, clientId, application.app), application);
      void queryClient.invalidateQueries({ queryKey: ['clients', clientId] });
      void invalidateTenancy(queryClient, orgId);
    },
  });
}

export interface ActivityFilters {
  page: number;
  action: string | null;
  key: string;
}

/** GET /v1/organizations/{orgId}/activities/?page&limit&action&key. */
export function activitiesQueryOptions(orgId: string, filters: ActivityFilters) {
  return queryOptions({
    queryKey: ['organizations', orgId, 'activities', filters],
    queryFn: ({ signal }) =>
      api.get<Paginated<Activity>>(`/v1/organizations/${enc(orgId)}/activities/`, {
        signal,
        query: {
          page: filters.page,
          limit: ACTIVITY_PAGE_SIZE_WEB,
          action: filters.action ?? undefined,
          key: filters.key || undefined,
        },
      }),
    placeholderData: keepPreviousData,
  });
}

/** PATCH /v1/rest-auth/user/ {clientsViewOption}: the list or grid view is remembered. */
export function useSaveViewOption() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (clientsViewOption: ClientsViewOption) =>
      api.patch<User>('/v1/rest-auth/user/', { clientsViewOption }, { silent: true }),
    onMutate: (clientsViewOption) => {
      queryClient.setQueryData<User>(currentUserKey, (user) =>
        user ? { ...user, clientsViewOption } : user,
      );
    },
    onSuccess: (user) => queryClient.setQueryData(currentUserKey, user),
    // Not saved: show what the server keeps, and say so.
    onError: () => {
      void queryClient.invalidateQueries({ queryKey: currentUserKey });
      toast.error('Your choice of view could not be saved. Please try again.');
    },
  });
}
