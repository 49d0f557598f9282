import {
  SHARE_LINK_PAGE_SIZE,
  type ModuleCode,
  type Paginated,
  type ShareLink,
  type ShareLinkCreated,
} from '@portolan/contract';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

const enc = encodeURIComponent;
const base = (clientId: string) => `/v1/clients/${enc(clientId)}/share-links/`;

export const shareLinksKey = (clientId: string) => ['share-links', clientId] as const;

/**
 * GET /v1/clients/{clientId}/share-links/?page&limit=10: newest first; every link for the
 * workspace's OWNERs and ADMINs, one's own for other members. Never a token.
 */
export function shareLinksQueryOptions(clientId: string, page: number) {
  return queryOptions({
    queryKey: [...shareLinksKey(clientId), page] as const,
    queryFn: ({ signal }) =>
      api.get<Paginated<ShareLink>>(base(clientId), {
        signal,
        query: { page, limit: SHARE_LINK_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });
}

export interface ShareLinkBody {
  module: ModuleCode;
  /** ISO date-time, or null for a link that never expires. */
  expires_at: string | null;
}

/** POST …/share-links/: the answer carries the token and the full link, this once. */
export function useCreateShareLink(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ShareLinkBody) =>
      api.post<ShareLinkCreated>(base(clientId), body, { loadingMessage: 'Creating the link…' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareLinksKey(clientId) }),
  });
}

/** DELETE …/share-links/{linkId}/: the link stops opening at once. */
export function useRevokeShareLink(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (linkId: string) =>
      api.delete<unknown>(`${base(clientId)}${enc(linkId)}/`, {
        loadingMessage: 'Revoking the link…',
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: shareLinksKey(clientId) }),
  });
}
