import type { OrganizationSubscription, Paginated, Subscription } from '@portolan/contract';
import { PAGE_SIZE } from '@portolan/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

const enc = encodeURIComponent;

/**
 * The app profile of the billing calls. The specification names the transit plans and
 * subscriptions (spec §7 "plan configs fetch for transit"), the one profile this build sells.
 */
export const BILLING_APP = 'transit';

export const subscriptionsKey = ['billing', 'subscriptions'] as const;

/** GET /v1/me/organizations/and/subscriptions/transit/?page=1&limit=99 (spec §7, §9). */
export function subscriptionsQueryOptions() {
  return queryOptions({
    queryKey: subscriptionsKey,
    queryFn: ({ signal }) =>
      api.get<Paginated<OrganizationSubscription>>(
        `/v1/me/organizations/and/subscriptions/${BILLING_APP}/`,
        { signal, silent: true, query: { page: 1, limit: PAGE_SIZE.subscriptions } },
      ),
  });
}

/** One organization's entry of the subscription list (undefined while loading or not listed). */
export function entryOf(
  page: Paginated<OrganizationSubscription> | undefined,
  orgId: string,
): OrganizationSubscription | undefined {
  return page?.results.find((e) => e.organization.id === orgId);
}

/** The page's organization's subscription, limits and usage. */
export function useOrganizationSubscription(orgId: string) {
  const query = useQuery(subscriptionsQueryOptions());
  return { query, entry: entryOf(query.data, orgId) };
}

/** Puts a changed subscription in the list at once, then rereads the list. */
export function useStoreSubscription(orgId: string) {
  const queryClient = useQueryClient();
  return (subscription: Subscription) => {
    queryClient.setQueryData(subscriptionsQueryOptions().queryKey, (page) =>
      page
        ? {
            ...page,
            results: page.results.map((e) =>
              e.organization.id === orgId ? { ...e, subscription } : e,
            ),
          }
        : page,
    );
    return queryClient.invalidateQueries({ queryKey: subscriptionsKey });
  };
}

/** GET /v1/organizations/{orgId}/unsubscription/: cancels at the period's end (subscriber only). */
export function useUnsubscribe(orgId: string) {
  const store = useStoreSubscription(orgId);
  return useMutation({
    mutationFn: () =>
      api.get<Subscription>(`/v1/organizations/${enc(orgId)}/unsubscription/`, {
        loadingMessage: 'Unsubscribing…',
      }),
    onSuccess: (subscription) => store(subscription),
  });
}
