import { Button, Card, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import type { CreditNote } from '@portolan/contract';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api';
import { formatDate } from '../../../lib/dates';
import { ListSkeleton } from '../../../lib/list-skeleton';
import { PagePagination } from '../../../lib/page-pagination';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { toast } from '../../../lib/toasts';
import {
  CREDIT_NOTE_PAGE_SIZE,
  creditNotesQueryOptions,
  downloadCreditNotePdf,
} from '../api/credit-notes-api';
import { formatMoney } from '../format';
import { PhoneDetail } from '../../../lib/phone-detail';

/**
 * The organization's credit notes (a refund of an invoice issues one), below the invoices: the
 * number, the invoice it credits, the amount, the date and its PDF. On a phone the details stack
 * under the number.
 */
export function CreditNoteList({ orgId }: { orgId: string }) {
  const [page, setPage] = useState(1);
  const notes = useQuery(creditNotesQueryOptions(orgId, page));
  const [downloading, setDownloading] = useState<string | null>(null);

  const download = async (note: CreditNote) => {
    setDownloading(note.id);
    try {
      await downloadCreditNotePdf(orgId, note);
    } catch (error) {
      toast.error(errorMessage(error, `${note.number} could not be downloaded. Please try again.`));
    } finally {
      setDownloading(null);
    }
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby="credit-notes-title">
      <Title order={3} fz="h4" id="credit-notes-title">
        Credit notes
      </Title>
      {notes.isError ? (
        <QueryRetryAlert title="Your credit notes could not be loaded" query={notes} />
      ) : !notes.data ? (
        <ListSkeleton label="Loading the credit notes" rows={2} />
      ) : notes.data.results.length === 0 ? (
        <Text size="sm" c="dimmed">
          No credit notes. When a payment is refunded, its credit note is listed here.
        </Text>
      ) : (
        <>
          <Card padding={0} withBorder aria-busy={notes.isPlaceholderData || undefined}>
            <Table.ScrollContainer minWidth={0}>
              <Table
                verticalSpacing="sm"
                horizontalSpacing="md"
                striped
                aria-label="Credit notes"
                styles={{ td: { verticalAlign: 'top' } }}
              >
                <Table.Caption>
                  {notes.data.count} {notes.data.count === 1 ? 'credit note' : 'credit notes'},
                  newest first
                </Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Number</Table.Th>
                    <Table.Th visibleFrom="sm">Invoice</Table.Th>
                    <Table.Th visibleFrom="sm">Date</Table.Th>
                    <Table.Th visibleFrom="md">Reason</Table.Th>
                    <Table.Th ta="right" visibleFrom="sm">
                      Amount
                    </Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Download</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {notes.data.results.map((note) => (
                    <CreditNoteRow
                      key={note.id}
                      note={note}
                      downloading={downloading === note.id}
                      onDownload={() => void download(note)}
                    />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
          <PagePagination
            total={Math.max(1, Math.ceil(notes.data.count / CREDIT_NOTE_PAGE_SIZE))}
            page={page}
            onChange={setPage}
          />
        </>
      )}
    </Stack>
  );
}

function CreditNoteRow({
  note,
  downloading,
  onDownload,
}: {
  note: CreditNote;
  downloading: boolean;
  onDownload: () => void;
}) {
  const amount = formatMoney(note.amount, note.currency);
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
          {note.number}
        </Text>
        <Stack gap={2} mt={4} hiddenFrom="sm">
          <PhoneDetail termWidth={84} term="Invoice">
            <Text size="sm">{note.invoice_number}</Text>
          </PhoneDetail>
          <PhoneDetail termWidth={84} term="Date">
            <Text size="sm">{formatDate(note.created)}</Text>
          </PhoneDetail>
          <PhoneDetail termWidth={84} term="Amount">
            <Text size="sm">{amount}</Text>
          </PhoneDetail>
        </Stack>
        <Text size="xs" c="dimmed" hiddenFrom="md" mt={4} style={{ overflowWrap: 'anywhere' }}>
          {note.reason}
        </Text>
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {note.invoice_number}
        </Text>
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Text size="sm">{formatDate(note.created)}</Text>
      </Table.Td>
      <Table.Td visibleFrom="md">
        <Text size="sm">{note.reason}</Text>
      </Table.Td>
      <Table.Td ta="right" visibleFrom="sm">
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {amount}
        </Text>
      </Table.Td>
      <Table.Td ta="right">
        <Button
          variant="default"
          size="xs"
          leftSection={<IconDownload size={14} aria-hidden="true" />}
          aria-label={`Download PDF of ${note.number}`}
          loading={downloading}
          onClick={onDownload}
        >
          PDF
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}
