import { Badge, Button, Card, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { InvoiceDetail } from '@portolan/contract';
import { IconDownload, IconFileInvoice } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api';
import { formatDate } from '../../../lib/dates';
import { EmptyListCard } from '../../../lib/empty-list-card';
import { ListSkeleton } from '../../../lib/list-skeleton';
import { PagePagination } from '../../../lib/page-pagination';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { toast } from '../../../lib/toasts';
import { downloadInvoicePdf, INVOICE_PAGE_SIZE, invoicesQueryOptions } from '../api/invoices-api';
import { formatMoney } from '../format';
import { scrollRegion } from '../../../lib/scroll-region';

const STATUS = {
  PAID: { label: 'Paid', color: 'teal' },
  FAILED: { label: 'Failed', color: 'red' },
} as const satisfies Record<InvoiceDetail['status'], { label: string; color: string }>;

/** The organization's invoices a page at a time, each with its PDF to download. */
export function InvoiceList({ orgId }: { orgId: string }) {
  const [page, setPage] = useState(1);
  const invoices = useQuery(invoicesQueryOptions(orgId, page));
  const [downloading, setDownloading] = useState<string | null>(null);

  const download = async (invoice: InvoiceDetail) => {
    setDownloading(invoice.id);
    try {
      await downloadInvoicePdf(orgId, invoice);
    } catch (error) {
      toast.error(
        errorMessage(error, `${invoice.number} could not be downloaded. Please try again.`),
      );
    } finally {
      setDownloading(null);
    }
  };

  if (invoices.isError) {
    return <QueryRetryAlert title="Your invoices could not be loaded" query={invoices} />;
  }
  if (!invoices.data) return <ListSkeleton label="Loading the invoices" rows={4} />;
  const { results, count } = invoices.data;
  if (results.length === 0) {
    return (
      <EmptyListCard icon={IconFileInvoice} title="No invoices yet">
        Every payment, for the subscription or to add funds, gets an invoice here.
      </EmptyListCard>
    );
  }

  return (
    <Stack gap="md">
      <Card padding={0} withBorder aria-busy={invoices.isPlaceholderData || undefined}>
        <Table.ScrollContainer minWidth={640} scrollAreaProps={scrollRegion('Invoices')}>
          <Table verticalSpacing="sm" horizontalSpacing="md" striped aria-label="Invoices">
            <Table.Caption>
              {count} {count === 1 ? 'invoice' : 'invoices'}, newest first
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Number</Table.Th>
                <Table.Th>Date</Table.Th>
                <Table.Th>Description</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">Total</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Download</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {results.map((invoice) => (
                <Table.Tr key={invoice.id}>
                  <Table.Td>
                    <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
                      {invoice.number}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDate(invoice.created)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{invoice.description}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={STATUS[invoice.status].color} c="dark.7">
                      {STATUS[invoice.status].label}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                      {formatMoney(invoice.total, invoice.currency)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Button
                      variant="default"
                      size="xs"
                      leftSection={<IconDownload size={14} aria-hidden="true" />}
                      aria-label={`Download PDF of ${invoice.number}`}
                      loading={downloading === invoice.id}
                      onClick={() => void download(invoice)}
                    >
                      Download PDF
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
      <PagePagination
        total={Math.max(1, Math.ceil(count / INVOICE_PAGE_SIZE))}
        page={page}
        onChange={setPage}
      />
    </Stack>
  );
}
