import type { Client } from '@portolan/contract';
import { queryOptions } from '@tanstack/react-query';
import { fetchAllPages } from '../../../lib/all-pages';
import { organizationClientsPrefix } from '../../../lib/tenant-api';

const enc = encodeURIComponent;

/**
 * GET /v1/organizations/{orgId}/clients/ (every page): the organization's workspaces, each with
 * its own spend cap. Under the organization's workspace key, so a workspace created, renamed or
 * deleted anywhere in the app rereads it.
 */
export function organizationWorkspacesQueryOptions(orgId: string) {
  return queryOptions({
    queryKey: [...organizationClientsPrefix(orgId), 'all-for-billing'] as const,
    queryFn: ({ signal }) =>
      fetchAllPages<Client>(`/v1/organizations/${enc(orgId)}/clients/`, { signal }),
    select: (list) => [...list].sort((a, b) => a.name.localeCompare(b.name)),
  });
}
