import { can, type OrgRole, type Role } from '@portolan/contract';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import type { RuleLevel } from '../../../lib/permission-paths';
import { clientQueryOptions, organizationQueryOptions } from '../../../lib/tenant-api';

const enc = encodeURIComponent;

/** The organization or the workspace whose access rules and custom roles a page shows. */
export interface ScopeRef {
  level: RuleLevel;
  id: string;
}

/** /v1/organizations/{id} or /v1/clients/{id}: where the level's calls start. */
export const apiBase = ({ level, id }: ScopeRef) =>
  level === 'organization' ? `/v1/organizations/${enc(id)}` : `/v1/clients/${enc(id)}`;

/** How the pages name the level. */
export const placeOf = (level: RuleLevel) =>
  level === 'organization' ? 'organization' : 'workspace';

export interface RuleScope extends ScopeRef {
  /** The caller may create, change and delete the level's own rules and roles. */
  canManage: boolean;
  /** The caller's role is still loading (nothing is offered until it is known). */
  roleLoading: boolean;
  /** The level's name, once loaded. */
  name: string | undefined;
}

/**
 * The level of the page from its route: `:orgId` (ps/organization-settings/:orgId/…) or `:id`
 * (ps/client-settings/:id/…), with what the caller may do there (the contract's `can` with the
 * permissions the API checks: organization.roles.manage, client.roles.manage).
 */
export function useRuleScope(): RuleScope {
  const { orgId, id } = useParams();
  const level: RuleLevel = orgId ? 'organization' : 'client';
  const scopeId = orgId ?? id ?? '';
  const org = useQuery({ ...organizationQueryOptions(scopeId), enabled: level === 'organization' });
  const client = useQuery({ ...clientQueryOptions(scopeId), enabled: level === 'client' });
  const loaded = level === 'organization' ? org : client;
  const role = (loaded.data?.role?.key ?? null) as Role | null;
  const canManage =
    level === 'organization'
      ? can({ orgRole: role as OrgRole | null }, 'organization.roles.manage')
      : can({ orgRole: null, workspaceRole: role }, 'client.roles.manage');
  return {
    level,
    id: scopeId,
    canManage,
    roleLoading: loaded.isPending,
    name: loaded.data?.name,
  };
}

/** Whether the caller may change this rule or role here: their role, its level, not the system's. */
export function isChangeable(
  scope: RuleScope,
  item: { scope: RuleLevel; is_system: boolean },
): boolean {
  return scope.canManage && item.scope === scope.level && !item.is_system;
}
