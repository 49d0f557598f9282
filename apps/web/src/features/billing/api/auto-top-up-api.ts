import type { AutoTopUp, AutoTopUpUpdate } from '@portolan/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { walletKey } from './balance-api';

const enc = encodeURIComponent;
const autoTopUpKey = (orgId: string) => [...walletKey(orgId), 'auto-top-up'] as const;
const path = (orgId: string) => `/v1/organizations/${enc(orgId)}/balance/auto-top-up/`;

/** GET …/balance/auto-top-up/: the setting, the failures in a row and the last attempt. */
export function autoTopUpQueryOptions(orgId: string) {
  return queryOptions({
    queryKey: autoTopUpKey(orgId),
    queryFn: ({ signal }) => api.get<AutoTopUp>(path(orgId), { signal }),
  });
}

/** PUT …/balance/auto-top-up/ {enabled, threshold, fund_package_id}: 409 NO_PAYMENT_METHOD without a default card. */
export function useSaveAutoTopUp(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AutoTopUpUpdate) =>
      api.put<AutoTopUp>(path(orgId), body, { loadingMessage: 'Saving auto top-up…' }),
    onSuccess: (saved) => queryClient.setQueryData(autoTopUpKey(orgId), saved),
  });
}
