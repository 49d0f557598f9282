import {
  Anchor,
  Button,
  Card,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { MembershipStatus, Paginated, Role } from '@portolan/contract';
import { IconMailPlus, IconSearch, IconUserPlus, type Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { displayName } from './current-user';
import { EmptyListCard } from './empty-list-card';
import { useListFilters, type ListFilters } from './list-filters';
import { lastActive, MemberIdentity, MemberStatusBadge, RoleBadge } from './member-parts';
import { PagePagination } from './page-pagination';
import { QueryRetryAlert } from './retry-alert';

/**
 * The member lists of an organization (internal and external users) and of a workspace: a
 * search, pages, Invite and Add for those who manage members, loading, failure and empty states,
 * and a table of name (a link to the member's page), role, status and last active.
 */

export interface MemberListFilters extends ListFilters {
  /** A search or another filter narrows the list. */
  filtered: boolean;
}

/** The search and the page; another search or `other` filter (null: none) starts at page 1. */
export function useMemberListFilters(other: unknown = null): MemberListFilters {
  const filters = useListFilters(other);
  return { ...filters, filtered: filters.key !== '' || other !== null };
}

interface ListedMember {
  id: string;
  user: { id: string; email: string; first_name: string; last_name: string; avatar: string | null };
  role: { key: Role };
  status: MembershipStatus;
  last_active_at: string | null;
}

/** A column a list adds after the role (the workspace list's organization role). */
export interface MemberColumn<M> {
  head: string;
  cell: (member: M) => ReactNode;
}

/** The member's avatar and name, the name a link to their page. */
function MemberNameLink({ member, to }: { member: ListedMember; to: string }) {
  return (
    <MemberIdentity
      user={member.user}
      name={
        <Anchor component={Link} to={to} fw={600} style={{ overflowWrap: 'anywhere' }}>
          {displayName(member.user)}
        </Anchor>
      }
    />
  );
}

export function MemberListFrame<M extends ListedMember>({
  title,
  titleId,
  what,
  filters,
  query,
  pageSize,
  inviteTo,
  addTo,
  emptyIcon,
  emptyText,
  extraFilter,
  roleHead,
  extraColumn,
  replaceList,
}: {
  title: string;
  titleId: string;
  /** "internal users": the loading label, the table caption and the empty state say it. */
  what: string;
  filters: MemberListFilters;
  query: {
    data: Paginated<M> | undefined;
    isPending: boolean;
    isError: boolean;
    error: unknown;
    refetch: () => Promise<unknown>;
  };
  pageSize: number;
  /** Where Invite and Add lead; null hides them (a role that may not manage members). */
  inviteTo: string | null;
  addTo: string | null;
  emptyIcon: Icon;
  /** What to do when there is nobody yet. */
  emptyText: string;
  extraFilter?: ReactNode;
  /** The role column's header: whose role it is. */
  roleHead: string;
  extraColumn?: MemberColumn<M>;
  /** What stands instead of the search and the list (nobody there to manage: spec §6). */
  replaceList?: ReactNode;
}) {
  const listed = !replaceList;
  const list = query.data?.results ?? [];
  const pages = Math.ceil((query.data?.count ?? 0) / pageSize);
  return (
    <Stack gap="md" component="section" aria-labelledby={titleId}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2} fz="h3" id={titleId}>
          {title}
        </Title>
        <Group gap="xs">
          {inviteTo && (
            <Button
              component={Link}
              to={inviteTo}
              leftSection={<IconMailPlus size={16} aria-hidden="true" />}
            >
              Invite
            </Button>
          )}
          {addTo && (
            <Button
              component={Link}
              to={addTo}
              variant="default"
              leftSection={<IconUserPlus size={16} aria-hidden="true" />}
            >
              Add
            </Button>
          )}
        </Group>
      </Group>

      {replaceList}

      {listed && (
        <Group gap="sm" wrap="wrap" align="flex-end">
          <TextInput
            label={`Search ${what}`}
            placeholder="Name or e-mail"
            value={filters.search}
            onChange={(e) => filters.setSearch(e.currentTarget.value)}
            leftSection={<IconSearch size={16} aria-hidden="true" />}
            style={{ flex: '1 1 220px' }}
          />
          {extraFilter}
        </Group>
      )}

      {listed && query.isPending && (
        <Stack gap="xs" aria-busy="true" aria-label={`Loading the ${what}`}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={48} radius="sm" />
          ))}
        </Stack>
      )}

      {listed && query.isError && (
        <QueryRetryAlert title={`The ${what} could not be loaded`} query={query} />
      )}

      {listed && query.data && list.length === 0 && (
        <EmptyListCard
          icon={emptyIcon}
          title={filters.filtered ? `No ${what} match` : `No ${what} yet`}
          descriptionMaw={520}
        >
          {filters.filtered ? 'Try another search or filter.' : emptyText}
        </EmptyListCard>
      )}

      {listed && list.length > 0 && (
        <Card padding={0} withBorder>
          <Table.ScrollContainer minWidth={320}>
            <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover>
              <Table.Caption>
                {title}: {query.data?.count}
              </Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>{roleHead}</Table.Th>
                  {extraColumn && <Table.Th visibleFrom="sm">{extraColumn.head}</Table.Th>}
                  <Table.Th visibleFrom="sm">Status</Table.Th>
                  <Table.Th visibleFrom="md">Last active</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((member) => (
                  <Table.Tr key={member.id}>
                    <Table.Td>
                      <MemberNameLink member={member} to={member.user.id} />
                      {member.status === 'PENDING' && (
                        <Text size="xs" c="dimmed" hiddenFrom="sm" mt={4}>
                          Invitation pending
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <RoleBadge role={member.role.key} />
                    </Table.Td>
                    {extraColumn && (
                      <Table.Td visibleFrom="sm">{extraColumn.cell(member)}</Table.Td>
                    )}
                    <Table.Td visibleFrom="sm">
                      <MemberStatusBadge status={member.status} />
                    </Table.Td>
                    <Table.Td visibleFrom="md">
                      <Text size="sm">{lastActive(member.last_active_at)}</Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      <PagePagination total={listed ? pages : 0} page={filters.page} onChange={filters.setPage} />
    </Stack>
  );
}
