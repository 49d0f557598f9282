import type { Client, ClientModule, ClientUpdate, Organization } from '@portolan/contract';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api } from './api';
import { myOrganizationsKey } from './tenancy';

/**
 * Organizations and workspaces as the settings pages read and change them (spec §7
 * "Organizations" and "Clients"). Shared by the features that create organizations and
 * workspaces, the organization settings and the workspace settings.
 */

export const organizationKey = (id: string) => ['organizations', id] as const;
export const organizationClientsPrefix = (orgId: string) =>
  ['organizations', orgId, 'clients'] as const;
export const clientKey = (id: string) => ['clients', id] as const;
export const clientModulesKey = (id: string) => ['clients', id, 'modules'] as const;

const enc = encodeURIComponent;

/**
 * After any change to organizations or workspaces: the caller's own lists (the header and the
 * dashboard read them through lib/tenancy) and the organization's workspace list.
 */
export async function invalidateTenancy(queryClient: QueryClient, orgId?: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: myOrganizationsKey }),
    queryClient.invalidateQueries({ queryKey: ['user', 'clients'] }),
    orgId
      ? queryClient.invalidateQueries({ queryKey: organizationClientsPrefix(orgId) })
      : Promise.resolve(),
  ]);
}

/** GET /v1/organizations/{id}/: one organization with the caller's role in it. */
export function organizationQueryOptions(id: string) {
  return queryOptions({
    queryKey: organizationKey(id),
    queryFn: ({ signal }) => api.get<Organization>(`/v1/organizations/${enc(id)}/`, { signal }),
  });
}

/** GET /v1/clients/{id}/: a workspace with its modules and the caller's role in it. */
export function clientQueryOptions(id: string) {
  return queryOptions({
    queryKey: clientKey(id),
    queryFn: ({ signal }) => api.get<Client>(`/v1/clients/${enc(id)}/`, { signal }),
  });
}

/** GET /v1/clients/{id}/modules/. */
export function clientModulesQueryOptions(id: string) {
  return queryOptions({
    queryKey: clientModulesKey(id),
    queryFn: ({ signal }) => api.get<ClientModule[]>(`/v1/clients/${enc(id)}/modules/`, { signal }),
  });
}

/** PATCH /v1/clients/{id}/ {name?, logo?, dashboard_button_color?}. */
export function patchClient(id: string, body: ClientUpdate) {
  return api.patch<Client>(`/v1/clients/${enc(id)}/`, body, { loadingMessage: 'Saving…' });
}

/** PATCH /v1/clients/{id}/modules/{code}/ {enabled}: the module takes the state asked. */
export function setClientModule(id: string, module: string, enabled: boolean) {
  return api.patch<ClientModule>(
    `/v1/clients/${enc(id)}/modules/${enc(module)}/`,
    { enabled },
    { loadingMessage: enabled ? 'Switching the module on…' : 'Switching the module off…' },
  );
}

/** A workspace's name is at most this long (the contract's NAME_MAX_LENGTH, zod-free here). */
export const NAME_MAX_LENGTH = 120;

/** The default dashboard button colour (the contract's DEFAULT_DASHBOARD_BUTTON_COLOR). */
export const DEFAULT_BUTTON_COLOR = '#1985ac';
