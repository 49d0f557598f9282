import { Divider, Skeleton, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { autoTopUpQueryOptions } from '../api/auto-top-up-api';
import { balanceQueryOptions } from '../api/balance-api';
import { fundPackagesQueryOptions } from '../api/fund-packages-api';
import { AutoTopUpForm } from './AutoTopUpForm';
import { AutoTopUpStatus } from './AutoTopUpStatus';
import { WalletSection } from './WalletSection';

/** Auto top-up: how its last attempt went, and the setting. */
export function AutoTopUpSection({ orgId }: { orgId: string }) {
  const setting = useQuery(autoTopUpQueryOptions(orgId));
  const balance = useQuery(balanceQueryOptions(orgId));
  const packages = useQuery(fundPackagesQueryOptions());
  const failed = [setting, balance, packages].find((q) => q.isError);

  return (
    <WalletSection
      id="wallet-auto-top-up-title"
      title="Auto top-up"
      description="Keeps the balance from running dry: one package is bought each time it falls below the threshold."
    >
      {failed ? (
        <QueryRetryAlert title="Auto top-up could not be loaded" query={failed} />
      ) : !setting.data || !balance.data || !packages.data ? (
        <Skeleton height={160} aria-busy="true" aria-label="Loading auto top-up" />
      ) : (
        <Stack gap="md">
          <AutoTopUpStatus orgId={orgId} setting={setting.data} />
          <Divider />
          <AutoTopUpForm
            orgId={orgId}
            setting={setting.data}
            currency={balance.data.currency}
            packages={packages.data}
          />
        </Stack>
      )}
    </WalletSection>
  );
}
