import { Anchor, Button, Card, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconSearch, type Icon } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { EmptyListCard } from '../../../lib/empty-list-card';
import { ListSkeleton } from '../../../lib/list-skeleton';
import { settingsBase } from '../../../lib/permission-paths';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { scopedListQueryOptions, type ResourcePath, type ScopedResources } from '../api/rules-api';
import { placeOf, useRuleScope } from '../api/scope';
import { ScopeBadges } from './ScopeBadges';

/** A column after the name. */
export interface ListColumn<T> {
  head: string;
  cell: (item: T) => ReactNode;
  /** Hidden on a phone. */
  visibleFrom?: 'sm' | 'md';
}

/**
 * The list of a level's access rules or custom roles (in a workspace, its organization's too):
 * a search by name or description, "New …" for those who manage them, loading, failure and
 * empty states, and a table whose names lead to each one's page.
 */
export function ScopedListPage<R extends ResourcePath>({
  resource,
  title,
  one,
  intro,
  icon,
  emptyText,
  columns,
}: {
  resource: R;
  /** "Access rules". */
  title: string;
  /** "access rule". */
  one: string;
  intro: string;
  icon: Icon;
  /** What to do when there is none yet. */
  emptyText: string;
  columns: ListColumn<ScopedResources[R]['item']>[];
}) {
  const titleId = useId();
  const scope = useRuleScope();
  const query = useQuery(scopedListQueryOptions(scope, resource));
  const [search, setSearch] = useState('');
  const key = search.trim().toLowerCase();
  const all = query.data ?? [];
  const items = key
    ? all.filter(
        (item) =>
          item.name.toLowerCase().includes(key) || item.description.toLowerCase().includes(key),
      )
    : all;
  const base = `${settingsBase(scope.level, scope.id)}/${resource}`;
  const many = title.toLowerCase();

  return (
    <Stack gap="md" component="section" aria-labelledby={titleId}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Title order={2} fz="h3" id={titleId}>
            {title}
          </Title>
          <Text size="sm" c="dimmed" maw={640}>
            {intro}
          </Text>
        </Stack>
        {scope.canManage && (
          <Button
            component={Link}
            to={`${base}/create`}
            leftSection={<IconPlus size={16} aria-hidden="true" />}
          >
            New {one}
          </Button>
        )}
      </Group>

      <TextInput
        label={`Search ${many}`}
        placeholder="Name or description"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        maw={420}
      />

      {query.isPending && <ListSkeleton label={`Loading the ${many}`} />}
      {query.isError && <QueryRetryAlert title={`The ${many} could not be loaded`} query={query} />}

      {query.data && items.length === 0 && (
        <EmptyListCard
          icon={icon}
          title={key ? `No ${many} match` : `No ${many} yet`}
          descriptionMaw={520}
        >
          {key
            ? 'Try another search.'
            : scope.canManage
              ? `${emptyText} Start with New ${one}.`
              : `${emptyText} An owner or an admin${scope.level === 'client' ? ' or a manager' : ''} of the ${placeOf(scope.level)} can create them.`}
        </EmptyListCard>
      )}

      {items.length > 0 && (
        <Card padding={0} withBorder>
          <Table.ScrollContainer minWidth={320}>
            <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover>
              <Table.Caption>
                {title}: {items.length}
              </Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  {columns.map((column) => (
                    <Table.Th key={column.head} visibleFrom={column.visibleFrom}>
                      {column.head}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((item) => (
                  <Table.Tr key={item.id}>
                    <Table.Td>
                      <Stack gap={4}>
                        <Anchor
                          component={Link}
                          to={`${base}/${encodeURIComponent(item.id)}`}
                          fw={600}
                          style={{ overflowWrap: 'anywhere' }}
                        >
                          {item.name}
                        </Anchor>
                        <ScopeBadges item={item} level={scope.level} />
                        {item.description && (
                          <Text size="xs" c="dimmed" lineClamp={2}>
                            {item.description}
                          </Text>
                        )}
                      </Stack>
                    </Table.Td>
                    {columns.map((column) => (
                      <Table.Td key={column.head} visibleFrom={column.visibleFrom}>
                        {column.cell(item)}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
    </Stack>
  );
}
