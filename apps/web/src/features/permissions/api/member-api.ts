import type {
  ExplanationAnswer,
  MemberCustomRoles,
  MemberCustomRolesInput,
  MemberPermissions,
  OrgMember,
  PermissionStatus,
} from '@portolan/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { permissionsKey } from './rules-api';

/**
 * A member's permissions in one workspace (spec §7 GET/PUT /v1/clients/{id}/users/{userId}/
 * permissions/, decision 0008 for the explainer and the custom roles with their preview).
 */

const enc = encodeURIComponent;
const memberBase = (clientId: string, userId: string) =>
  `/v1/clients/${enc(clientId)}/users/${enc(userId)}`;
const memberKey = (clientId: string, userId: string) =>
  [...permissionsKey, 'member', clientId, userId] as const;

/** GET …/permissions/: effective permissions by module and group, with status, override and source. */
export function memberPermissionsQueryOptions(clientId: string, userId: string) {
  return queryOptions({
    queryKey: [...memberKey(clientId, userId), 'effective'],
    queryFn: ({ signal }) =>
      api.get<MemberPermissions>(`${memberBase(clientId, userId)}/permissions/`, { signal }),
  });
}

/** GET …/custom-roles/: the member's custom roles in priority order. */
export function memberCustomRolesQueryOptions(clientId: string, userId: string) {
  return queryOptions({
    queryKey: [...memberKey(clientId, userId), 'custom-roles'],
    queryFn: ({ signal }) =>
      api.get<MemberCustomRoles>(`${memberBase(clientId, userId)}/custom-roles/`, { signal }),
  });
}

/** GET …/permissions/explain?permission=: why the member has it or not, step by step. */
export function explanationQueryOptions(clientId: string, userId: string, permission: string) {
  return queryOptions({
    queryKey: [...memberKey(clientId, userId), 'explain', permission],
    queryFn: ({ signal }) =>
      api.get<ExplanationAnswer>(`${memberBase(clientId, userId)}/permissions/explain`, {
        signal,
        query: { permission },
      }),
    staleTime: 0,
  });
}

/** GET /v1/organizations/{orgId}/users/{userId}/: who the member is (for their name). */
export function orgMemberQueryOptions(orgId: string, userId: string) {
  return queryOptions({
    queryKey: [...permissionsKey, 'org-member', orgId, userId],
    queryFn: ({ signal }) =>
      api.get<OrgMember>(`/v1/organizations/${enc(orgId)}/users/${enc(userId)}/`, { signal }),
  });
}

export interface GroupOverrides {
  module: string;
  group: string;
  permissions: { permission: string; status: PermissionStatus }[];
}

/**
 * PUT …/permissions/{module}/{group}/ {permissions}: the group's overrides become exactly the
 * ALLOW and DENY listed. The answer is the member's permissions afterwards.
 */
export function useSaveGroupOverrides(clientId: string, userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ module, group, permissions }: GroupOverrides) =>
      api.put<MemberPermissions>(
        `${memberBase(clientId, userId)}/permissions/${enc(module)}/${enc(group)}/`,
        { permissions },
        { loadingMessage: 'Saving the overrides…' },
      ),
    onSuccess: (saved) => afterMemberChange(queryClient, clientId, userId, saved),
  });
}

/** POST …/custom-roles/preview/: the permissions these custom roles would give; nothing is saved. */
export function usePreviewCustomRoles(clientId: string, userId: string) {
  return useMutation({
    mutationFn: (body: MemberCustomRolesInput) =>
      api.post<MemberPermissions>(`${memberBase(clientId, userId)}/custom-roles/preview/`, body, {
        loadingMessage: 'Working out the preview…',
      }),
  });
}

/** PUT …/custom-roles/ {roles: [{role, priority}]}: the member's custom roles, in this order. */
export function useApplyCustomRoles(clientId: string, userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MemberCustomRolesInput) =>
      api.put<MemberCustomRoles>(`${memberBase(clientId, userId)}/custom-roles/`, body, {
        loadingMessage: 'Applying the custom roles…',
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(memberCustomRolesQueryOptions(clientId, userId).queryKey, saved);
      return afterMemberChange(queryClient, clientId, userId);
    },
  });
}

/**
 * After a change: the member's permissions as answered (or read again when the answer was
 * something else), and every explanation read again.
 */
function afterMemberChange(
  queryClient: ReturnType<typeof useQueryClient>,
  clientId: string,
  userId: string,
  permissions?: MemberPermissions,
) {
  const effective = memberPermissionsQueryOptions(clientId, userId).queryKey;
  if (permissions) queryClient.setQueryData(effective, permissions);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: [...memberKey(clientId, userId), 'explain'] }),
    permissions ? undefined : queryClient.invalidateQueries({ queryKey: effective }),
  ]);
}
