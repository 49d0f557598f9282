import type { InvoiceDetail, Paginated } from '@portolan/contract';
import { PAGE_SIZE } from '@portolan/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { openDownload, saveBlob } from '../../../lib/download';

const enc = encodeURIComponent;

export const invoicesKey = (orgId: string) => ['billing', 'invoices', orgId] as const;
export const INVOICE_PAGE_SIZE = PAGE_SIZE.invoices;

/** GET /v1/organizations/{orgId}/invoices/?page&limit=10: every payment, newest first. */
export function invoicesQueryOptions(orgId: string, page: number) {
  return queryOptions({
    queryKey: [...invoicesKey(orgId), page] as const,
    queryFn: ({ signal }) =>
      api.get<Paginated<InvoiceDetail>>(`/v1/organizations/${enc(orgId)}/invoices/`, {
        signal,
        query: { page, limit: INVOICE_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });
}

/** Downloads an invoice's PDF as invoice-INV-000001.pdf (with the bearer token: lib/download). */
export async function downloadInvoicePdf(orgId: string, invoice: InvoiceDetail): Promise<void> {
  const response = await openDownload(
    `/v1/organizations/${enc(orgId)}/invoices/${enc(invoice.id)}/pdf/`,
    {
      accept: 'application/pdf, application/json',
      loadingMessage: 'Downloading the invoice…',
      failureMessage: 'The invoice could not be downloaded.',
    },
  );
  saveBlob(await response.blob(), `invoice-${invoice.number}.pdf`);
}
