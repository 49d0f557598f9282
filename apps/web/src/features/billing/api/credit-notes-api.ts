import type { CreditNote, Paginated } from '@portolan/contract';
import { PAGE_SIZE } from '@portolan/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { openDownload, saveBlob } from '../../../lib/download';

const enc = encodeURIComponent;

export const CREDIT_NOTE_PAGE_SIZE = PAGE_SIZE.invoices;

/** GET /v1/organizations/{orgId}/credit-notes/?page&limit: what refunds gave back, newest first. */
export function creditNotesQueryOptions(orgId: string, page: number) {
  return queryOptions({
    queryKey: ['billing', 'credit-notes', orgId, page] as const,
    queryFn: ({ signal }) =>
      api.get<Paginated<CreditNote>>(`/v1/organizations/${enc(orgId)}/credit-notes/`, {
        signal,
        query: { page, limit: CREDIT_NOTE_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });
}

/** Downloads a credit note's PDF as credit-note-CN-000001.pdf (with the bearer token). */
export async function downloadCreditNotePdf(orgId: string, note: CreditNote): Promise<void> {
  const response = await openDownload(
    `/v1/organizations/${enc(orgId)}/credit-notes/${enc(note.id)}/pdf/`,
    {
      accept: 'application/pdf, application/json',
      loadingMessage: 'Downloading the credit note…',
      failureMessage: 'The credit note could not be downloaded.',
    },
  );
  saveBlob(await response.blob(), `credit-note-${note.number}.pdf`);
}
