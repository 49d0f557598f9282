import { SimpleGrid, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { organizationQueryOptions } from '../../../lib/tenant-api';
import { AutoTopUpSection } from '../components/AutoTopUpSection';
import { BalanceAlertsSection } from '../components/BalanceAlertsSection';
import { BalanceCard } from '../components/BalanceCard';
import { OrganizationSpendCap } from '../components/OrganizationSpendCap';
import { WorkspaceCaps } from '../components/WorkspaceCaps';

/**
 * wallet (ps-BillingWallet): the balance's settings (issue 22): auto top-up, the organization's
 * monthly spend cap, each workspace's own cap, and the low-balance alerts.
 */
export function WalletSettingsPage() {
  const { orgId = '' } = useParams();
  const org = useQuery(organizationQueryOptions(orgId));

  return (
    <Stack gap="lg" component="section" aria-labelledby="billing-wallet-title">
      <Title order={2} fz="h3" id="billing-wallet-title">
        Wallet settings
      </Title>
      <BalanceCard orgId={orgId} />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <AutoTopUpSection orgId={orgId} />
        <BalanceAlertsSection orgId={orgId} />
      </SimpleGrid>
      <OrganizationSpendCap orgId={orgId} orgName={org.data?.name ?? 'the organization'} />
      <WorkspaceCaps orgId={orgId} />
    </Stack>
  );
}
