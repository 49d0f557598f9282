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
  ThemeIcon,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import type { User } from '@portolan/contract';
import { IconBuildingCommunity, IconInfoCircle, IconUserCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { loadFailureReason } from '../../../lib/api';
import { useAuthStore } from '../../../lib/auth-store';
import { currentUserQueryOptions } from '../../../lib/current-user';
import { RetryAlert } from '../../../lib/retry-alert';

/**
 * What the profile lacks, in the words of the prompt: the name (both parts), a photo and a phone
 * number. An empty list means the profile is complete and no prompt is shown.
 */
export function missingProfileParts(
  user: Pick<User, 'first_name' | 'last_name' | 'phone' | 'avatar'>,
): string[] {
  const missing: string[] = [];
  if (!user.first_name.trim() || !user.last_name.trim()) missing.push('your full name');
  if (!user.avatar) missing.push('a photo');
  if (!user.phone.trim()) missing.push('a phone number');
  return missing;
}

/** "a", "a and b", "a, b and c". */
function listText(parts: string[]): string {
  if (parts.length < 2) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

function ProfilePrompt({ missing }: { missing: string[] }) {
  return (
    <Card padding="lg" component="section" aria-labelledby="profile-prompt-title">
      <Group gap="md" wrap="nowrap" align="flex-start">
        <ThemeIcon size={40} radius="xl" variant="light" aria-hidden="true">
          <IconUserCircle size={22} stroke={1.6} />
        </ThemeIcon>
        <Stack gap={6} style={{ flex: 1 }}>
          <Title order={2} fz="h4" id="profile-prompt-title">
            Your profile is not complete
          </Title>
          <Text size="sm" c="dimmed">
            Add {listText(missing)}, so that the people you work with can recognise and reach you.
          </Text>
          <Group mt={4}>
            <Button component={Link} to="/ps/profile" variant="default" size="sm">
              Complete your profile
            </Button>
          </Group>
        </Stack>
      </Group>
    </Card>
  );
}

/**
 * /ps/dashboard and /ps/:client_id/dashboard (ps-dashboard, "Portal Dashboard"). The breadcrumbs
 * of the layout say where the user is; the page says each thing once: one greeting (the h1), the
 * e-mail signed in with, a profile prompt only while the profile lacks something, and honestly
 * that the user does not belong to any workspace yet.
 */
export function DashboardPage() {
  const { client_id: clientId } = useParams();
  const currentClient = useAuthStore((s) => s.current_client);
  const storedEmail = useAuthStore((s) => s.user?.email);
  const user = useQuery(currentUserQueryOptions());
  const firstName = user.data?.first_name.trim();
  const email = user.data?.email ?? storedEmail;
  const unknownWorkspace = Boolean(clientId) && currentClient?.id !== clientId;
  const missing = user.data ? missingProfileParts(user.data) : [];

  return (
    <Stack gap="xl" maw={960}>
      <Stack gap={4}>
        {user.isPending ? (
          <>
            <VisuallyHidden component="h1">Welcome</VisuallyHidden>
            <Skeleton height={36} width={280} maw="100%" radius="sm" aria-hidden="true" />
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
          We could not load your profile. {loadFailureReason(user.error)}
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

      {missing.length > 0 && <ProfilePrompt missing={missing} />}

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
        </EmptyState>
      </Card>
    </Stack>
  );
}
