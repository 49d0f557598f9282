import {
  RELEASE_NOTES_PAGE_SIZE,
  type Paginated,
  type ReleaseNote,
  type ReleaseNoteCreate,
  type ReleaseNoteUpdate,
} from '@portolan/contract';
import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { releaseNotesKey } from './status-api';

const enc = encodeURIComponent;
const listKey = [...releaseNotesKey, 'list'] as const;

function fetchPage(page: number, signal?: AbortSignal) {
  return api.get<Paginated<ReleaseNote>>('/v1/release-notes/', {
    signal,
    query: { page, limit: RELEASE_NOTES_PAGE_SIZE },
  });
}

/** GET /v1/release-notes/ for the panel: the newest 10, and 10 more with each "Load more". */
export function releaseNotesFeedQueryOptions() {
  return infiniteQueryOptions({
    queryKey: [...listKey, 'feed'],
    initialPageParam: 1,
    queryFn: ({ signal, pageParam }) => fetchPage(pageParam, signal),
    getNextPageParam: (last) => last.next ?? undefined,
  });
}

/** GET /v1/release-notes/?page=n for the management page's table. */
export function releaseNotesPageQueryOptions(page: number) {
  return queryOptions({
    queryKey: [...listKey, 'page', page],
    queryFn: ({ signal }) => fetchPage(page, signal),
  });
}

/** GET /v1/release-notes/{id}/: the note the edit page changes. */
export function releaseNoteQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...releaseNotesKey, 'note', id],
    queryFn: ({ signal }) => api.get<ReleaseNote>(`/v1/release-notes/${enc(id)}/`, { signal }),
  });
}

/** After any change: the lists, the note and the toggle's dot are read again. */
function useInvalidateAll() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: releaseNotesKey });
}

/** POST /v1/release-notes/ (platform administrators). */
export function useCreateReleaseNote() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (body: ReleaseNoteCreate) =>
      api.post<ReleaseNote>('/v1/release-notes/', body, {
        loadingMessage: 'Publishing the release note…',
      }),
    onSuccess: invalidate,
  });
}

/** PATCH /v1/release-notes/{id}/ (platform administrators). */
export function useUpdateReleaseNote(id: string) {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (body: ReleaseNoteUpdate) =>
      api.patch<ReleaseNote>(`/v1/release-notes/${enc(id)}/`, body, {
        loadingMessage: 'Saving the release note…',
      }),
    onSuccess: invalidate,
  });
}

/** DELETE /v1/release-notes/{id}/ (platform administrators). */
export function useDeleteReleaseNote() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (id: string) =>
      api.delete<void>(`/v1/release-notes/${enc(id)}/`, {
        loadingMessage: 'Deleting the release note…',
      }),
    onSuccess: invalidate,
  });
}
