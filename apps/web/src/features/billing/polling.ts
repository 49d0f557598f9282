import { BILLING_FETCH_DELAY_MS, Messages, POLL_INTERVAL_MS } from '@portolan/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { toast } from '../../lib/toasts';
import { balanceQueryOptions } from './api/balance-api';
import { planConfigsQueryOptions } from './api/plans-api';
import { subscriptionsQueryOptions } from './api/subscriptions-api';
import { useBillingStore } from '../../lib/billing-store';
import { startedInOwnTask } from '../../lib/own-task';

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
    ...startedInOwnTask(subscriptionsQueryOptions()),
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

/**
 * The rest of the billing store of spec §4: after the same BILLING_FETCH_DELAY_MS wait, the
 * current organization's balance (for its OWNERs and ADMINs, who may read it) and the plan configs
 * (transit, page 1, limit 99), each kept in the store with its loading flag. The billing pages read
 * the same queries, so a top-up or a later visit updates what the store holds.
 */
export function useBillingBackground(
  enabled: boolean,
  organization: { id: string; role: string } | null,
) {
  const delayDone = useBillingStore((s) => s.subscriptionsDelayDone);
  const mayReadBalance = organization?.role === 'OWNER' || organization?.role === 'ADMIN';
  const balance = useQuery({
    ...startedInOwnTask(balanceQueryOptions(organization?.id ?? '')),
    enabled: enabled && delayDone && mayReadBalance,
  });
  const plans = useQuery({
    ...startedInOwnTask(planConfigsQueryOptions()),
    enabled: enabled && delayDone,
  });

  const available = mayReadBalance ? (balance.data?.available_balance ?? null) : null;
  useEffect(() => {
    useBillingStore.getState().setBalance(available);
  }, [available]);
  useEffect(() => {
    useBillingStore.getState().setBalanceLoading(balance.isFetching);
  }, [balance.isFetching]);
  useEffect(() => {
    if (plans.data) useBillingStore.getState().setPlanConfigs(plans.data);
  }, [plans.data]);
  useEffect(() => {
    useBillingStore.getState().setPlanConfigsLoading(plans.isFetching);
  }, [plans.isFetching]);
}
