import {
  DATA_EXPORT_PAGE_SIZE,
  isDataExportInProgress,
  type DataExport,
  type Paginated,
} from '@portolan/contract';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './api';
import { fileNameFromDisposition, openDownload, saveBlob } from './download';

/**
 * Data exports (issue 11), as the profile page (one's own data) and the organization settings
 * (an organization's data, for its OWNERs) both call them: ask for one, list them (polled while
 * one is being built), download a ready archive with the bearer token.
 */

/** Whose data: the caller's own, or an organization's. */
export type DataExportScope = { kind: 'user' } | { kind: 'organization'; orgId: string };

const enc = encodeURIComponent;

/** POST (ask) and GET (list) of the scope. */
export const dataExportsPath = (scope: DataExportScope) =>
  scope.kind === 'user'
    ? '/v1/data-exports/'
    : `/v1/organizations/${enc(scope.orgId)}/data-exports/`;

export const dataExportsKey = (scope: DataExportScope) =>
  scope.kind === 'user'
    ? (['data-exports', 'user'] as const)
    : (['data-exports', 'organization', scope.orgId] as const);

/** While an export is on its way, the list is read again this often. */
export const DATA_EXPORT_POLL_MS = 2_000;

export const hasExportInProgress = (page: Paginated<DataExport> | undefined) =>
  page?.results.some((e) => isDataExportInProgress(e.status)) ?? false;

/** GET the scope's exports, newest first, a page at a time; polled while one is being built. */
export function dataExportsQueryOptions(scope: DataExportScope, page: number) {
  return queryOptions({
    queryKey: [...dataExportsKey(scope), page] as const,
    queryFn: ({ signal }) =>
      api.get<Paginated<DataExport>>(dataExportsPath(scope), {
        signal,
        query: { page, limit: DATA_EXPORT_PAGE_SIZE },
        // The polling is background work: no progress bar for it.
        silent: true,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      hasExportInProgress(query.state.data) ? DATA_EXPORT_POLL_MS : false,
  });
}

/** POST: ask for a new export (202 with it, PENDING); the list is read again either way. */
export function useRequestDataExport(scope: DataExportScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<DataExport>(dataExportsPath(scope), undefined),
    onSettled: () => queryClient.invalidateQueries({ queryKey: dataExportsKey(scope) }),
  });
}

/** Downloads a ready export's archive (its `download_url`, with the bearer token). */
export async function downloadDataExport(item: DataExport): Promise<void> {
  if (!item.download_url) throw new Error('This export has nothing to download.');
  const response = await openDownload(item.download_url, {
    accept: 'application/zip, application/json',
    loadingMessage: 'Downloading the export…',
    failureMessage: 'The export could not be downloaded.',
  });
  const fileName =
    fileNameFromDisposition(response.headers.get('Content-Disposition')) ??
    item.file_name ??
    'export.zip';
  saveBlob(await response.blob(), fileName);
}

/** 1.2 MB, 340 KB, 512 bytes. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 10 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}
