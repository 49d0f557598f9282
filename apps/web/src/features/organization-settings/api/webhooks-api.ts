import type {
  WebhookCreate,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookEndpointList,
  WebhookSecret,
  WebhookUpdate,
} from '@portolan/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

const enc = encodeURIComponent;

/** The list's key; an endpoint's (and its deliveries') keys start with it. */
const webhooksKey = (orgId: string) => ['organizations', orgId, 'webhooks'] as const;
export const webhookKey = (orgId: string, id: string) => [...webhooksKey(orgId), id] as const;
export const webhooksPath = (orgId: string) => `/v1/organizations/${enc(orgId)}/webhooks/`;
export const webhookPath = (orgId: string, id: string) => `${webhooksPath(orgId)}${enc(id)}/`;

/** GET /v1/organizations/{orgId}/webhooks/ (OWNER, ADMIN): the endpoints, oldest first, never a secret. */
export function webhooksQueryOptions(orgId: string) {
  return queryOptions({
    queryKey: webhooksKey(orgId),
    queryFn: ({ signal }) => api.get<WebhookEndpointList>(webhooksPath(orgId), { signal }),
  });
}

/** GET …/webhooks/{id}/: one endpoint. */
export function webhookQueryOptions(orgId: string, id: string) {
  return queryOptions({
    queryKey: webhookKey(orgId, id),
    queryFn: ({ signal }) => api.get<WebhookEndpoint>(webhookPath(orgId, id), { signal }),
  });
}

/** The list read again, without the endpoints' own queries under its key. */
const refreshList = (queryClient: ReturnType<typeof useQueryClient>, orgId: string) =>
  queryClient.invalidateQueries({ queryKey: webhooksKey(orgId), exact: true });

/**
 * POST …/webhooks/ {url, events, description} (with a step-up when the sign-in is old: the API
 * client asks for it and sends again): the endpoint with its signing secret.
 */
export function useCreateWebhook(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WebhookCreate) =>
      api.post<WebhookEndpointCreated>(webhooksPath(orgId), body, {
        loadingMessage: 'Adding the endpoint…',
      }),
    onSuccess: ({ secret: _secret, ...created }) => {
      // The list never holds a secret: only what GET answers (oldest first, so at the end).
      queryClient.setQueryData<WebhookEndpointList>(webhooksKey(orgId), (list) =>
        list ? { results: [...list.results, created] } : list,
      );
      return refreshList(queryClient, orgId);
    },
  });
}

/** PATCH …/webhooks/{id}/ {url?, events?, description?, enabled?}: the endpoint as saved. */
export function useUpdateWebhook(orgId: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WebhookUpdate) =>
      api.patch<WebhookEndpoint>(webhookPath(orgId, id), body, { loadingMessage: 'Saving…' }),
    onSuccess: (saved) => {
      queryClient.setQueryData(webhookKey(orgId, id), saved);
      return refreshList(queryClient, orgId);
    },
  });
}

/** DELETE …/webhooks/{id}/: the endpoint and its delivery log go. */
export function useDeleteWebhook(orgId: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.delete<void>(webhookPath(orgId, id), { loadingMessage: 'Deleting the endpoint…' }),
    onSuccess: () => {
      queryClient.setQueryData<WebhookEndpointList>(webhooksKey(orgId), (list) =>
        list ? { results: list.results.filter((w) => w.id !== id) } : list,
      );
      queryClient.removeQueries({ queryKey: webhookKey(orgId, id) });
    },
    onSettled: () => refreshList(queryClient, orgId),
  });
}

/** GET …/webhooks/{id}/secret/ (with a step-up), on demand only: never kept in the cache. */
export function useRevealWebhookSecret(orgId: string, id: string) {
  return useMutation({
    mutationFn: () =>
      api.get<WebhookSecret>(`${webhookPath(orgId, id)}secret/`, {
        loadingMessage: 'Revealing the secret…',
      }),
  });
}

/**
 * POST …/webhooks/{id}/rotate-secret/ (with a step-up): the new secret; the endpoint is read
 * again for until when the previous one still signs.
 */
export function useRotateWebhookSecret(orgId: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.post<WebhookSecret>(`${webhookPath(orgId, id)}rotate-secret/`, undefined, {
        loadingMessage: 'Rotating the secret…',
      }),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: webhookKey(orgId, id), exact: true }),
  });
}
