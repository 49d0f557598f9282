import {
  Badge,
  Button,
  Card,
  EmptyState,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import {
  can,
  ROLE_NAMES,
  showsOrganizationGear,
  type MyOrganizationEntry,
  type OrgRole,
  type User,
} from '@portolan/contract';
import {
  IconBuildingCommunity,
  IconBuildingPlus,
  IconExternalLink,
  IconSettings,
  IconUserCircle,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { loadFailureReason } from '../../../lib/api';
import { useAuthStore } from '../../../lib/auth-store';
import { currentUserQueryOptions } from '../../../lib/current-user';
import { RetryAlert } from '../../../lib/retry-alert';
import {
  enabledModules,
  moduleName,
  orderOrganizations,
  switchWorkspace,
  useMyOrganizations,
} from '../../../lib/tenancy';

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

function CreateOrganizationCard() {
  return (
    <Card padding="xl" component="section" aria-labelledby="create-org-title">
      <EmptyState
        icon={<IconBuildingPlus size={36} stroke={1.5} aria-hidden="true" />}
        variant="light"
      >
        <EmptyState.Title order={2} id="create-org-title">
          Create your organization
        </EmptyState.Title>
        <EmptyState.Description maw={560}>
          An organization holds your team's workspaces. Name it, then add a first workspace: its
          modules open from there.
        </EmptyState.Description>
        <Group justify="center" mt="md">
          <Button component={Link} to="/ps/organizations/create">
            Create your organization
          </Button>
        </Group>
      </EmptyState>
    </Card>
  );
}

function NoWorkspaceCard() {
  return (
    <Card padding="xl">
      <EmptyState
        icon={<IconBuildingCommunity size={36} stroke={1.5} aria-hidden="true" />}
        variant="light"
      >
        <EmptyState.Title order={2}>You do not belong to any workspace yet</EmptyState.Title>
        <EmptyState.Description maw={560}>
          Workspaces are where your team works on shipments and transit. When an organization
          invites you to one, the invitation arrives by e-mail and the workspace shows up here.
        </EmptyState.Description>
      </EmptyState>
    </Card>
  );
}

type Workspace = MyOrganizationEntry['clients'][number];

function WorkspaceCard({ client, current }: { client: Workspace; current: boolean }) {
  const modules = enabledModules(client.modules);
  return (
    <Card padding="md" withBorder component="li" style={{ listStyle: 'none' }}>
      <Stack gap={6} h="100%">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={3} fz="h5" lineClamp={2}>
            {client.name}
          </Title>
          {current && (
            <Badge size="sm" variant="light" color="teal" c="dark.7">
              Current
            </Badge>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {client.role ? ROLE_NAMES[client.role.key] : 'Member'}
          {' · '}
          {modules.length > 0 ? modules.map(moduleName).join(', ') : 'No module enabled'}
        </Text>
        {!client.active && (
          <Badge size="sm" variant="light" color="orange" c="dark.7">
            Waiting for approval
          </Badge>
        )}
        <Group mt="auto" pt={6}>
          <Button
            size="xs"
            variant={current ? 'light' : 'filled'}
            disabled={!client.active}
            onClick={() => switchWorkspace(client.id)}
            rightSection={current ? null : <IconExternalLink size={14} aria-hidden="true" />}
            aria-label={`Open ${client.name}${current ? '' : ' in a new tab'}`}
          >
            Open
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function OrganizationSection({
  entry,
  currentClientId,
}: {
  entry: MyOrganizationEntry;
  currentClientId: string | undefined;
}) {
  const { organization } = entry;
  const role = (organization.role?.key ?? null) as OrgRole | null;
  const titleId = `org-${organization.id}`;
  return (
    <Card padding="lg" component="section" aria-labelledby={titleId}>
      <Group justify="space-between" mb="md" wrap="wrap" gap="xs">
        <Group gap="xs">
          <Title order={2} fz="h4" id={titleId}>
            {organization.name}
          </Title>
          {role && (
            <Badge variant="light" size="sm">
              {ROLE_NAMES[role]}
            </Badge>
          )}
        </Group>
        <Group gap="xs">
          {can({ orgRole: role }, 'organization.clients.create') && (
            <Button
              component={Link}
              to={`/ps/organizations/${encodeURIComponent(organization.id)}/clients/add`}
              size="xs"
              variant="default"
            >
              Add a workspace
            </Button>
          )}
          {showsOrganizationGear({ has_access: organization.has_access, role }) && (
            <Button
              component={Link}
              to={`/ps/organization-settings/${encodeURIComponent(organization.id)}`}
              size="xs"
              variant="subtle"
              leftSection={<IconSettings size={14} aria-hidden="true" />}
              aria-label={`Settings of ${organization.name}`}
            >
              Settings
            </Button>
          )}
        </Group>
      </Group>
      {entry.clients.length === 0 ? (
        <Text size="sm" c="dimmed">
          No workspace yet.
        </Text>
      ) : (
        <SimpleGrid component="ul" cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" p={0} m={0}>
          {entry.clients.map((client) => (
            <WorkspaceCard
              key={client.id}
              client={client}
              current={client.id === currentClientId}
            />
          ))}
        </SimpleGrid>
      )}
    </Card>
  );
}

/**
 * /ps/dashboard and /ps/:client_id/dashboard (ps-dashboard, "Portal Dashboard"): the greeting,
 * the caller's organizations with their workspaces (ordered as spec §4; a workspace opens through
 * the workspace switch), then a profile prompt while the profile lacks something. A user with no
 * organization who may create one is offered "Create your organization" right here.
 */
export function DashboardPage() {
  const currentClientId = useAuthStore((s) => s.current_client?.id);
  const currentOrgId = useAuthStore((s) => s.org.current?.id);
  const storedEmail = useAuthStore((s) => s.user?.email);
  const canCreate = useAuthStore((s) => s.user?.can_create_client ?? false);
  const user = useQuery(currentUserQueryOptions());
  const orgs = useMyOrganizations();
  const firstName = user.data?.first_name.trim();
  const email = user.data?.email ?? storedEmail;
  const missing = user.data ? missingProfileParts(user.data) : [];
  const entries = orgs.data ? orderOrganizations(orgs.data, currentOrgId, currentClientId) : [];

  return (
    <Stack gap="xl" maw={1100}>
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

      {orgs.isError && (
        <RetryAlert onRetry={() => void orgs.refetch()}>
          We could not load your organizations. {loadFailureReason(orgs.error)}
        </RetryAlert>
      )}
      {orgs.isPending && <Skeleton height={160} radius="md" aria-hidden="true" />}
      {orgs.data?.length === 0 && (canCreate ? <CreateOrganizationCard /> : <NoWorkspaceCard />)}
      {entries.map((entry) => (
        <OrganizationSection
          key={entry.organization.id}
          entry={entry}
          currentClientId={currentClientId}
        />
      ))}
      {/* Below the organizations, once they are shown: nothing on the page moves when it appears. */}
      {!orgs.isPending && missing.length > 0 && <ProfilePrompt missing={missing} />}
    </Stack>
  );
}
