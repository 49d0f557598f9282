import type { Checkout, PaymentMethod } from '@portolan/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest } from '../../../lib/api';
import { goToHostedPage, idempotencyHeaders } from './checkout-api';
import { subscriptionsKey } from './subscriptions-api';

const enc = encodeURIComponent;

export interface PaymentMethodList {
  default_payment_method: string | null;
  results: PaymentMethod[];
}

export const paymentMethodsKey = (orgId: string) => ['billing', 'payment-methods', orgId] as const;
const base = (orgId: string) => `/v1/organizations/${enc(orgId)}/payment-methods`;

/** GET …/payment-methods/: the organization's cards and the default one. */
export function paymentMethodsQueryOptions(orgId: string) {
  return queryOptions({
    queryKey: paymentMethodsKey(orgId),
    queryFn: ({ signal }) => api.get<PaymentMethodList>(`${base(orgId)}/`, { signal }),
  });
}

/** POST …/payment-methods/checkout/: a setup checkout (the card is entered on the gateway's page). */
export function useAddCardCheckout(orgId: string) {
  return useMutation({
    mutationFn: () =>
      api.post<Checkout>(`${base(orgId)}/checkout/`, undefined, {
        headers: idempotencyHeaders(),
        loadingMessage: 'Opening the card page…',
      }),
    onSuccess: goToHostedPage,
  });
}

/** After a change of cards: the list, and the subscriptions (their default_payment_method_id). */
function useAfterCardChange(orgId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: paymentMethodsKey(orgId) }),
      queryClient.invalidateQueries({ queryKey: subscriptionsKey }),
    ]);
}

/** POST …/payment-methods/modification/ {payment_method_id}: make it the default card. */
export function useMakeDefaultCard(orgId: string) {
  const after = useAfterCardChange(orgId);
  return useMutation({
    mutationFn: (id: string) =>
      api.post<unknown>(
        `${base(orgId)}/modification/`,
        { payment_method_id: id },
        { loadingMessage: 'Changing the default card…' },
      ),
    onSuccess: () => after(),
  });
}

/** DELETE …/payment-methods/modification/ {payment_method_id}: 409 for the default in use. */
export function useRemoveCard(orgId: string) {
  const after = useAfterCardChange(orgId);
  return useMutation({
    mutationFn: (id: string) =>
      // The API client's `delete` sends no body; this DELETE names the card in one.
      apiRequest<unknown>(`${base(orgId)}/modification/`, {
        method: 'DELETE',
        body: { payment_method_id: id },
        loadingMessage: 'Removing the card…',
      }),
    onSuccess: () => after(),
  });
}
