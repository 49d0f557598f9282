import {
  Button,
  Card,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { RELEASE_NOTES_PAGE_SIZE, releaseDateText, type ReleaseNote } from '@portolan/contract';
import { IconPlus, IconSpeakerphone } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { confirmModal } from '../../../lib/confirm';
import { EmptyListCard } from '../../../lib/empty-list-card';
import { PagePagination } from '../../../lib/page-pagination';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { toast } from '../../../lib/toasts';
import { releaseNotesPageQueryOptions, useDeleteReleaseNote } from '../api/notes-api';
import { PlatformAdminOnly } from '../components/PlatformAdminOnly';

const enc = encodeURIComponent;

function ReleaseNotesTable() {
  const [page, setPage] = useState(1);
  const list = useQuery(releaseNotesPageQueryOptions(page));
  const remove = useDeleteReleaseNote();

  const onDelete = async (note: ReleaseNote) => {
    const ok = await confirmModal({
      title: `Delete release note ${note.version}?`,
      content: 'Readers will no longer see it in the release notes panel.',
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!ok) return;
    remove.mutate(note.id, {
      onSuccess: () => {
        toast.success(`Release note ${note.version} was deleted.`);
        // The last note of a later page gone: show the page before it.
        if (page > 1 && list.data?.results.length === 1) setPage(page - 1);
      },
      onError: (error) => toast.error(errorMessage(error)),
    });
  };

  if (list.isError)
    return <QueryRetryAlert title="The release notes could not be loaded" query={list} />;
  if (!list.data)
    return (
      <Stack gap="sm" aria-busy="true" aria-label="Loading release notes">
        <Skeleton height={44} radius="md" />
        <Skeleton height={44} radius="md" />
        <Skeleton height={44} radius="md" />
      </Stack>
    );
  if (list.data.count === 0)
    return (
      <EmptyListCard icon={IconSpeakerphone} title="No release notes yet">
        Publish the first one with New release note: readers see it in the header’s panel.
      </EmptyListCard>
    );

  return (
    <Stack gap="md">
      <Card withBorder padding={0}>
        <Table.ScrollContainer minWidth={520}>
          <Table verticalSpacing="sm" horizontalSpacing="md" aria-label="Release notes">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Version</Table.Th>
                <Table.Th>Release date</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.results.map((note) => (
                <Table.Tr key={note.id}>
                  <Table.Td fw={600}>{note.version}</Table.Td>
                  <Table.Td>
                    <time dateTime={note.release_date}>{releaseDateText(note.release_date)}</time>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button
                        component={Link}
                        to={`/ps/release-notes/${enc(note.id)}`}
                        variant="default"
                        size="xs"
                        aria-label={`Edit ${note.version}`}
                      >
                        Edit
                      </Button>
                      <Button
                        variant="subtle"
                        color="red.9"
                        c="red.9"
                        size="xs"
                        aria-label={`Delete ${note.version}`}
                        loading={remove.isPending && remove.variables === note.id}
                        onClick={() => void onDelete(note)}
                      >
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
      <PagePagination
        total={Math.ceil(list.data.count / RELEASE_NOTES_PAGE_SIZE)}
        page={page}
        onChange={setPage}
      />
    </Stack>
  );
}

/** ps/release-notes: the platform administrators' list of release notes, to add, edit, delete. */
export function ReleaseNotesAdminPage() {
  return (
    <Stack gap="xl" maw={960}>
      <Stack gap={4}>
        <Title order={1}>Release notes</Title>
        <Text c="dimmed">
          What changed in each version, as readers see it in the header’s panel.
        </Text>
      </Stack>
      <PlatformAdminOnly>
        <Stack gap="md">
          <Group justify="flex-end">
            <Button
              component={Link}
              to="/ps/release-notes/new"
              leftSection={<IconPlus size={16} aria-hidden="true" />}
            >
              New release note
            </Button>
          </Group>
          <ReleaseNotesTable />
        </Stack>
      </PlatformAdminOnly>
    </Stack>
  );
}
