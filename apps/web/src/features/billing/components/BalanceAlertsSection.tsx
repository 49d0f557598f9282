import { Skeleton } from '@mantine/core';
import { MAX_LOW_BALANCE_THRESHOLDS } from '@portolan/contract';
import { useQuery } from '@tanstack/react-query';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { balanceAlertsQueryOptions } from '../api/balance-alerts-api';
import { BalanceAlertsForm } from './BalanceAlertsForm';
import { WalletSection } from './WalletSection';

/** Low-balance alerts: the thresholds that warn the owners and admins. */
export function BalanceAlertsSection({ orgId }: { orgId: string }) {
  const alerts = useQuery(balanceAlertsQueryOptions(orgId));
  return (
    <WalletSection
      id="wallet-alerts-title"
      title="Low-balance alerts"
      description={`Owners and admins are told in the bell and by e-mail when the balance falls below one of these amounts (up to ${MAX_LOW_BALANCE_THRESHOLDS}).`}
    >
      {alerts.isError ? (
        <QueryRetryAlert title="The alerts could not be loaded" query={alerts} />
      ) : !alerts.data ? (
        <Skeleton height={120} aria-busy="true" aria-label="Loading the alerts" />
      ) : (
        <BalanceAlertsForm orgId={orgId} alerts={alerts.data} />
      )}
    </WalletSection>
  );
}
