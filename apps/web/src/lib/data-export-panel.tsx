import { Badge, Button, Card, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import {
  DATA_EXPORT_PAGE_SIZE,
  DATA_EXPORT_STATUS_LABELS,
  DATA_EXPORT_TTL_HOURS,
  type DataExport,
} from '@portolan/contract';
import { IconArchive, IconDownload, IconFileZip } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from './api';
import {
  dataExportsQueryOptions,
  downloadDataExport,
  formatBytes,
  hasExportInProgress,
  useRequestDataExport,
  type DataExportScope,
} from './data-exports';
import { formatDateTime } from './dates';
import { EmptyListCard } from './empty-list-card';
import { ListSkeleton } from './list-skeleton';
import { PagePagination } from './page-pagination';
import { QueryRetryAlert } from './retry-alert';
import { toast, toastFailure } from './toasts';

const STATUS_COLOR = {
  PENDING: 'gray',
  RUNNING: 'blue',
  READY: 'teal',
  FAILED: 'red',
} as const satisfies Record<DataExport['status'], string>;

function StatusBadge({ item }: { item: DataExport }) {
  const expired = item.is_expired;
  return (
    <Badge variant="light" color={expired ? 'gray' : STATUS_COLOR[item.status]} c="dark.7">
      {expired ? 'Expired' : DATA_EXPORT_STATUS_LABELS[item.status]}
    </Badge>
  );
}

/** What the words of the panel say, per scope. */
const WORDS = {
  user: {
    button: 'Export my data',
    table: 'Your data exports',
    empty: 'Export your data to get one zip archive of everything the portal holds about you.',
  },
  organization: {
    button: 'Export organization data',
    table: 'Organization data exports',
    empty:
      'Export the organization’s data to get one zip archive of its workspaces, members, roles and rules, billing records and activities.',
  },
} as const;

/** One line, read out when it changes: what the newest export is doing. */
function latestNews(item: DataExport | undefined): string {
  if (!item) return '';
  if (item.status === 'PENDING' || item.status === 'RUNNING') {
    return 'Your archive is being prepared. You can leave this page: we e-mail you a link when it is ready.';
  }
  if (item.status === 'READY' && !item.is_expired && item.expires) {
    return `Your latest archive is ready. Download it until ${formatDateTime(item.expires)}.`;
  }
  return '';
}

/**
 * A scope's data exports: "Export …" (one at a time; the server says 409 otherwise), then the
 * list with status, size and expiry, polled while one is being built, and Download for a ready
 * one. The archive is also e-mailed as a link valid DATA_EXPORT_TTL_HOURS hours.
 */
export function DataExportPanel({ scope }: { scope: DataExportScope }) {
  const words = WORDS[scope.kind];
  const [page, setPage] = useState(1);
  const exports = useQuery(dataExportsQueryOptions(scope, page));
  const request = useRequestDataExport(scope);
  const [downloading, setDownloading] = useState<string | null>(null);
  const inProgress = hasExportInProgress(exports.data);

  const ask = async () => {
    try {
      await request.mutateAsync();
      setPage(1);
      toast.success('Your export has been requested. We e-mail you when it is ready.');
    } catch (error) {
      toastFailure(
        error,
        errorMessage(error, 'The export could not be requested. Please try again.'),
      );
    }
  };

  const download = async (item: DataExport) => {
    setDownloading(item.id);
    try {
      await downloadDataExport(item);
    } catch (error) {
      toast.error(errorMessage(error, 'The export could not be downloaded. Please try again.'));
    } finally {
      setDownloading(null);
    }
  };

  const results = exports.data?.results ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Text size="sm" c="dimmed" maw={520}>
          One zip archive with a README that describes its files. It is built in the background; the
          download works for {DATA_EXPORT_TTL_HOURS} hours.
        </Text>
        <Button
          leftSection={<IconFileZip size={16} aria-hidden="true" />}
          onClick={() => void ask()}
          loading={request.isPending}
          disabled={inProgress}
        >
          {words.button}
        </Button>
      </Group>

      <Text size="sm" role="status" aria-live="polite">
        {page === 1 ? latestNews(results[0]) : ''}
      </Text>

      {exports.isError && !exports.data ? (
        <QueryRetryAlert title="The exports could not be loaded" query={exports} />
      ) : !exports.data ? (
        <ListSkeleton label="Loading the exports" rows={2} />
      ) : results.length === 0 ? (
        <EmptyListCard icon={IconArchive} title="No exports yet">
          {words.empty}
        </EmptyListCard>
      ) : (
        <>
          <Card padding={0} withBorder aria-busy={exports.isPlaceholderData || undefined}>
            <Table.ScrollContainer minWidth={560}>
              <Table verticalSpacing="sm" horizontalSpacing="md" aria-label={words.table}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Requested</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Size</Table.Th>
                    <Table.Th>Available until</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Download</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {results.map((item) => (
                    <Table.Tr key={item.id}>
                      <Table.Td>
                        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                          {formatDateTime(item.created)}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Stack gap={4} align="flex-start">
                          <StatusBadge item={item} />
                          {item.status === 'FAILED' && item.error && (
                            <Text size="xs" c="dimmed">
                              {item.error}
                            </Text>
                          )}
                        </Stack>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          {item.size_bytes !== null ? formatBytes(item.size_bytes) : '—'}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                          {item.expires ? formatDateTime(item.expires) : '—'}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        {item.download_url && (
                          <Button
                            variant="default"
                            size="xs"
                            leftSection={<IconDownload size={14} aria-hidden="true" />}
                            aria-label={`Download the export of ${formatDateTime(item.created)}`}
                            loading={downloading === item.id}
                            onClick={() => void download(item)}
                          >
                            Download
                          </Button>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
          <PagePagination
            total={Math.max(1, Math.ceil(exports.data.count / DATA_EXPORT_PAGE_SIZE))}
            page={page}
            onChange={setPage}
          />
        </>
      )}
    </Stack>
  );
}
