import { Card, Stack, Text, ThemeIcon, Title, Group } from '@mantine/core';
import type { SecurityEvent, SecurityEventKind, SignInMethod } from '@portolan/contract';
import { IconAlertTriangle, IconShieldCheck, IconShieldLock, type Icon } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDateTime } from '../../../lib/dates';
import { EmptyListCard } from '../../../lib/empty-list-card';
import { ListSkeleton } from '../../../lib/list-skeleton';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { securityEventsQueryOptions } from '../api/security-events-api';
import { PagedList } from './PagedList';
import { sessionName } from './SessionsCard';

const PAGE_SIZE = 10;

/** A proof, as the end of a sentence ("… with a recovery code"). */
const PROOF: Record<SignInMethod, string> = {
  password: 'password',
  google: 'Google',
  passkey: 'a passkey',
  totp: 'authenticator app',
  recovery_code: 'a recovery code',
};

const SENTENCES: Record<
  Exclude<SecurityEventKind, 'sign_in' | 'step_up' | 'mfa_failed'>,
  string
> = {
  sign_in_failed: 'Failed sign-in: wrong e-mail or password',
  totp_enabled: 'Turned on two-step verification (authenticator app)',
  totp_disabled: 'Turned off two-step verification',
  recovery_codes_regenerated: 'Made new recovery codes',
  recovery_code_used: 'Used a recovery code',
  password_changed: 'Changed the password',
  password_reset: 'Reset the password by e-mail',
  session_revoked: 'Signed out a session',
  sessions_revoked: 'Signed out every other session',
  email_change_requested: 'Asked to change the e-mail address',
  email_changed: 'Changed the e-mail address',
  passkey_added: 'Added a passkey',
  passkey_removed: 'Removed a passkey',
};

/**
 * What happened, as a sentence: "Signed in with password and authenticator app", "Confirmed it
 * was you with a recovery code", "Wrong code from the authenticator app".
 */
export function securityEventSentence(
  event: Pick<SecurityEvent, 'kind' | 'method' | 'factor'>,
): string {
  const proofs = [event.method, event.factor].filter((m): m is SignInMethod => m !== null);
  const withProofs = proofs.length > 0 ? ` with ${proofs.map((m) => PROOF[m]).join(' and ')}` : '';
  switch (event.kind) {
    case 'sign_in':
      return `Signed in${withProofs}`;
    case 'step_up':
      return `Confirmed it was you${withProofs}`;
    case 'mfa_failed': {
      const wrong = event.factor ?? event.method;
      if (wrong === 'password') return 'Wrong password when confirming it was you';
      if (wrong === 'recovery_code') return 'Wrong recovery code';
      if (wrong === 'passkey') return 'A passkey was refused';
      return 'Wrong code from the authenticator app';
    }
    default:
      return SENTENCES[event.kind];
  }
}

const FAILURES: ReadonlySet<SecurityEventKind> = new Set(['sign_in_failed', 'mfa_failed']);

function EventRow({ event }: { event: SecurityEvent }) {
  const failed = FAILURES.has(event.kind);
  const KindIcon: Icon = failed
    ? IconAlertTriangle
    : event.kind === 'sign_in' || event.kind === 'step_up'
      ? IconShieldCheck
      : IconShieldLock;
  return (
    <Group component="li" gap="sm" py="sm" wrap="nowrap" align="flex-start">
      <ThemeIcon
        variant="light"
        color={failed ? 'red' : undefined}
        size="lg"
        radius="md"
        aria-hidden="true"
      >
        <KindIcon size={20} stroke={1.6} />
      </ThemeIcon>
      <Stack gap={2} miw={0}>
        <Text fw={600}>{securityEventSentence(event)}</Text>
        <Text size="sm" c="dimmed">
          {sessionName(event)} · {event.ip ?? 'Unknown address'} ·{' '}
          <time dateTime={event.created_at}>{formatDateTime(event.created_at)}</time>
        </Text>
      </Stack>
    </Group>
  );
}

/**
 * My Settings, Security: the security log (issue 20 item 9), newest first: sign-ins and failed
 * ones, changes of the password and of two-step verification, sessions signed out.
 */
export function SecurityLogCard() {
  const [page, setPage] = useState(1);
  const events = useQuery(securityEventsQueryOptions(page, PAGE_SIZE));
  const count = events.data?.count ?? 0;

  return (
    <Card padding="xl" component="section" aria-labelledby="profile-security-log-title">
      <Stack gap={4} mb="md">
        <Title order={2} fz="h3" id="profile-security-log-title">
          Security log
        </Title>
        <Text size="sm" c="dimmed">
          What happened to your account’s security, and from where. Something you do not recognise?
          Change your password and sign out the other sessions.
        </Text>
      </Stack>

      {events.isPending && <ListSkeleton label="Loading your security log" rows={3} height={52} />}
      {events.isError && (
        <QueryRetryAlert title="Your security log could not be loaded" query={events} />
      )}
      {events.data && count === 0 && (
        <EmptyListCard icon={IconShieldLock} title="Nothing in your security log yet">
          Sign-ins, password changes and changes to two-step verification appear here.
        </EmptyListCard>
      )}
      {events.data && count > 0 && (
        <PagedList
          label="Security events"
          pages={Math.ceil(count / PAGE_SIZE)}
          page={page}
          onPage={setPage}
        >
          {events.data.results.map((event) => (
            <EventRow key={event.id} event={event} />
          ))}
        </PagedList>
      )}
    </Card>
  );
}
