import type { InvitedMember, OrgRole, Role } from '@portolan/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { track } from './analytics';
import { api } from './api';

/**
 * Members of an organization or a workspace as several features call them (spec §7): the calls
 * both tenants share (inviting, force-inviting, resending), the query keys the lists live under
 * and the paths of the member pages. Each feature keeps the calls only it makes.
 */

/** Where members are managed: an organization (`/v1/organizations/{id}`) or a workspace (`/v1/clients/{id}`). */
export interface MemberTenant {
  kind: 'organization' | 'workspace';
  id: string;
}

const enc = encodeURIComponent;

/** The API base of the tenant's member calls. */
export const tenantBase = (tenant: MemberTenant) =>
  tenant.kind === 'organization'
    ? `/v1/organizations/${enc(tenant.id)}`
    : `/v1/clients/${enc(tenant.id)}`;

/** Every query of an organization's members (lists and one member) starts with this key. */
export const orgMembersKey = (orgId: string) => ['organizations', orgId, 'members'] as const;
/** Every query of a workspace's members starts with this key. */
export const clientMembersKey = (clientId: string) => ['clients', clientId, 'members'] as const;

export const membersKeyOf = (tenant: MemberTenant) =>
  tenant.kind === 'organization' ? orgMembersKey(tenant.id) : clientMembersKey(tenant.id);

/** The two lists of an organization's members (spec §6): internal (OWNER, ADMIN, STAFF), external (CLIENT). */
export type MemberType = 'internal' | 'external';
export const memberTypeOf = (role: Role | OrgRole): MemberType =>
  role === 'CLIENT' ? 'external' : 'internal';

/** ps/organization-settings/:orgId/users/:type (ps-OrgUsers). */
export const orgUsersPath = (orgId: string, type: MemberType) =>
  `/ps/organization-settings/${enc(orgId)}/users/${type}`;
/** ps/client-settings/:id/user-list. */
export const workspaceUsersPath = (clientId: string) =>
  `/ps/client-settings/${enc(clientId)}/user-list`;

/** What an invitation or a force-invitation sends (the contract's invitation schemas). */
export interface InvitationBody {
  email: string;
  role: Role;
  first_name?: string;
  last_name?: string;
  /** Only a force-invitation: the new account's password. */
  password?: string;
}

export type InviteMode = 'invite' | 'add';

/**
 * POST …/users/invitation/ (a pending member, an e-mail with the link and a notification) or
 * …/users/force-invitation/ (`add`: a member at once, with a password for a new account).
 */
export function inviteMember(tenant: MemberTenant, mode: InviteMode, body: InvitationBody) {
  const path = mode === 'add' ? 'force-invitation' : 'invitation';
  return api.post<InvitedMember>(`${tenantBase(tenant)}/users/${path}/`, body, {
    loadingMessage: mode === 'add' ? 'Adding the member…' : 'Sending the invitation…',
  });
}

/** The invitation (or the addition) as a mutation; the tenant's member lists are read again after. */
export function useInviteMember(tenant: MemberTenant, mode: InviteMode) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InvitationBody) => inviteMember(tenant, mode, body),
    onSuccess: () => {
      track('invitation sent', { tenant: tenant.kind, mode });
      return queryClient.invalidateQueries({ queryKey: membersKeyOf(tenant) });
    },
  });
}

/** POST …/users/{userId}/resend-invitation/: a new link; the old one stops working. */
export function resendInvitation(tenant: MemberTenant, userId: string) {
  return api.post<InvitedMember>(
    `${tenantBase(tenant)}/users/${enc(userId)}/resend-invitation/`,
    undefined,
    { loadingMessage: 'Sending the invitation again…' },
  );
}
