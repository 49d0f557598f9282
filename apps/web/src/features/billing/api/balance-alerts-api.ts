import type { BalanceAlerts, BalanceAlertsUpdate } from '@portolan/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { walletKey } from './balance-api';

const enc = encodeURIComponent;
const alertsKey = (orgId: string) => [...walletKey(orgId), 'alerts'] as const;
const path = (orgId: string) => `/v1/organizations/${enc(orgId)}/balance/alerts/`;

/** GET …/balance/alerts/: the low-balance thresholds, highest first. */
export function balanceAlertsQueryOptions(orgId: string) {
  return queryOptions({
    queryKey: alertsKey(orgId),
    queryFn: ({ signal }) => api.get<BalanceAlerts>(path(orgId), { signal }),
  });
}

/** PUT …/balance/alerts/ {thresholds}. */
export function useSaveBalanceAlerts(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BalanceAlertsUpdate) =>
      api.put<BalanceAlerts>(path(orgId), body, { loadingMessage: 'Saving the alerts…' }),
    onSuccess: (saved) => queryClient.setQueryData(alertsKey(orgId), saved),
  });
}
