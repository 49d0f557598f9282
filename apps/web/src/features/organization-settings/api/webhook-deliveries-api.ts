import {
  WEBHOOK_DELIVERY_PAGE_SIZE,
  type WebhookDelivery,
  type WebhookDeliveryPage,
  type WebhookTestSent,
} from '@portolan/contract';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { webhookKey, webhookPath, webhooksPath } from './webhooks-api';

const enc = encodeURIComponent;

const deliveriesKey = (orgId: string, id: string) =>
  [...webhookKey(orgId, id), 'deliveries'] as const;

/** While a delivery of the page is on its way, the log is read again this often. */
export const WEBHOOK_LOG_POLL_MS = 5_000;

const hasPending = (page: WebhookDeliveryPage | undefined) =>
  page?.results.some((d) => d.status === 'pending') ?? false;

/**
 * GET …/webhooks/{id}/deliveries/?page&limit: the endpoint's deliveries, newest first, each with
 * its attempts; polled while one of the page is still pending.
 */
export function webhookDeliveriesQueryOptions(orgId: string, id: string, page: number) {
  return queryOptions({
    queryKey: [...deliveriesKey(orgId, id), page] as const,
    queryFn: ({ signal }) =>
      api.get<WebhookDeliveryPage>(`${webhookPath(orgId, id)}deliveries/`, {
        signal,
        query: { page, limit: WEBHOOK_DELIVERY_PAGE_SIZE },
        // The polling is background work: no progress bar for it.
        silent: true,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (hasPending(query.state.data) ? WEBHOOK_LOG_POLL_MS : false),
  });
}

/** The log and the endpoint (whether it is failing) read again. */
function refreshLog(queryClient: ReturnType<typeof useQueryClient>, orgId: string, id: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: deliveriesKey(orgId, id) }),
    queryClient.invalidateQueries({ queryKey: webhookKey(orgId, id), exact: true }),
  ]);
}

/** POST …/webhooks/{id}/test/ (202): a `webhook.test` event to this endpoint only, in its log. */
export function useSendTestEvent(orgId: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.post<WebhookTestSent>(`${webhookPath(orgId, id)}test/`, undefined, {
        loadingMessage: 'Sending a test event…',
      }),
    onSuccess: () => refreshLog(queryClient, orgId, id),
  });
}

/** POST …/webhooks/deliveries/{deliveryId}/retry/ (202): sent again now; the log is read again. */
export function useRetryDelivery(orgId: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (delivery: WebhookDelivery) =>
      api.post<WebhookDelivery>(
        `${webhooksPath(orgId)}deliveries/${enc(delivery.id)}/retry/`,
        undefined,
        { loadingMessage: 'Sending the delivery again…' },
      ),
    onSettled: () => refreshLog(queryClient, orgId, id),
  });
}
