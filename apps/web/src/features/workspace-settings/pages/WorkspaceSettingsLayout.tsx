import { Avatar, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle, IconPuzzle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useLocation, useParams } from 'react-router';
import { loadFailureReason } from '../../../lib/api';
import { RetryAlert } from '../../../lib/retry-alert';
import { clientQueryOptions } from '../../../lib/tenant-api';

/** ps/client-settings/:id: the workspace's name and a sub-navigation (Information, Modules). */
export function WorkspaceSettingsLayout() {
  const { id = '' } = useParams();
  const { pathname } = useLocation();
  const client = useQuery(clientQueryOptions(id));
  const base = `/ps/client-settings/${encodeURIComponent(id)}`;
  const tabs = [
    { to: `${base}/client-detail`, label: 'Information', icon: IconInfoCircle },
    { to: `${base}/client-module`, label: 'Modules', icon: IconPuzzle },
  ];

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
        <RetryAlert title="The workspace could not be loaded" onRetry={() => void client.refetch()}>
          {loadFailureReason(client.error)}
        </RetryAlert>
      ) : (
        <>
          <Group component="nav" aria-label="Workspace settings" gap="xs">
            {tabs.map((tab) => {
              const active = pathname.startsWith(tab.to);
              return (
                <Button
                  key={tab.to}
                  component={Link}
                  to={tab.to}
                  variant={active ? 'filled' : 'default'}
                  aria-current={active ? 'page' : undefined}
                  leftSection={<tab.icon size={16} aria-hidden="true" />}
                >
                  {tab.label}
                </Button>
              );
            })}
          </Group>
          <Card padding="xl" component="section">
            <Outlet />
          </Card>
        </>
      )}
    </Stack>
  );
}
