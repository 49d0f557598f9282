import { Alert, Text } from '@mantine/core';
import { can } from '@portolan/contract';
import { IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { MemberListFrame, useMemberListFilters } from '../../../lib/member-list';
import { RoleBadge } from '../../../lib/member-parts';
import { clientMembersQueryOptions, MEMBER_PAGE_SIZE, useWorkspaceActor } from '../api/members-api';

/**
 * user-list (Users): the workspace's members with their workspace role, their organization role
 * and whether their invitation is pending; search, pages, and Invite and Add for those who manage
 * members (ps/users/:id/invite and /add).
 */
export function WorkspaceUsersPage() {
  const { clientId, client, actor } = useWorkspaceActor();
  const filters = useMemberListFilters();
  const roles = { orgRole: actor.orgRole, workspaceRole: actor.role };
  const allowed = can(roles, 'client.members.read');
  const members = useQuery({
    ...clientMembersQueryOptions(clientId, filters.key, filters.page),
    enabled: allowed,
  });
  const manage = can(roles, 'client.members.manage');
  const usersBase = `/ps/users/${encodeURIComponent(clientId)}`;

  if (client.data && !allowed) {
    return (
      <Alert color="orange" variant="light" title="Only the workspace's team sees its users">
        Ask an owner, an admin or a manager of {client.data.name} who belongs to it.
      </Alert>
    );
  }

  return (
    <MemberListFrame
      title="Users"
      titleId="ws-users-title"
      what="members"
      filters={filters}
      query={members}
      pageSize={MEMBER_PAGE_SIZE}
      inviteTo={manage ? `${usersBase}/invite` : null}
      addTo={manage ? `${usersBase}/add` : null}
      emptyIcon={IconUsers}
      emptyText="Invite the people who work in this workspace: they show up here."
      roleHead="Workspace role"
      extraColumn={{
        head: 'Organization role',
        cell: (member) =>
          member.organization_role ? (
            <RoleBadge role={member.organization_role.key} />
          ) : (
            <Text size="sm" c="dimmed">
              None
            </Text>
          ),
      }}
    />
  );
}
