import {
  ActionIcon,
  Box,
  Button,
  Divider,
  Group,
  Indicator,
  Loader,
  Popover,
  ScrollArea,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { Messages } from '@portolan/contract';
import { IconBell, IconMailOpened } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAuthStore } from '../../../lib/auth-store';
import { useAfterLoad } from '../../../lib/use-after-load';
import {
  notificationsQueryOptions,
  useAcceptInvitation,
  useCountFromPush,
  useDeclineInvitation,
  useMarkSeen,
  useNewCount,
  type BellNotification,
} from '../api/notifications-api';
import { useNotificationPush } from '../api/stream';
import { billingAction, notificationText, relativeTime } from './notification-text';

/**
 * The bell of the header (spec §4 "Notifications"): the unseen count, kept current by polling
 * every 60000 ms and by the push stream; the list, newest first, 10 at a time with Load more.
 */
export function NotificationBell() {
  const token = useAuthStore((s) => s.userToken);
  const [opened, setOpened] = useState(false);
  // The count and its stream start once the first screen is drawn (it does not need them).
  const afterLoad = useAfterLoad();
  const newCount = useNewCount(Boolean(token) && afterLoad);
  useCountFromPush(useNotificationPush(afterLoad ? token : null));
  const unseen = newCount.data?.count ?? 0;

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      width={380}
      shadow="md"
      withinPortal
      trapFocus
      returnFocus
    >
      {/* The Target's child is the button itself: it receives aria-expanded and aria-controls. */}
      <Indicator
        label={unseen > 99 ? '99+' : unseen}
        disabled={unseen === 0}
        size={18}
        offset={6}
        color="red"
      >
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={unseen > 0 ? `Notifications, ${unseen} unseen` : 'Notifications'}
            onClick={() => setOpened((o) => !o)}
          >
            <IconBell size={22} aria-hidden="true" />
          </ActionIcon>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown p={0} aria-label="Notifications">
        {opened && <NotificationList onNavigate={() => setOpened(false)} />}
      </Popover.Dropdown>
    </Popover>
  );
}

/** `onNavigate`: a notification's link was followed (the bell closes). */
function NotificationList({ onNavigate }: { onNavigate: () => void }) {
  const list = useInfiniteQuery(notificationsQueryOptions());
  const items = list.data?.pages.flatMap((p) => p.results) ?? [];
  const more = list.hasNextPage;

  return (
    <Stack gap={0}>
      <Group justify="space-between" px="md" py="sm">
        <Title order={2} fz="md">
          Notifications
        </Title>
        {list.isFetching && <Loader size="xs" aria-label="Loading notifications" />}
      </Group>
      <Divider />
      {list.isPending && (
        <Group justify="center" p="lg">
          <Loader size="sm" aria-label="Loading notifications" />
        </Group>
      )}
      {list.isError && !list.data && (
        <Stack p="md" gap="xs" align="flex-start">
          <Text size="sm">{Messages.notificationLoadFailed}</Text>
          <Button size="xs" variant="default" onClick={() => void list.refetch()}>
            Try again
          </Button>
        </Stack>
      )}
      {list.data && items.length === 0 && (
        <Stack align="center" gap={6} p="lg">
          <IconMailOpened size={28} aria-hidden="true" color="var(--mantine-color-dimmed)" />
          <Text size="sm" c="dimmed" ta="center">
            {Messages.notificationsEmpty}
          </Text>
        </Stack>
      )}
      {items.length > 0 && (
        <ScrollArea.Autosize mah={420} type="auto">
          <Box component="ul" aria-label="Notifications" m={0} p={0} style={{ listStyle: 'none' }}>
            {items.map((n) => (
              <NotificationItem key={n.id} n={n} onNavigate={onNavigate} />
            ))}
          </Box>
          {more && (
            <Group justify="center" p="sm">
              <Button
                size="xs"
                variant="light"
                onClick={() => void list.fetchNextPage()}
                loading={list.isFetchingNextPage}
              >
                Load more
              </Button>
            </Group>
          )}
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}

function NotificationItem({ n, onNavigate }: { n: BellNotification; onNavigate: () => void }) {
  const accept = useAcceptInvitation();
  const decline = useDeclineInvitation();
  const read = useMarkSeen();
  const busy = accept.isPending || decline.isPending || read.isPending;
  const openInvitation = n.type === 'INVITATION' && n.status === 'OPEN' && !n.is_seen;
  const text = notificationText(n);
  const action = billingAction(n);

  return (
    <Box
      component="li"
      px="md"
      py="sm"
      bg={n.is_seen ? undefined : 'var(--mantine-color-ocean-light)'}
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
    >
      <Stack gap={6}>
        <Text size="sm" fw={n.is_seen ? 400 : 600}>
          {!n.is_seen && <VisuallyHidden component="span">Unseen: </VisuallyHidden>}
          {text}
        </Text>
        <Text size="xs" c="dimmed">
          {relativeTime(n.created)}
        </Text>
        {openInvitation && (
          <Group gap="xs">
            <Button
              size="xs"
              onClick={() => accept.mutate(n)}
              loading={accept.isPending}
              disabled={busy}
            >
              Accept
            </Button>
            <Button
              size="xs"
              variant="default"
              onClick={() => decline.mutate(n)}
              loading={decline.isPending}
              disabled={busy}
            >
              Decline
            </Button>
          </Group>
        )}
        {(action || (!openInvitation && !n.is_seen)) && (
          <Group gap="xs">
            {action && (
              <Button
                size="xs"
                variant="default"
                component={Link}
                to={action.path}
                onClick={() => {
                  // Following it is reading it.
                  if (!n.is_seen) read.mutate(n);
                  onNavigate();
                }}
              >
                {action.label}
              </Button>
            )}
            {!openInvitation && !n.is_seen && (
              <Button
                size="xs"
                variant="light"
                onClick={() => read.mutate(n)}
                loading={read.isPending}
                aria-label={`Mark as read: ${text}`}
              >
                Read
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Box>
  );
}
