import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import {
  managesAllShareLinks,
  SHARE_LINK_PAGE_SIZE,
  SHARE_LINK_STATUS_LABELS,
  type ActorRoles,
  type ShareLink,
  type ShareLinkStatus,
} from '@portolan/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../../lib/api-error';
import { formatDate } from '../../../lib/dates';
import { ListSkeleton } from '../../../lib/list-skeleton';
import { PagePagination } from '../../../lib/page-pagination';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { toast } from '../../../lib/toasts';
import { shareLinksQueryOptions, useRevokeShareLink } from '../api/share-links-api';

const STATUS_COLORS: Record<ShareLinkStatus, string> = {
  ACTIVE: 'teal',
  EXPIRED: 'gray',
  REVOKED: 'red',
};

const nameOf = (link: ShareLink) => {
  const by = link.created_by;
  if (!by) return 'a former member';
  return `${by.first_name} ${by.last_name}`.trim() || by.email;
};

function details(link: ShareLink): string {
  const parts = [`Shared by ${nameOf(link)} on ${formatDate(link.created_at)}`];
  if (link.revoked_at) parts.push(`revoked on ${formatDate(link.revoked_at)}`);
  else if (link.expires_at)
    parts.push(
      `${link.status === 'EXPIRED' ? 'expired' : 'expires'} on ${formatDate(link.expires_at)}`,
    );
  else parts.push('never expires');
  parts.push(
    link.last_opened_at ? `last opened on ${formatDate(link.last_opened_at)}` : 'not opened yet',
  );
  return parts.join(' · ');
}

/**
 * The workspace's share links (every one for its OWNERs and ADMINs, one's own for others),
 * newest first, with their status and Revoke, confirmed in place.
 */
export function ShareLinkList({ clientId, actor }: { clientId: string; actor: ActorRoles }) {
  const [page, setPage] = useState(1);
  const query = useQuery(shareLinksQueryOptions(clientId, page));
  const all = managesAllShareLinks(actor);
  const title = all ? 'Links of this workspace' : 'Your links';

  let body;
  if (query.isPending) body = <ListSkeleton label="Loading the share links" rows={2} />;
  else if (query.isError)
    body = <QueryRetryAlert title="The share links could not be loaded" query={query} />;
  else if (query.data.results.length === 0)
    body = (
      <Text size="sm" c="dimmed">
        {all
          ? 'Nobody has shared a page of this workspace yet.'
          : 'You have not shared a link yet.'}
      </Text>
    );
  else
    body = (
      <>
        <Stack
          component="ul"
          gap="xs"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-labelledby="share-links-title"
        >
          {query.data.results.map((link) => (
            <ShareLinkRow key={link.id} link={link} clientId={clientId} />
          ))}
        </Stack>
        <PagePagination
          total={Math.ceil(query.data.count / SHARE_LINK_PAGE_SIZE)}
          page={page}
          onChange={setPage}
        />
      </>
    );

  return (
    <Stack gap="sm" component="section" aria-labelledby="share-links-title">
      <Title order={3} fz="h5" id="share-links-title">
        {title}
      </Title>
      {body}
    </Stack>
  );
}

function ShareLinkRow({ link, clientId }: { link: ShareLink; clientId: string }) {
  const revoke = useRevokeShareLink(clientId);
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const revokeRef = useRef<HTMLButtonElement>(null);
  const label = `${link.module_name} link shared by ${nameOf(link)} on ${formatDate(link.created_at)}`;

  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  const cancel = () => {
    setConfirming(false);
    // Back to the button that asked.
    requestAnimationFrame(() => revokeRef.current?.focus());
  };

  const doRevoke = async () => {
    try {
      await revoke.mutateAsync(link.id);
      toast.success('The link is revoked: it no longer opens.');
    } catch (error) {
      toast.error(errorMessage(error, 'The link could not be revoked. Please try again.'));
    } finally {
      setConfirming(false);
    }
  };

  return (
    <Paper component="li" withBorder radius="md" p="sm" aria-label={label}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600} size="sm">
              {link.module_name}
            </Text>
            <Badge size="sm" variant="light" color={STATUS_COLORS[link.status]} c="dark.7">
              {SHARE_LINK_STATUS_LABELS[link.status]}
            </Badge>
          </Group>
          <Text size="xs" c="dimmed">
            {details(link)}
          </Text>
        </Stack>
        {link.status !== 'REVOKED' && !confirming && (
          <Button
            ref={revokeRef}
            size="xs"
            variant="default"
            onClick={() => setConfirming(true)}
            aria-label={`Revoke the ${label}`}
          >
            Revoke
          </Button>
        )}
      </Group>
      {confirming && (
        <Group justify="flex-end" gap="xs" mt="xs" role="group" aria-label="Confirm the revocation">
          <Text size="sm" mr="auto">
            Revoke this link? It stops opening at once, for everyone.
          </Text>
          <Button size="xs" variant="default" onClick={cancel}>
            Keep it
          </Button>
          <Button
            ref={confirmRef}
            size="xs"
            color="red.9"
            loading={revoke.isPending}
            onClick={() => void doRevoke()}
          >
            Yes, revoke
          </Button>
        </Group>
      )}
    </Paper>
  );
}
