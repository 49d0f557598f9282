import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { AccountSession, SessionDevice } from '@portolan/contract';
import {
  IconDeviceDesktop,
  IconDeviceMobile,
  IconDeviceTablet,
  IconDevices,
  type Icon,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from '../../../lib/api';
import { confirmModal } from '../../../lib/confirm';
import { formatDate } from '../../../lib/dates';
import { ListSkeleton } from '../../../lib/list-skeleton';
import { lastActive } from '../../../lib/member-parts';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { toast } from '../../../lib/toasts';
import {
  sessionsQueryOptions,
  useRevokeOtherSessions,
  useRevokeSession,
} from '../api/sessions-api';
import { IconRow } from './IconRow';
import { PagedList } from './PagedList';

const PAGE_SIZE = 10;

const DEVICE_ICONS: Record<SessionDevice, Icon> = {
  desktop: IconDeviceDesktop,
  mobile: IconDeviceMobile,
  tablet: IconDeviceTablet,
  unknown: IconDevices,
};

/** "Chrome 156 on macOS Catalina": what a person recognises a session by. */
export function sessionName(session: Pick<AccountSession, 'browser' | 'os'>): string {
  return `${session.browser ?? 'Unknown browser'} on ${session.os ?? 'an unknown system'}`;
}

function SessionRow({
  session,
  onSignOut,
  signingOut,
}: {
  session: AccountSession;
  onSignOut: () => void;
  signingOut: boolean;
}) {
  const name = sessionName(session);
  return (
    <IconRow
      icon={DEVICE_ICONS[session.device]}
      name={name}
      badges={session.current && <Badge variant="light">This device</Badge>}
      details={
        <>
          {session.ip ?? 'Unknown address'} · signed in {formatDate(session.created_at)} · last
          active: {lastActive(session.last_active_at).toLowerCase()}
        </>
      }
      action={
        !session.current && (
          <Button
            variant="default"
            size="xs"
            loading={signingOut}
            onClick={onSignOut}
            aria-label={`Sign out ${name}`}
          >
            Sign out
          </Button>
        )
      }
    />
  );
}

/**
 * My Settings, "Where you're signed in" (issue 20 item 6): the account's live sessions, each with
 * a Sign out, and Sign out everywhere else.
 */
export function SessionsCard() {
  const [page, setPage] = useState(1);
  const sessions = useQuery(sessionsQueryOptions(page, PAGE_SIZE));
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const count = sessions.data?.count ?? 0;
  // Signing out the last session of a page shows the page before (this one is always on page 1).
  const lastOnPage = () => sessions.data?.results.length === 1 && page > 1;

  const signOut = (session: AccountSession) =>
    revoke.mutate(session.id, {
      onSuccess: () => {
        if (lastOnPage()) setPage(page - 1);
        toast.success(`${sessionName(session)} is signed out.`);
      },
      onError: (error) => {
        if (isApiError(error) && error.status === 404) {
          toast.info('That session had already ended.');
        }
      },
    });

  const signOutOthers = async () => {
    const confirmed = await confirmModal({
      title: 'Sign out everywhere else?',
      content:
        'Every other browser and device signed in to your account is signed out at once. This one stays signed in.',
      confirmLabel: 'Sign out other sessions',
      danger: true,
    });
    if (confirmed)
      revokeOthers.mutate(undefined, { onSuccess: (res) => toast.success(res.detail) });
  };

  return (
    <Card padding="xl" component="section" aria-labelledby="profile-sessions-title">
      <Group justify="space-between" align="flex-start" gap="md" mb="md">
        <Stack gap={4} maw={560}>
          <Title order={2} fz="h3" id="profile-sessions-title">
            Where you’re signed in
          </Title>
          <Text size="sm" c="dimmed">
            Each browser you signed in with, until it signs out, stays unused for 12 hours or
            reaches 30 days. Sign out any you do not recognise, then change your password.
          </Text>
        </Stack>
        <Button
          variant="light"
          color="red"
          onClick={() => void signOutOthers()}
          loading={revokeOthers.isPending}
          disabled={count <= 1}
        >
          Sign out other sessions
        </Button>
      </Group>

      {sessions.isPending && <ListSkeleton label="Loading your sessions" rows={2} height={52} />}
      {sessions.isError && (
        <QueryRetryAlert title="Your sessions could not be loaded" query={sessions} />
      )}
      {sessions.data && (
        <PagedList
          label="Your sessions"
          pages={Math.ceil(count / PAGE_SIZE)}
          page={page}
          onPage={setPage}
        >
          {sessions.data.results.map((session) => (
            <SessionRow
              key={session.id}
              session={session}
              onSignOut={() => signOut(session)}
              signingOut={revoke.isPending && revoke.variables === session.id}
            />
          ))}
        </PagedList>
      )}
    </Card>
  );
}
