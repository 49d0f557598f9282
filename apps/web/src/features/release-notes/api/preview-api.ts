import type { ReleaseNotePreview } from '@portolan/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { releaseNotesKey } from './status-api';

/**
 * POST /v1/release-notes/preview/: the note's HTML as the server would store it (sanitized), so
 * the editor's preview shows exactly what readers will see and never runs what was typed.
 */
export function releaseNotePreviewQueryOptions(html: string) {
  return queryOptions({
    queryKey: [...releaseNotesKey, 'preview', html],
    queryFn: ({ signal }) =>
      api.post<ReleaseNotePreview>(
        '/v1/release-notes/preview/',
        { release_note: html },
        { signal, silent: true, noServerErrorToast: true },
      ),
    enabled: html.trim().length > 0,
    staleTime: Infinity,
    gcTime: 60_000,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
