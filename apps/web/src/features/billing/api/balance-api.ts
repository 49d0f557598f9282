import type {
  Balance,
  BalanceService,
  LedgerEntry,
  LedgerEntryType,
  Paginated,
} from '@portolan/contract';
import { PAGE_SIZE } from '@portolan/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { BILLING_APP } from './subscriptions-api';

const enc = encodeURIComponent;

/** Everything about one organization's balance: a paid top-up rereads it all at once. */
export const walletKey = (orgId: string) => ['billing', 'wallet', orgId] as const;

/** GET /v1/organizations/{orgId}/balance/: what is left to draw on. */
export function balanceQueryOptions(orgId: string) {
  return queryOptions({
    queryKey: [...walletKey(orgId), 'balance'] as const,
    queryFn: ({ signal }) =>
      api.get<Balance>(`/v1/organizations/${enc(orgId)}/balance/`, { signal }),
  });
}

/** The history's filters as sent: days are YYYY-MM-DD (inclusive, UTC); empty means none. */
export interface LedgerFilters {
  from: string;
  to: string;
  type: LedgerEntryType | null;
}

export const NO_LEDGER_FILTERS: LedgerFilters = { from: '', to: '', type: null };

/** Entries per page of the history: the invoices' size, as the server's default. */
export const LEDGER_PAGE_SIZE = PAGE_SIZE.invoices;

/** GET …/balance/history/?page&limit&from_date&to_date&type: the movements, newest first. */
export function ledgerQueryOptions(orgId: string, filters: LedgerFilters, page: number) {
  return queryOptions({
    queryKey: [...walletKey(orgId), 'history', filters, page] as const,
    queryFn: ({ signal }) =>
      api.get<Paginated<LedgerEntry>>(`/v1/organizations/${enc(orgId)}/balance/history/`, {
        signal,
        query: {
          page,
          limit: LEDGER_PAGE_SIZE,
          from_date: filters.from || undefined,
          to_date: filters.to || undefined,
          type: filters.type ?? undefined,
        },
      }),
    // The previous page stays on screen while the next loads, instead of a flash of skeleton.
    placeholderData: keepPreviousData,
  });
}

/** GET /v1/plans/balance/config/{app}/?page=1&limit=99: the services that draw on a balance. */
export function balanceServicesQueryOptions() {
  return queryOptions({
    queryKey: ['billing', 'balance-services', BILLING_APP] as const,
    queryFn: ({ signal }) =>
      api.get<Paginated<BalanceService>>(`/v1/plans/balance/config/${BILLING_APP}/`, {
        signal,
        query: { page: 1, limit: PAGE_SIZE.planConfigs },
      }),
    select: (page) => page.results,
    // Prices change rarely: one load per visit is enough, as for the plans.
    staleTime: 5 * 60_000,
  });
}
