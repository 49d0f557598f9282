import { Anchor, Stack } from '@mantine/core';
import { IconFilterOff, IconHistory } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from '../../../lib/api';
import { usePublicConfig } from '../../../lib/config';
import { EmptyListCard } from '../../../lib/empty-list-card';
import { ListSkeleton } from '../../../lib/list-skeleton';
import { PagePagination } from '../../../lib/page-pagination';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import {
  LEDGER_PAGE_SIZE,
  ledgerQueryOptions,
  NO_LEDGER_FILTERS,
  type LedgerFilters,
} from '../api/balance-api';
import { dateFieldOf } from '../ledger-format';
import { LedgerFilterBar } from './LedgerFilterBar';
import { LedgerTable } from './LedgerTable';

/** The server's refusal of a date, by field: shown at the input rather than as a failed load. */
function dateErrorsOf(error: unknown): { from_date?: string; to_date?: string } | null {
  if (!isApiError(error) || error.status !== 400) return null;
  const errors: { from_date?: string; to_date?: string } = {};
  for (const { field, message } of error.fieldErrors) {
    const name = dateFieldOf(field);
    if (name) errors[name] ??= message;
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

/**
 * The balance history: filters (days and type), the movements a page at a time, and what to do
 * when there are none. The filters are the page's own state like the other lists; another filter
 * starts again at page 1.
 */
export function LedgerHistory({ orgId }: { orgId: string }) {
  const [filters, setFilters] = useState<LedgerFilters>(NO_LEDGER_FILTERS);
  const [page, setPage] = useState(1);
  const ledger = useQuery(ledgerQueryOptions(orgId, filters, page));
  const brand = usePublicConfig().data?.brand ?? 'Portolan';

  const filtered = filters.from !== '' || filters.to !== '' || filters.type !== null;
  const changeFilters = (next: LedgerFilters) => {
    setFilters(next);
    setPage(1);
  };
  const dateErrors = ledger.isError ? dateErrorsOf(ledger.error) : null;
  const data = ledger.isError ? undefined : ledger.data;
  // An empty list of the previous filters says nothing about the new ones: wait for their answer.
  const empty = data?.results.length === 0 && !ledger.isPlaceholderData;
  const pages = data ? Math.max(1, Math.ceil(data.count / LEDGER_PAGE_SIZE)) : 1;

  return (
    <Stack gap="md">
      <LedgerFilterBar filters={filters} onChange={changeFilters} errors={dateErrors ?? {}} />

      {ledger.isError && !dateErrors && (
        <QueryRetryAlert title="The balance history could not be loaded" query={ledger} />
      )}
      {ledger.isPending && <ListSkeleton label="Loading the balance history" rows={4} />}

      {empty && !filtered && (
        <EmptyListCard icon={IconHistory} title="No balance movements yet">
          Top-ups, charges and refunds show up here as they happen.
        </EmptyListCard>
      )}
      {empty && filtered && (
        <EmptyListCard icon={IconFilterOff} title="Nothing matches these filters">
          Try other dates or another type, or{' '}
          <Anchor
            component="button"
            type="button"
            inherit
            fw={600}
            onClick={() => changeFilters(NO_LEDGER_FILTERS)}
          >
            clear the filters
          </Anchor>
          .
        </EmptyListCard>
      )}

      {data && data.results.length > 0 && (
        <>
          <LedgerTable
            entries={data.results}
            count={data.count}
            brand={brand}
            busy={ledger.isPlaceholderData}
          />
          <PagePagination total={pages} page={page} onChange={setPage} />
        </>
      )}
    </Stack>
  );
}
