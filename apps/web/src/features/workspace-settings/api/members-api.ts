import {
  MEMBER_PAGE_SIZE,
  type ClientMember,
  type InvitationSuggestion,
  type OrgRole,
  type Paginated,
  type Role,
  type WorkspaceActorRef,
} from '@portolan/contract';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useParams } from 'react-router';
import { api, ApiError } from '../../../lib/api';
import { useAuthStore } from '../../../lib/auth-store';
import { clientMembersKey, resendInvitation } from '../../../lib/members';
import { clientQueryOptions, organizationQueryOptions } from '../../../lib/tenant-api';

/** Members of a workspace (spec §7 "Clients", decision 0008). */

const enc = encodeURIComponent;
const base = (clientId: string) => `/v1/clients/${enc(clientId)}/users`;

export { MEMBER_PAGE_SIZE };

/**
 * The workspace of the page (`:id`) and the caller as the member rules see them: their role in it
 * (the effective one the API answers) and in its organization.
 */
export function useWorkspaceActor() {
  const { id = '' } = useParams();
  const client = useQuery(clientQueryOptions(id));
  const orgId = client.data?.organization ?? '';
  const organization = useQuery({ ...organizationQueryOptions(orgId), enabled: orgId !== '' });
  const userId = useAuthStore((s) => s.user?.user_id ?? '');
  const actor: WorkspaceActorRef = {
    userId,
    role: (client.data?.role?.key ?? null) as Role | null,
    orgRole: (organization.data?.role?.key ?? null) as OrgRole | null,
  };
  // The rules need both roles: a workspace OWNER's role is changed only by the organization's
  // OWNER or ADMIN. A failed organization load leaves the organization role unknown (null).
  const ready = client.isSuccess && (organization.isSuccess || organization.isError);
  return { clientId: id, client, actor, ready };
}

/** GET /v1/clients/{id}/users/?key&page&limit. */
export function clientMembersQueryOptions(clientId: string, key: string, page: number) {
  return queryOptions({
    queryKey: [...clientMembersKey(clientId), 'list', { key, page }],
    queryFn: ({ signal }) =>
      api.get<Paginated<ClientMember>>(`${base(clientId)}/`, {
        signal,
        query: { key: key || undefined, page, limit: MEMBER_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });
}

const memberKey = (clientId: string, userId: string) =>
  [...clientMembersKey(clientId), 'one', userId] as const;

/** GET /v1/clients/{id}/users/{userId}/: one member of the workspace; null when not a member. */
export function clientMemberQueryOptions(clientId: string, userId: string) {
  return queryOptions({
    queryKey: memberKey(clientId, userId),
    queryFn: async ({ signal }): Promise<ClientMember | null> => {
      try {
        return await api.get<ClientMember>(`${base(clientId)}/${enc(userId)}/`, { signal });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
}

function useAfterMemberChange(clientId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: clientMembersKey(clientId) });
}

/** PUT /v1/clients/{id}/users/{userId}/roles/ {role}. */
export function useChangeWorkspaceRole(clientId: string, userId: string) {
  const queryClient = useQueryClient();
  const after = useAfterMemberChange(clientId);
  return useMutation({
    mutationFn: (role: Role) =>
      api.put<ClientMember>(
        `${base(clientId)}/${enc(userId)}/roles/`,
        { role },
        { loadingMessage: 'Changing the role…' },
      ),
    onSuccess: (member) => {
      queryClient.setQueryData(memberKey(clientId, userId), member);
      void after();
    },
  });
}

/** DELETE /v1/clients/{id}/users/{userId}/: removes a member, or cancels a pending invitation. */
export function useRemoveWorkspaceMember(clientId: string, userId: string) {
  const queryClient = useQueryClient();
  const after = useAfterMemberChange(clientId);
  return useMutation({
    mutationFn: () =>
      api.delete<void>(`${base(clientId)}/${enc(userId)}/`, { loadingMessage: 'Removing…' }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: memberKey(clientId, userId) });
      void after();
    },
  });
}

/** POST /v1/clients/{id}/users/{userId}/resend-invitation/. */
export function useResendWorkspaceInvitation(clientId: string, userId: string) {
  const after = useAfterMemberChange(clientId);
  return useMutation({
    mutationFn: () => resendInvitation({ kind: 'workspace', id: clientId }, userId),
    onSuccess: () => void after(),
  });
}

/**
 * GET /v1/clients/{id}/users/invitation/suggestion?key=: people of the other workspaces the
 * caller administers, not in this one yet (the path has no trailing slash).
 */
export function suggestionsQueryOptions(clientId: string, key: string) {
  return queryOptions({
    queryKey: [...clientMembersKey(clientId), 'suggestions', key],
    queryFn: ({ signal }) =>
      api.get<InvitationSuggestion[]>(`${base(clientId)}/invitation/suggestion`, {
        signal,
        query: { key: key || undefined },
        silent: true,
      }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
