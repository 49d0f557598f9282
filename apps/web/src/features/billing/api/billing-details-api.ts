import type { BillingDetails, BillingDetailsUpdate } from '@portolan/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

const enc = encodeURIComponent;
const detailsKey = (orgId: string) => ['billing', 'details', orgId] as const;
const path = (orgId: string) => `/v1/organizations/${enc(orgId)}/billing-details/`;

/** GET …/billing-details/: the company, address, country and tax ID invoices print. */
export function billingDetailsQueryOptions(orgId: string) {
  return queryOptions({
    queryKey: detailsKey(orgId),
    queryFn: ({ signal }) => api.get<BillingDetails>(path(orgId), { signal }),
  });
}

/** PUT …/billing-details/: the tax ID is checked for the country and answered normalized. */
export function useSaveBillingDetails(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BillingDetailsUpdate) =>
      api.put<BillingDetails>(path(orgId), body, { loadingMessage: 'Saving billing details…' }),
    onSuccess: (saved) => queryClient.setQueryData(detailsKey(orgId), saved),
  });
}
