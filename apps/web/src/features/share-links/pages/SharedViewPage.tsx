import { Anchor, Avatar, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import type { SharedView } from '@portolan/contract';
import { IconEye, IconLinkOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../../lib/api-error';
import { AuthHeading } from '../../../lib/auth-heading';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { sharedViewQueryOptions } from '../api/shared-view-api';

/**
 * MM/DD/YYYY (spec §9), in the visitor's time zone. Not lib/dates: its chunk is the member
 * pages' one, which this public page has no other use for.
 */
const day = new Intl.DateTimeFormat('en-US', { month: '2-digit', day: '2-digit', year: 'numeric' });
const formatDate = (iso: string) => day.format(new Date(iso));

/**
 * `/share/:token` (and anything after the token): the public read-only view of a module page of a
 * workspace, signed in or not, inside the public layout (brand, no app shell). It shows the
 * module, the workspace and who shared it, nothing else of the workspace; a link that opens
 * nothing says so and offers sign-in.
 */
export function SharedViewPage() {
  const { token = '' } = useParams();
  const query = useQuery(sharedViewQueryOptions(token));

  if (query.isPending) {
    return (
      <AuthHeading title="Shared page">
        <span role="status">Opening the shared page…</span>
      </AuthHeading>
    );
  }
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404) return <LinkGone />;
    return (
      <>
        <AuthHeading title="Shared page" />
        <QueryRetryAlert title="The shared page could not be opened" query={query} />
        <SignInLink />
      </>
    );
  }
  return <View view={query.data} />;
}

function View({ view }: { view: SharedView }) {
  return (
    <Stack gap="lg">
      <Group gap="sm" wrap="nowrap">
        <Avatar
          src={view.workspace.logo}
          alt=""
          radius="md"
          size={48}
          color="ocean"
          variant="light"
        >
          {view.workspace.name.slice(0, 1).toUpperCase()}
        </Avatar>
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            Workspace
          </Text>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {view.workspace.name}
          </Text>
        </Stack>
      </Group>

      <Stack gap={6}>
        <Group gap="xs">
          <Badge
            variant="light"
            color="gray"
            c="dark.7"
            leftSection={<IconEye size={12} aria-hidden="true" />}
          >
            Read-only view
          </Badge>
        </Group>
        <Title order={1} fz={26} lh={1.25}>
          {view.module_name}
        </Title>
        <Text>{view.overview}</Text>
      </Stack>

      <Stack gap={4} component="dl" m={0}>
        <Fact term="Shared by">
          {view.shared_by ? view.shared_by.name : 'A member of the workspace'}, on{' '}
          {formatDate(view.shared_at)}
        </Fact>
        <Fact term="Link expires">
          {view.expires_at ? formatDate(view.expires_at) : 'Never (until it is revoked)'}
        </Fact>
      </Stack>

      <Text size="sm" c="dimmed">
        The {view.module_name} tools themselves are for the members of the workspace.
      </Text>
      <SignInLink />
    </Stack>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap" align="baseline">
      <Text component="dt" size="sm" fw={600} miw="max-content">
        {term}:
      </Text>
      <Text component="dd" size="sm" m={0}>
        {children}
      </Text>
    </Group>
  );
}

/** Every link that opens nothing (unknown, revoked, expired, switched off): one page. */
function LinkGone() {
  return (
    <>
      <AuthHeading title="This link is no longer valid">
        It may have been revoked or have expired. Ask the person who shared it for a new link.
      </AuthHeading>
      <Group gap="xs" mb="lg" c="dimmed">
        <IconLinkOff size={18} aria-hidden="true" />
        <Text size="sm">Nothing is shown through this link.</Text>
      </Group>
      <Button component={Link} to="/login" fullWidth>
        Sign in
      </Button>
    </>
  );
}

function SignInLink() {
  return (
    <Text ta="center" size="sm">
      Working in this workspace?{' '}
      <Anchor component={Link} to="/login" fw={600}>
        Sign in
      </Anchor>
    </Text>
  );
}
