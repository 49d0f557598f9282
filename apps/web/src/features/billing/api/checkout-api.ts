import type { Checkout, PlanType } from '@portolan/contract';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { track } from '../../../lib/analytics';
import { api } from '../../../lib/api';

const enc = encodeURIComponent;

/**
 * The header of every call that charges (the contract's IDEMPOTENCY_HEADER lives in a zod module,
 * which must not reach the bundle). A fresh key per user action: a retried request replays the
 * first answer instead of charging twice.
 */
export function idempotencyHeaders(): Record<string, string> {
  return { 'Idempotency-Key': crypto.randomUUID() };
}

/**
 * How the browser leaves for a gateway's page. An object, so a component test can take the
 * hand-over in hand (jsdom cannot leave the page) whatever order the test files load modules in.
 */
export const hostedPage = {
  open: (checkout: Checkout): void => window.location.assign(checkout.url),
};

/** Leaves for the gateway's hosted payment page; it sends the browser back with `?checkout=`. */
export function goToHostedPage(checkout: Checkout): void {
  hostedPage.open(checkout);
}

/** POST /v1/organizations/{orgId}/checkout/ {plan}: a subscription checkout, then its page. */
export function useSubscribeCheckout(orgId: string) {
  return useMutation({
    mutationFn: (plan: PlanType) =>
      api.post<Checkout>(
        `/v1/organizations/${enc(orgId)}/checkout/`,
        { plan },
        { headers: idempotencyHeaders(), loadingMessage: 'Opening the payment page…' },
      ),
    onSuccess: (checkout, plan) => {
      track('plan checkout started', { plan });
      goToHostedPage(checkout);
    },
  });
}

export const checkoutKey = (orgId: string, id: string) =>
  ['billing', 'checkout', orgId, id] as const;

/** How many times an OPEN checkout is reread on the way back before saying it is still open. */
export const CHECKOUT_POLLS = 5;
export const CHECKOUT_POLL_MS = 2_000;

/** GET /v1/organizations/{orgId}/checkout/{id}/: the outcome of a hosted payment page. */
export function checkoutQueryOptions(orgId: string, id: string) {
  return queryOptions({
    queryKey: checkoutKey(orgId, id),
    queryFn: ({ signal }) =>
      api.get<Checkout>(`/v1/organizations/${enc(orgId)}/checkout/${enc(id)}/`, { signal }),
    staleTime: 0,
    // The gateway may report back a moment after the browser returns: reread an open one a few
    // times.
    refetchInterval: (query) =>
      query.state.data?.status === 'OPEN' && query.state.dataUpdateCount < CHECKOUT_POLLS
        ? CHECKOUT_POLL_MS
        : false,
  });
}
