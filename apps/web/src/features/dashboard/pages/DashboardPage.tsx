import {
  Alert,
  Anchor,
  Button,
  Card,
  EmptyState,
  Group,
  Skeleton,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconBuildingCommunity, IconInfoCircle, IconSettings } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useAuthStore } from '../../../lib/auth-store';
import { currentUserQueryOptions } from '../../../lib/current-user';
import { RetryAlert } from '../../../lib/retry-alert';

/**
 * /ps/dashboard and /ps/:client_id/dashboard (ps-dashboard, "Portal Dashboard"): greets the user
 * and says honestly that they do not belong to any workspace yet.
 */
export function DashboardPage() {
  const { client_id: clientId } = useParams();
  const currentClient = useAuthStore((s) => s.current_client);
  const storedEmail = useAuthStore((s) => s.user?.email);
  const user = useQuery(currentUserQueryOptions());

  const firstName = user.data?.first_name.trim();
  const email = user.data?.email ?? storedEmail;
  const unknownWorkspace = Boolean(clientId) && currentClient?.id !== clientId;

  return (
    <Stack gap="xl" maw={960}>
      <Stack gap={4}>
        <Text size="sm" fw={600} c="ocean.8" tt="uppercase">
          Portal Dashboard
        </Text>
        {user.isPending ? (
          <>
            <VisuallyHidden component="h1">Welcome</VisuallyHidden>
            <Skeleton height={36} width={280} radius="sm" aria-hidden="true" />
          </>
        ) : (
          <Title order={1}>{firstName ? `Welcome, ${firstName}` : 'Welcome to Portolan'}</Title>
        )}
        {email && (
          <Text c="dimmed">
            Signed in as <strong>{email}</strong>
          </Text>
        )}
      </Stack>

      {user.isError && (
        <RetryAlert onRetry={() => void user.refetch()}>
          We could not load your profile just now.
        </RetryAlert>
      )}

      {unknownWorkspace && (
        <Alert
          color="orange"
          variant="light"
          title="This workspace is not among yours"
          icon={<IconInfoCircle size={18} aria-hidden="true" />}
        >
          The link you followed points to a workspace you do not belong to, or one that no longer
          exists. Ask its owner for an invitation, or{' '}
          <Anchor component={Link} to="/ps/dashboard" inherit fw={600}>
            go to your dashboard
          </Anchor>
          .
        </Alert>
      )}

      <Card padding="xl">
        <EmptyState
          icon={<IconBuildingCommunity size={36} stroke={1.5} aria-hidden="true" />}
          variant="light"
        >
          <EmptyState.Title order={2}>You do not belong to any workspace yet</EmptyState.Title>
          <EmptyState.Description maw={560}>
            Workspaces are where your team works on shipments and transit. When an organization
            invites you to one, the invitation arrives by e-mail and the workspace shows up here.
            Organizations and workspaces arrive in a later release of Portolan.
          </EmptyState.Description>
          <EmptyState.Actions>
            <Button
              component={Link}
              to="/ps/profile"
              variant="default"
              leftSection={<IconSettings size={16} aria-hidden="true" />}
            >
              Complete your profile
            </Button>
          </EmptyState.Actions>
        </EmptyState>
      </Card>

      <Group gap="xs">
        <Text size="sm" c="dimmed">
          Expecting an invitation? Check the inbox of {email ?? 'your e-mail address'}.
        </Text>
      </Group>
    </Stack>
  );
}
