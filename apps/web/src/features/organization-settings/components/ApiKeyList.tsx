import {
  Badge,
  Button,
  Card,
  Group,
  Popover,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import type { ApiKey } from '@portolan/contract';
import type { ReactNode } from 'react';
import { displayName } from '../../../lib/current-user';
import { formatDate } from '../../../lib/dates';
import { lastActive } from '../../../lib/member-parts';
import { permissionLabel } from './api-key-labels';
import { PhoneDetail } from '../../../lib/phone-detail';

/** Badges shown before the rest fold into "+N more". */
const SHOWN_PERMISSIONS = 3;

function PermissionBadge({ permission }: { permission: string }) {
  return (
    <Badge variant="light" color="blue" c="dark.7" tt="none" fw={500} miw="max-content">
      {permissionLabel(permission)}
    </Badge>
  );
}

/** A few badges, the rest behind "+N more" (a button opening the whole list). */
function Permissions({ apiKey }: { apiKey: ApiKey }) {
  const shown = apiKey.permissions.slice(0, SHOWN_PERMISSIONS);
  const more = apiKey.permissions.length - shown.length;
  return (
    <Group gap={4}>
      {shown.map((permission) => (
        <PermissionBadge key={permission} permission={permission} />
      ))}
      {more > 0 && (
        <Popover position="bottom-start" shadow="md" withArrow>
          <Popover.Target>
            <Button
              variant="subtle"
              size="compact-xs"
              aria-label={`All ${apiKey.permissions.length} permissions of ${apiKey.name}`}
            >
              +{more} more
            </Button>
          </Popover.Target>
          <Popover.Dropdown>
            <Stack gap={4} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
              {apiKey.permissions.map((permission) => (
                <li key={permission}>
                  <Text size="sm">{permissionLabel(permission)}</Text>
                </li>
              ))}
            </Stack>
          </Popover.Dropdown>
        </Popover>
      )}
    </Group>
  );
}

/** "All workspaces", or the names of the few it is limited to. */
function workspacesText(apiKey: ApiKey, names: ReadonlyMap<string, string>): string {
  const ids = apiKey.workspace_ids;
  if (!ids) return 'All workspaces';
  const known = ids.map((id) => names.get(id)).filter((n): n is string => n !== undefined);
  const count = `${ids.length} ${ids.length === 1 ? 'workspace' : 'workspaces'}`;
  if (known.length !== ids.length || known.length === 0) return count;
  return known.length <= 2 ? known.join(', ') : `${known[0]} and ${known.length - 1} more`;
}

function expired(apiKey: ApiKey, now: number): boolean {
  return apiKey.expires_at !== null && new Date(apiKey.expires_at).getTime() <= now;
}

function Expires({ apiKey, now }: { apiKey: ApiKey; now: number }) {
  if (!apiKey.expires_at) return <Text size="sm">Never</Text>;
  if (expired(apiKey, now)) {
    return (
      <Badge variant="outline" color="red" c="dark.7" tt="none" miw="max-content">
        Expired {formatDate(apiKey.expires_at)}
      </Badge>
    );
  }
  return <Text size="sm">{formatDate(apiKey.expires_at)}</Text>;
}

function Created({ apiKey }: { apiKey: ApiKey }) {
  return (
    <Stack gap={0}>
      <Text size="sm">{formatDate(apiKey.created)}</Text>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        by {apiKey.created_by ? displayName(apiKey.created_by) : 'a former member'}
      </Text>
    </Stack>
  );
}

function LastUsed({ apiKey, now }: { apiKey: ApiKey; now: number }) {
  return (
    <Stack gap={0}>
      <Text size="sm">{lastActive(apiKey.last_used_at, now)}</Text>
      {apiKey.last_used_ip && (
        <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {apiKey.last_used_ip}
        </Text>
      )}
    </Stack>
  );
}

/** One line of the phone's summary (the table hides its column there). */
const Detail = (props: { term: string; children: ReactNode }) => (
  <PhoneDetail termWidth={72} {...props} />
);

/**
 * The organization's API keys: a table from tablet widths up; on a phone, each key's details are
 * stacked under its name and only Revoke keeps a column.
 */
export function ApiKeyList({
  keys,
  workspaceNames,
  now,
  onRevoke,
}: {
  keys: ApiKey[];
  /** Names of the organization's workspaces by id, for keys limited to some. */
  workspaceNames: ReadonlyMap<string, string>;
  /** The moment "5 minutes ago" and "expired" are said from. */
  now: number;
  onRevoke: (apiKey: ApiKey) => void;
}) {
  return (
    <Card padding={0} withBorder>
      <Table.ScrollContainer minWidth={0}>
        <Table
          verticalSpacing="sm"
          horizontalSpacing="md"
          styles={{ td: { verticalAlign: 'top' } }}
        >
          <Table.Caption>API keys: {keys.length}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Key</Table.Th>
              <Table.Th visibleFrom="md">Permissions</Table.Th>
              <Table.Th visibleFrom="md">Workspaces</Table.Th>
              <Table.Th visibleFrom="md">Created</Table.Th>
              <Table.Th visibleFrom="md">Expires</Table.Th>
              <Table.Th visibleFrom="md">Last used</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {keys.map((apiKey) => (
              <Table.Tr key={apiKey.id}>
                <Table.Td>
                  <Stack gap={2}>
                    <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {apiKey.name}
                    </Text>
                    <Text
                      size="xs"
                      ff="monospace"
                      bg="gray.1"
                      px={6}
                      w="max-content"
                      style={{ borderRadius: 'var(--mantine-radius-sm)' }}
                    >
                      {apiKey.hint}…
                    </Text>
                  </Stack>
                  <Stack gap={6} mt="sm" hiddenFrom="md">
                    <Detail term="Permissions">
                      <Permissions apiKey={apiKey} />
                    </Detail>
                    <Detail term="Workspaces">
                      <Text size="sm">{workspacesText(apiKey, workspaceNames)}</Text>
                    </Detail>
                    <Detail term="Created">
                      <Created apiKey={apiKey} />
                    </Detail>
                    <Detail term="Expires">
                      <Expires apiKey={apiKey} now={now} />
                    </Detail>
                    <Detail term="Last used">
                      <LastUsed apiKey={apiKey} now={now} />
                    </Detail>
                  </Stack>
                </Table.Td>
                <Table.Td visibleFrom="md">
                  <Permissions apiKey={apiKey} />
                </Table.Td>
                <Table.Td visibleFrom="md">
                  <Text size="sm">{workspacesText(apiKey, workspaceNames)}</Text>
                </Table.Td>
                <Table.Td visibleFrom="md">
                  <Created apiKey={apiKey} />
                </Table.Td>
                <Table.Td visibleFrom="md">
                  <Expires apiKey={apiKey} now={now} />
                </Table.Td>
                <Table.Td visibleFrom="md">
                  <LastUsed apiKey={apiKey} now={now} />
                </Table.Td>
                <Table.Td>
                  <Group justify="flex-end">
                    <Button
                      variant="default"
                      c="red.9"
                      size="xs"
                      aria-label={`Revoke ${apiKey.name}`}
                      onClick={() => onRevoke(apiKey)}
                    >
                      Revoke
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}
