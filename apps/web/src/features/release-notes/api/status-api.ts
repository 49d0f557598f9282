import type { ReleaseNoteStatus } from '@portolan/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const releaseNotesKey = ['release-notes'] as const;
export const releaseNoteStatusKey = [...releaseNotesKey, 'status'] as const;

/** Release notes change a few times a month: the toggle's dot is read again after this. */
const STATUS_STALE_MS = 5 * 60_000;

/**
 * GET /v1/release-notes/status/: the newest note, whether the caller has yet to view it (the
 * toggle's dot) and whether they are a platform administrator. A background call: no progress
 * bar, no toast; a failure only means no dot.
 */
export function releaseNoteStatusQueryOptions() {
  return queryOptions({
    queryKey: releaseNoteStatusKey,
    queryFn: ({ signal }) =>
      api.get<ReleaseNoteStatus>('/v1/release-notes/status/', {
        signal,
        silent: true,
        noServerErrorToast: true,
        noNetworkErrorToast: true,
      }),
    staleTime: STATUS_STALE_MS,
    retry: false,
  });
}

/** POST /v1/release-notes/latest/viewed/: the dot goes; the answer is the new status. */
export function useMarkLatestViewed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.post<ReleaseNoteStatus>('/v1/release-notes/latest/viewed/', undefined, {
        silent: true,
        noServerErrorToast: true,
        noNetworkErrorToast: true,
      }),
    onSuccess: (status) => queryClient.setQueryData(releaseNoteStatusKey, status),
  });
}
