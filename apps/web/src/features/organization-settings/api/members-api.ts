import {
  EXTERNAL_ORG_ROLES,
  INTERNAL_ORG_ROLES,
  isFullyOwned,
  MAX_PAGE_LIMIT,
  MEMBER_PAGE_SIZE,
  type GrantAccess,
  type MemberClientAccess,
  type MemberRemovalChoice,
  type OrgMember,
  type OrgRole,
  type Paginated,
} from '@portolan/contract';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { orgMembersKey, resendInvitation, type MemberType } from '../../../lib/members';
import { invalidateTenancy } from '../../../lib/tenant-api';

/** Members of an organization (spec §7 "Organizations", decision 0008). */

const enc = encodeURIComponent;
const base = (orgId: string) => `/v1/organizations/${enc(orgId)}/users`;

export { MEMBER_PAGE_SIZE };

export interface OrgMemberFilters {
  type: MemberType;
  /** One role of the list's type; null: all of them. */
  role: OrgRole | null;
  key: string;
  page: number;
}

/** The `roles` of a list: the type's roles (spec §6), or the one role chosen among them. */
export function rolesOf(filters: Pick<OrgMemberFilters, 'type' | 'role'>): string {
  if (filters.role) return filters.role;
  return (filters.type === 'internal' ? INTERNAL_ORG_ROLES : EXTERNAL_ORG_ROLES).join(',');
}

/** GET /v1/organizations/{orgId}/users/?roles&key&page&limit. */
export function orgMembersQueryOptions(orgId: string, filters: OrgMemberFilters) {
  return queryOptions({
    queryKey: [...orgMembersKey(orgId), 'list', filters],
    queryFn: ({ signal }) =>
      api.get<Paginated<OrgMember>>(`${base(orgId)}/`, {
        signal,
        query: {
          roles: rolesOf(filters),
          key: filters.key || undefined,
          page: filters.page,
          limit: MEMBER_PAGE_SIZE,
        },
      }),
    placeholderData: keepPreviousData,
  });
}

/**
 * Spec §6: whether the organization is fully owned by this user (every other member an active
 * OWNER), so there is nobody left for them to act on: null when it is not, else how many other
 * OWNERs it has. Two rows of the members who are not OWNERs are enough to say no (one may be the
 * caller, an ADMIN); otherwise the OWNERs (few) are read for their statuses.
 */
export function orgFullyOwnedQueryOptions(orgId: string, userId: string) {
  return queryOptions({
    queryKey: [...orgMembersKey(orgId), 'fully-owned', userId],
    queryFn: async ({ signal }): Promise<number | null> => {
      const list = (roles: string, page: number, limit: number) =>
        api.get<Paginated<OrgMember>>(`${base(orgId)}/`, {
          signal,
          query: { roles, page, limit },
        });
      // The caller among them (an ADMIN) is no one else; a second row is.
      const others = await list('ADMIN,STAFF,CLIENT', 1, 2);
      const me = others.results.find((m) => m.user.id === userId);
      if (others.count > (me ? 1 : 0)) return null;
      const owners: OrgMember[] = me ? [me] : [];
      for (let page = 1; ; page += 1) {
        const found = await list('OWNER', page, MAX_PAGE_LIMIT);
        owners.push(...found.results);
        if (!found.next || found.results.length === 0) break;
      }
      const members = owners.map((m) => ({
        user_id: m.user.id,
        role: m.role.key,
        status: m.status,
      }));
      // Fully owned by one of its members: the caller must be among them.
      const mine = members.some((m) => m.user_id === userId);
      return mine && isFullyOwned(members, userId)
        ? members.filter((m) => m.user_id !== userId).length
        : null;
    },
  });
}

const memberKey = (orgId: string, userId: string) =>
  [...orgMembersKey(orgId), 'one', userId] as const;

/** GET /v1/organizations/{orgId}/users/{userId}/. */
export function orgMemberQueryOptions(orgId: string, userId: string) {
  return queryOptions({
    queryKey: memberKey(orgId, userId),
    queryFn: ({ signal }) => api.get<OrgMember>(`${base(orgId)}/${enc(userId)}/`, { signal }),
  });
}

const memberClientsKey = (orgId: string, userId: string) =>
  [...orgMembersKey(orgId), 'clients', userId] as const;

/** GET /v1/organizations/{orgId}/users/{userId}/client/: the workspaces and the member's place. */
export function memberClientsQueryOptions(orgId: string, userId: string) {
  return queryOptions({
    queryKey: memberClientsKey(orgId, userId),
    queryFn: ({ signal }) =>
      api.get<MemberClientAccess[]>(`${base(orgId)}/${enc(userId)}/client/`, { signal }),
  });
}

/** After any change of a member: every list and page of the organization's members. */
function useAfterMemberChange(orgId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: orgMembersKey(orgId) });
}

/** PUT /v1/organizations/{orgId}/users/{userId}/role/ {role}. */
export function useChangeOrgRole(orgId: string, userId: string) {
  const queryClient = useQueryClient();
  const after = useAfterMemberChange(orgId);
  return useMutation({
    mutationFn: (role: OrgRole) =>
      api.put<OrgMember>(
        `${base(orgId)}/${enc(userId)}/role/`,
        { role },
        {
          loadingMessage: 'Changing the role…',
        },
      ),
    onSuccess: (member) => {
      queryClient.setQueryData(memberKey(orgId, userId), member);
      void after();
      // OWNER and ADMIN get every workspace: the caller's own lists may change too.
      void invalidateTenancy(queryClient, orgId);
    },
  });
}

/**
 * DELETE /v1/organizations/{orgId}/users/{userId}/?choice=: removes a member (with a choice when
 * they still belong to workspaces) or cancels a pending invitation.
 */
export function useRemoveOrgMember(orgId: string, userId: string) {
  const queryClient = useQueryClient();
  const after = useAfterMemberChange(orgId);
  return useMutation({
    mutationFn: (choice: MemberRemovalChoice | undefined) =>
      api.delete<void>(`${base(orgId)}/${enc(userId)}/`, {
        query: { choice },
        loadingMessage: 'Removing…',
      }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: memberKey(orgId, userId) });
      void after();
    },
  });
}

/** POST …/users/{userId}/resend-invitation/. */
export function useResendOrgInvitation(orgId: string, userId: string) {
  const after = useAfterMemberChange(orgId);
  return useMutation({
    mutationFn: () => resendInvitation({ kind: 'organization', id: orgId }, userId),
    onSuccess: () => void after(),
  });
}

/** POST …/users/{userId}/clients/grant_access/ {clients: [{client_id, role}]}: all at once. */
export function useGrantClientAccess(orgId: string, userId: string) {
  const queryClient = useQueryClient();
  const after = useAfterMemberChange(orgId);
  return useMutation({
    mutationFn: (body: GrantAccess) =>
      api.post<MemberClientAccess[]>(`${base(orgId)}/${enc(userId)}/clients/grant_access/`, body, {
        loadingMessage: 'Granting access…',
      }),
    onSuccess: (access) => {
      queryClient.setQueryData(memberClientsKey(orgId, userId), access);
      void after();
    },
  });
}
