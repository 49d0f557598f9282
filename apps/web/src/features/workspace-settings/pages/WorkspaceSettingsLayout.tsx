import { Avatar, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { can, type Role } from '@portolan/contract';
import { IconInfoCircle, IconPalette, IconPuzzle, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Outlet, useParams } from 'react-router';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { rulesAndRolesTabs, SettingsNav, type SettingsTab } from '../../../lib/settings-layout';
import { clientQueryOptions } from '../../../lib/tenant-api';

/**
 * ps/client-settings/:id: the workspace's name and a sub-navigation (Information, Modules, and
 * Users for those who may read its members).
 */
export function WorkspaceSettingsLayout() {
  const { id = '' } = useParams();
  const client = useQuery(clientQueryOptions(id));
  const base = `/ps/client-settings/${encodeURIComponent(id)}`;
  const tabs: SettingsTab[] = [
    { to: `${base}/client-detail`, label: 'Information', icon: IconInfoCircle },
    { to: `${base}/client-module`, label: 'Modules', icon: IconPuzzle },
  ];
  // The role the API answers is the effective one (an organization OWNER or ADMIN counts).
  const role = (client.data?.role?.key ?? null) as Role | null;
  if (can({ orgRole: null, workspaceRole: role }, 'client.update')) {
    tabs.push({ to: `${base}/client-branding`, label: 'Branding', icon: IconPalette });
  }
  if (can({ orgRole: null, workspaceRole: role }, 'client.members.read')) {
    tabs.push({ to: `${base}/user-list`, label: 'Users', icon: IconUsers });
  }
  if (can({ orgRole: null, workspaceRole: role }, 'client.roles.read')) {
    tabs.push(...rulesAndRolesTabs('client', id));
  }

  return (
    <Stack gap="lg" maw={960}>
      <Group gap="md" wrap="nowrap">
        {client.data && (
          <Avatar src={client.data.logo} alt="" size={48} radius="md" color="ocean">
            {client.data.name.slice(0, 1).toUpperCase()}
          </Avatar>
        )}
        <Stack gap={0}>
          <Title order={1} fz={{ base: 'h2', sm: 'h1' }}>
            {client.data?.name ?? 'Workspace settings'}
          </Title>
          {client.isPending ? (
            <Skeleton height={16} width={180} aria-hidden="true" />
          ) : (
            <Text c="dimmed" size="sm">
              Workspace settings{client.data?.role ? ` · you are ${client.data.role.name}` : ''}
            </Text>
          )}
        </Stack>
      </Group>
      {client.isError ? (
        <QueryRetryAlert title="The workspace could not be loaded" query={client} />
      ) : (
        <>
          <SettingsNav label="Workspace settings" tabs={tabs} />
          <Card padding="xl" component="section">
            <Outlet />
          </Card>
        </>
      )}
    </Stack>
  );
}
