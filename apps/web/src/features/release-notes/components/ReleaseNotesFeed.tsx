import { Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { releaseDateText, type ReleaseNote } from '@portolan/contract';
import { IconSettings } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { releaseNotesFeedQueryOptions } from '../api/notes-api';
import { releaseNoteStatusQueryOptions, useMarkLatestViewed } from '../api/status-api';
import { ReleaseNoteBody } from './ReleaseNoteBody';

/** One note of the panel: its version, its date (MM/DD/YYYY) and what changed. */
function ReleaseNoteItem({ note }: { note: ReleaseNote }) {
  const headingId = `release-note-${note.id}`;
  return (
    <Card component="article" withBorder padding="md" aria-labelledby={headingId}>
      <Stack gap={6}>
        <Group justify="space-between" align="baseline" gap="xs">
          <Title order={3} fz="md" id={headingId}>
            {note.version}
          </Title>
          <Text size="sm" c="dimmed">
            Released <time dateTime={note.release_date}>{releaseDateText(note.release_date)}</time>
          </Text>
        </Group>
        <ReleaseNoteBody html={note.release_note} />
      </Stack>
    </Card>
  );
}

/**
 * The panel's content (mounted while it is open): the notes, newest first, 10 at a time with
 * Load more. Once they are shown, the newest is marked viewed, so the toggle's dot goes.
 */
export function ReleaseNotesFeed({ onNavigate }: { onNavigate: () => void }) {
  const feed = useInfiniteQuery(releaseNotesFeedQueryOptions());
  const status = useQuery(releaseNoteStatusQueryOptions());
  const { mutate: markViewed } = useMarkLatestViewed();
  const marked = useRef(false);
  const notes = feed.data?.pages.flatMap((p) => p.results) ?? [];
  const newestId = notes[0]?.id;
  const hasUnviewed = status.data?.has_unviewed;
  const latestId = status.data?.latest_id;

  useEffect(() => {
    if (marked.current || !newestId) return;
    // Also when the dot's status is older than the list (a note published since).
    if (hasUnviewed === false && latestId === newestId) return;
    marked.current = true;
    markViewed();
  }, [newestId, hasUnviewed, latestId, markViewed]);

  return (
    <Stack gap="md">
      {status.data?.is_platform_admin && (
        <Group justify="flex-end">
          <Button
            component={Link}
            to="/ps/release-notes"
            variant="light"
            size="xs"
            leftSection={<IconSettings size={16} aria-hidden="true" />}
            onClick={onNavigate}
          >
            Manage release notes
          </Button>
        </Group>
      )}
      {feed.isPending && (
        <Group justify="center" p="lg">
          <Loader size="sm" aria-label="Loading release notes" />
        </Group>
      )}
      {feed.isError && !feed.data && (
        <QueryRetryAlert title="The release notes could not be loaded" query={feed} />
      )}
      {feed.data && notes.length === 0 && (
        <Text c="dimmed" ta="center" p="lg">
          No release notes yet.
        </Text>
      )}
      {notes.length > 0 && (
        <Stack gap="sm">
          {notes.map((note) => (
            <ReleaseNoteItem key={note.id} note={note} />
          ))}
          {feed.hasNextPage && (
            <Group justify="center">
              <Button
                variant="light"
                size="xs"
                loading={feed.isFetchingNextPage}
                onClick={() => void feed.fetchNextPage()}
              >
                Load more
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </Stack>
  );
}
