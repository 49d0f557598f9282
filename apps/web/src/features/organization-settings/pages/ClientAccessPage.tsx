import {
  Alert,
  Anchor,
  Avatar,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  can,
  canAddWorkspaceMember,
  canChangeWorkspaceRole,
  ROLE_NAMES,
  ROLES,
  type MemberClientAccess,
  type OrgMember,
  type OrgRole,
  type Role,
  type WorkspaceActorRef,
} from '@portolan/contract';
import { IconArrowLeft, IconLayoutGrid } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useAuthStore } from '../../../lib/auth-store';
import { displayName } from '../../../lib/current-user';
import { EmptyListCard } from '../../../lib/empty-list-card';
import { ProblemAlert } from '../../../lib/form-parts';
import { memberActionProblem } from '../../../lib/member-errors';
import { MemberStatusBadge, RoleBadge } from '../../../lib/member-parts';
import { memberTypeOf, orgUsersPath } from '../../../lib/members';
import { clientAccessPermissionsPath } from '../../../lib/permission-paths';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { toast } from '../../../lib/toasts';
import {
  memberClientsQueryOptions,
  orgMemberQueryOptions,
  useGrantClientAccess,
} from '../api/members-api';
import { useOrganization } from '../api/org-settings-api';

/** The roles the caller may give the member in one workspace (the contract's workspace rules). */
function grantableRoles(
  actor: WorkspaceActorRef,
  member: { userId: string; orgRole: OrgRole },
  row: MemberClientAccess,
): Role[] {
  return ROLES.filter((role) =>
    row.role
      ? canChangeWorkspaceRole(actor, { ...member, role: row.role.key }, role) === null
      : canAddWorkspaceMember(actor, role) === null,
  );
}

/**
 * ps/organizations/:orgId/users/:userId/client-access: the organization's workspaces, which the
 * member belongs to and with what role; an owner or an admin selects others (or changes a role)
 * and grants them all in one call.
 */
export function ClientAccessPage() {
  const { userId = '' } = useParams();
  const { orgId, query: org } = useOrganization();
  const member = useQuery(orgMemberQueryOptions(orgId, userId));
  const access = useQuery(memberClientsQueryOptions(orgId, userId));
  const type = member.data ? memberTypeOf(member.data.role.key) : 'internal';
  const memberPath = `${orgUsersPath(orgId, type)}/${encodeURIComponent(userId)}`;

  return (
    <Stack gap="lg" maw={960}>
      <Anchor component={Link} to={memberPath} size="sm" w="fit-content">
        <Group gap={4} wrap="nowrap">
          <IconArrowLeft size={16} aria-hidden="true" />
          Back to the member
        </Group>
      </Anchor>
      <Stack gap={4}>
        <Title order={1} fz={{ base: 'h2', sm: 'h1' }}>
          Workspace access
        </Title>
        {member.data && org.data ? (
          <Text c="dimmed">
            The workspaces of {org.data.name} and {displayName(member.data.user)}&apos;s place in
            each.
          </Text>
        ) : (
          member.isPending && <Skeleton height={20} width={280} aria-hidden="true" />
        )}
      </Stack>

      {(access.isPending || member.isPending) && (
        <Stack gap="xs" aria-busy="true" aria-label="Loading the workspace access">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={48} radius="sm" />
          ))}
        </Stack>
      )}
      {member.isError && <QueryRetryAlert title="The member could not be loaded" query={member} />}
      {access.isError && !member.isError && (
        <QueryRetryAlert title="The workspaces could not be loaded" query={access} />
      )}
      {member.data && access.data && (
        <AccessTable orgId={orgId} member={member.data} rows={access.data} />
      )}
    </Stack>
  );
}

