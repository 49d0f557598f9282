import { Alert, Select } from '@mantine/core';
import { can, INTERNAL_ORG_ROLES, ROLE_NAMES, type OrgRole } from '@portolan/contract';
import { IconCrown, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { useAuthStore } from '../../../lib/auth-store';
import { EmptyListCard } from '../../../lib/empty-list-card';
import { MemberListFrame, useMemberListFilters } from '../../../lib/member-list';
import type { MemberType } from '../../../lib/members';
import {
  MEMBER_PAGE_SIZE,
  orgFullyOwnedQueryOptions,
  orgMembersQueryOptions,
} from '../api/members-api';
import { useOrganization } from '../api/org-settings-api';

const TITLES: Record<MemberType, string> = {
  internal: 'Internal users',
  external: 'External users',
};

const isMemberType = (value: string | undefined): value is MemberType =>
  value === 'internal' || value === 'external';

/**
 * users/:type (ps-OrgUsers): internal (OWNER, ADMIN, STAFF) or external (CLIENT) members, pending
 * invitations included; search, a role filter for internal users, pages, and Invite and Add for
 * those who manage members.
 */
export function OrgUsersPage() {
  const { type } = useParams();
  if (!isMemberType(type)) return <Navigate to="../internal" replace relative="path" />;
  return <OrgUsersList key={type} type={type} />;
}

function OrgUsersList({ type }: { type: MemberType }) {
  const { orgId, query: org, role: myRole } = useOrganization();
  const [role, setRole] = useState<OrgRole | null>(null);
  const filters = useMemberListFilters(role);
  const allowed = can({ orgRole: myRole }, 'organization.members.read');
  const members = useQuery({
    ...orgMembersQueryOptions(orgId, { type, role, key: filters.key, page: filters.page }),
    enabled: allowed,
  });
  const manage = can({ orgRole: myRole }, 'organization.members.manage');
  const myId = useAuthStore((s) => s.user?.user_id ?? '');
  // Spec §6: fully owned by the caller (every other member an active OWNER), there is nobody for
  // them to manage: say so instead of a list of owners whose pages offer them nothing to do.
  const fullyOwned = useQuery({
    ...orgFullyOwnedQueryOptions(orgId, myId),
    enabled: manage && myId !== '',
  });
  const otherOwners = filters.filtered ? null : (fullyOwned.data ?? null);
  const orgName = org.data?.name ?? 'this organization';
  const orgBase = `/ps/organizations/${encodeURIComponent(orgId)}`;

  if (org.data && !allowed) {
    return (
      <Alert color="orange" variant="light" title="Only owners, admins and staff see the users">
        Ask an owner or an admin of {org.data.name} who belongs to it.
      </Alert>
    );
  }

  return (
    <MemberListFrame
      title={TITLES[type]}
      titleId="org-users-title"
      what={type === 'internal' ? 'internal users' : 'external users'}
      filters={filters}
      query={members}
      pageSize={MEMBER_PAGE_SIZE}
      inviteTo={manage && org.data ? `${orgBase}/invite` : null}
      addTo={manage && org.data ? `${orgBase}/add` : null}
      emptyIcon={IconUsers}
      emptyText={
        type === 'internal'
          ? 'Owners, admins and staff of the organization show up here once invited.'
          : 'Clients are external users: invite one with the Client role, or keep a removed member in their workspaces as one.'
      }
      extraFilter={
        type === 'internal' ? (
          <Select
            label="Role"
            placeholder="All roles"
            clearable
            value={role}
            onChange={(value) => setRole(value as OrgRole | null)}
            data={INTERNAL_ORG_ROLES.map((r) => ({ value: r, label: ROLE_NAMES[r] }))}
            style={{ flex: '0 1 200px' }}
          />
        ) : null
      }
      roleHead="Role"
      replaceList={
        otherOwners === null ? null : (
          <EmptyListCard icon={IconCrown} title="Nobody else to manage yet" descriptionMaw={520}>
            {otherOwners === 0
              ? `You are the only member of ${orgName}`
              : `Everyone else in ${orgName} is an owner${myRole === 'OWNER' ? ', as you are' : ''}`}
            : there is nobody whose role you could change or whom you could remove. Invite someone
            to work with you, and they show up here.
          </EmptyListCard>
        )
      }
    />
  );
}
