import { BILLING_FETCH_DELAY_MS, Messages, POLL_INTERVAL_MS } from '@portolan/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { toast } from '../../lib/toasts';
import { subscriptionsQueryOptions } from './api/subscriptions-api';
import { useBillingStore } from '../../lib/billing-store';

/**
 * The background subscription check of spec §4: the first call waits BILLING_FETCH_DELAY_MS (the
 * page the user opened loads first), then the list is reread every POLL_INTERVAL_MS. A failure
 * stops the polling and says so once (Messages.subscriptionsFailed). The billing pages read the
 * same query without the wait; what they load, the gate sees.
 */
export function useSubscriptionPolling(enabled: boolean) {
  const delayDone = useBillingStore((s) => s.subscriptionsDelayDone);
  const stopped = useBillingStore((s) => s.pollingStopped);

  useEffect(() => {
    if (!enabled || delayDone) return;
    const timer = setTimeout(
      () => useBillingStore.getState().markDelayDone(),
      BILLING_FETCH_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [enabled, delayDone]);

  const query = useQuery({
    ...subscriptionsQueryOptions(),
    enabled: enabled && delayDone && !stopped,
    // Also turned off by `enabled` once stopped; this covers the very answer that failed.
    refetchInterval: (q) => (q.state.status === 'error' ? false : POLL_INTERVAL_MS),
    refetchIntervalInBackground: true,
  });

  const { data, isError, isFetching } = query;
  useEffect(() => {
    if (data) useBillingStore.getState().setSubscriptions(data.results);
  }, [data]);
  useEffect(() => {
    useBillingStore.getState().setSubscriptionsLoading(isFetching);
  }, [isFetching]);
  useEffect(() => {
    if (!enabled || !isError || useBillingStore.getState().pollingStopped) return;
    useBillingStore.getState().stopPolling();
    toast.error(Messages.subscriptionsFailed);
  }, [enabled, isError]);

  return query;
}