function AccessTable({
  orgId,
  member,
  rows,
}: {
  orgId: string;
  member: OrgMember;
  rows: MemberClientAccess[];
}) {
  const { role: myRole } = useOrganization();
  const myId = useAuthStore((s) => s.user?.user_id ?? '');
  const userId = member.user.id;
  const grant = useGrantClientAccess(orgId, userId);
  const [chosen, setChosen] = useState<Record<string, Role>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const actor: WorkspaceActorRef = { userId: myId, role: null, orgRole: myRole };
  const pending = member.status === 'PENDING';
  const canGrant =
    can({ orgRole: myRole }, 'organization.members.manage') && !pending && userId !== myId;
  const defaultRole: Role = member.role.key === 'CLIENT' ? 'CLIENT' : 'STAFF';
  const selected = Object.entries(chosen);

  if (rows.length === 0) {
    return (
      <EmptyListCard icon={IconLayoutGrid} title="No workspace yet">
        The organization has no workspace you can see. Add one from the Workspaces tab first.
      </EmptyListCard>
    );
  }

  const toggle = (row: MemberClientAccess, roles: Role[], on: boolean) => {
    setChosen((previous) => {
      const next = { ...previous };
      if (on) {
        const start = row.role?.key ?? defaultRole;
        next[row.client.id] = roles.includes(start) ? start : (roles.at(-1) as Role);
      } else {
        delete next[row.client.id];
      }
      return next;
    });
  };

  const onGrant = async () => {
    setProblem(null);
    try {
      await grant.mutateAsync({
        clients: selected.map(([client_id, role]) => ({ client_id, role })),
      });
      toast.success(
        `${displayName(member.user)} has access to ${selected.length} ${selected.length === 1 ? 'more workspace' : 'more workspaces'} (or a new role there).`,
      );
      setChosen({});
    } catch (error) {
      setProblem(memberActionProblem(error, 'organization'));
    }
  };

  return (
    <Stack gap="md">
      {pending && (
        <Alert color="blue" variant="light" title="The invitation is still pending">
          Workspace access can be granted once {displayName(member.user)} accepts the invitation to
          the organization.
        </Alert>
      )}
      <ProblemAlert>{problem}</ProblemAlert>
      <Card padding={0} withBorder>
        <Table.ScrollContainer minWidth={canGrant ? 560 : 320}>
          <Table verticalSpacing="sm" horizontalSpacing="md">
            <Table.Caption>Workspaces of the organization</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Workspace</Table.Th>
                <Table.Th>Access</Table.Th>
                {canGrant && <Table.Th>Grant or change</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => {
                const roles = canGrant
                  ? grantableRoles(actor, { userId, orgRole: member.role.key as OrgRole }, row)
                  : [];
                const role = chosen[row.client.id];
                return (
                  <Table.Tr key={row.client.id}>
                    <Table.Td>
                      <Group gap="sm" wrap="nowrap">
                        <Avatar src={row.client.logo} alt="" size={32} radius="sm" color="ocean">
                          {row.client.name.slice(0, 1).toUpperCase()}
                        </Avatar>
                        <Stack gap={2}>
                          <Text fw={600}>{row.client.name}</Text>
                          {!row.client.active && (
                            <Badge color="orange" variant="light" c="dark.7" w="fit-content">
                              Pending approval
                            </Badge>
                          )}
                        </Stack>
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      {row.role ? (
                        <Group gap={6}>
                          <RoleBadge role={row.role.key} />
                          {row.status === 'PENDING' && <MemberStatusBadge status="PENDING" />}
                          {can({ orgRole: myRole }, 'organization.members.manage') && (
                            <Anchor
                              component={Link}
                              to={clientAccessPermissionsPath(orgId, userId, row.client.id)}
                              size="sm"
                              aria-label={`Permissions in ${row.client.name}`}
                            >
                              Permissions
                            </Anchor>
                          )}
                        </Group>
                      ) : (
                        <Text size="sm" c="dimmed">
                          No access
                        </Text>
                      )}
                    </Table.Td>
                    {canGrant && (
                      <Table.Td>
                        {roles.length > 0 && (
                          <Group gap="xs" wrap="nowrap">
                            <Checkbox
                              aria-label={`Select ${row.client.name}`}
                              checked={role !== undefined}
                              onChange={(e) => toggle(row, roles, e.currentTarget.checked)}
                            />
                            <Select
                              aria-label={`Role in ${row.client.name}`}
                              placeholder="Role"
                              disabled={role === undefined}
                              allowDeselect={false}
                              value={role ?? row.role?.key ?? null}
                              onChange={(value) =>
                                value &&
                                setChosen((previous) => ({
                                  ...previous,
                                  [row.client.id]: value as Role,
                                }))
                              }
                              data={roles.map((r) => ({ value: r, label: ROLE_NAMES[r] }))}
                              w={150}
                            />
                          </Group>
                        )}
                      </Table.Td>
                    )}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
      {canGrant && (
        <Group justify="flex-end">
          <Button
            onClick={() => void onGrant()}
            loading={grant.isPending}
            disabled={selected.length === 0}
          >
            {selected.length > 0 ? `Grant access (${selected.length})` : 'Grant access'}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
