import { Card, Divider, Group, Stack, Text, Title } from '@mantine/core';
import type { PermissionCatalogue, PermissionStatus } from '@portolan/contract';
import { Fragment, useId } from 'react';
import { SetGroupMenu, StatusControl } from './status';

type Statuses = Record<string, PermissionStatus>;
interface Named {
  key: string;
  name: string;
}

/** One row a permission: its name, and ALLOW / DENY / INHERIT (labelled with the name). */
export function StatusRows({
  permissions,
  statuses,
  onChange,
  readOnly = false,
}: {
  permissions: readonly Named[];
  statuses: Statuses;
  onChange: (key: string, status: PermissionStatus) => void;
  readOnly?: boolean;
}) {
  return (
    <Stack gap={6}>
      {permissions.map((p, index) => (
        <Fragment key={p.key}>
          {index > 0 && <Divider />}
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text size="sm" style={{ flex: '1 1 180px' }}>
              {p.name}
            </Text>
            <StatusControl
              label={p.name}
              value={statuses[p.key] ?? 'INHERIT'}
              onChange={(status) => onChange(p.key, status)}
              readOnly={readOnly}
            />
          </Group>
        </Fragment>
      ))}
    </Stack>
  );
}

/** Every permission of the group set to one status. */
export function setGroup(
  statuses: Statuses,
  permissions: readonly Named[],
  status: PermissionStatus,
) {
  return { ...statuses, ...Object.fromEntries(permissions.map((p) => [p.key, status])) };
}

function GroupCard({
  group,
  statuses,
  onChange,
  readOnly,
}: {
  group: PermissionCatalogue['modules'][number]['groups'][number];
  statuses: Statuses;
  onChange: (next: Statuses) => void;
  readOnly: boolean;
}) {
  const titleId = useId();
  return (
    <Card withBorder padding="sm" component="section" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Title order={4} fz="sm" id={titleId}>
            {group.name}
          </Title>
          {!readOnly && (
            <SetGroupMenu
              groupName={group.name}
              onSet={(status) => onChange(setGroup(statuses, group.permissions, status))}
            />
          )}
        </Group>
        <StatusRows
          permissions={group.permissions}
          statuses={statuses}
          onChange={(key, status) => onChange({ ...statuses, [key]: status })}
          readOnly={readOnly}
        />
      </Stack>
    </Card>
  );
}

/**
 * The permission catalogue by module and group, a three-way control a permission, with "Set the
 * whole group" per group: what an access rule says of each permission.
 */
export function CatalogueStatuses({
  modules,
  statuses,
  onChange,
  readOnly,
}: {
  modules: PermissionCatalogue['modules'];
  statuses: Statuses;
  onChange: (next: Statuses) => void;
  readOnly: boolean;
}) {
  return (
    <Stack gap="md">
      {modules.map((m) => (
        <Stack key={m.module} gap="sm">
          <Title order={3} fz="h5">
            {m.name}
          </Title>
          {m.groups.map((group) => (
            <GroupCard
              key={group.key}
              group={group}
              statuses={statuses}
              onChange={onChange}
              readOnly={readOnly}
            />
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
