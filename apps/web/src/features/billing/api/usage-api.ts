import type { BalanceUsage, UsageGroupBy } from '@portolan/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { fileNameFromDisposition, openDownload, saveBlob } from '../../../lib/download';
import { walletKey } from './balance-api';

const enc = encodeURIComponent;

/** The usage report's question: whole days (YYYY-MM-DD, UTC, both included) and the grouping. */
export interface UsageQuery {
  from: string;
  to: string;
  group_by: UsageGroupBy;
}

const path = (orgId: string) => `/v1/organizations/${enc(orgId)}/balance/usage/`;

/** GET …/balance/usage/?from&to&group_by: the totals per group and per day. */
export function usageQueryOptions(orgId: string, query: UsageQuery) {
  return queryOptions({
    queryKey: [...walletKey(orgId), 'usage', query] as const,
    queryFn: ({ signal }) => api.get<BalanceUsage>(path(orgId), { signal, query: { ...query } }),
    // Another range or grouping keeps the last report on screen until its own answer comes.
    placeholderData: keepPreviousData,
  });
}

/**
 * The same report as a CSV file (`format=csv`), fetched with the bearer token and saved under
 * the server's file name (else usage-<from>-<to>-<group>.csv).
 */
export async function downloadUsageCsv(orgId: string, query: UsageQuery): Promise<void> {
  const params = new URLSearchParams({ ...query, format: 'csv' });
  const response = await openDownload(`${path(orgId)}?${params.toString()}`, {
    accept: 'text/csv, application/json',
    loadingMessage: 'Downloading the usage report…',
    failureMessage: 'The usage report could not be downloaded.',
  });
  const name =
    fileNameFromDisposition(response.headers.get('Content-Disposition')) ??
    `usage-${query.from}-${query.to}-${query.group_by}.csv`;
  saveBlob(await response.blob(), name);
}
