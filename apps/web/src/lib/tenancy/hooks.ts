import type { OrgRole, Role } from '@portolan/contract';
import { useEffect } from 'react';
import { useAuthStore } from '../auth-store';
import { usePublicConfig } from '../config';
import { useMyOrganizations } from './api';
import { applyOrganizationList, findWorkspace } from './tenancy';

/**
 * Loads the caller's organizations and keeps the stored list, current organization and workspace
 * in line with it (spec §4). `empty` is true once a loaded list turned out empty.
 */
export function useTenancySync() {
  const query = useMyOrganizations();
  const config = usePublicConfig();
  const autoPick = config.data?.features.auto_pick_workspace ?? false;
  const data = query.data;
  useEffect(() => {
    if (data) applyOrganizationList(data, { autoPick });
  }, [data, autoPick]);
  return { query, empty: data?.length === 0 };
}

/**
 * A workspace of the stored list and the member's roles in it: the organization role, and the
 * workspace role (the loaded one when it is the current workspace, else the listed one).
 */
export function useWorkspaceAccess(clientId: string | undefined) {
  const list = useAuthStore((s) => s.org.list);
  const current = useAuthStore((s) => s.current_client);
  const userRole = useAuthStore((s) => s.role.userRole);
  const found = clientId ? findWorkspace(clientId, list) : null;
  if (!found || !clientId) return null;
  const isCurrent = current?.id === clientId;
  const orgRole = (found.entry.organization.role.key as OrgRole | undefined) ?? null;
  const listed = (found.client.role?.key as Role | undefined) ?? null;
  const workspaceRole = ((isCurrent ? userRole : null) ?? listed) as Role | null;
  return {
    organization: found.entry.organization,
    client: found.client,
    name: isCurrent && current ? current.name : found.client.name,
    modules: isCurrent && current ? current.modules : (found.client.modules ?? []),
    orgRole,
    workspaceRole,
  };
}
