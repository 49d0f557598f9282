import type { Client, ClientCreate, Organization, OrganizationCreate } from '@portolan/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { track } from '../../../lib/analytics';
import { invalidateTenancy } from '../../../lib/tenant-api';

/** POST /v1/organizations/ {name, logo?} → the organization (the creator is its OWNER). */
export function createOrganization(body: OrganizationCreate) {
  return api.post<Organization>('/v1/organizations/', body, {
    loadingMessage: 'Creating the organization…',
  });
}

/** POST /v1/organizations/{orgId}/clients/ {name, logo?} → the workspace (pending when STAFF). */
export function createWorkspace(orgId: string, body: ClientCreate) {
  return api.post<Client>(`/v1/organizations/${encodeURIComponent(orgId)}/clients/`, body, {
    loadingMessage: 'Creating the workspace…',
  });
}

export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganization,
    onSuccess: () => {
      track('organization created');
      return invalidateTenancy(queryClient);
    },
  });
}

export function useCreateWorkspace(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ClientCreate) => createWorkspace(orgId, body),
    onSuccess: () => {
      track('workspace created');
      return invalidateTenancy(queryClient, orgId);
    },
  });
}
