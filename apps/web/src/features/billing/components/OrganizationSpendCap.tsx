import { Skeleton, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { spendCapQueryOptions } from '../api/spend-caps-api';
import { SpendCapForm } from './SpendCapForm';
import { SpendCapProgress } from './SpendCapProgress';
import { WalletSection } from './WalletSection';

const ORGANIZATION = { kind: 'organization' } as const;

/** The organization's monthly spend cap: what was spent this month against it, and the cap. */
export function OrganizationSpendCap({ orgId, orgName }: { orgId: string; orgName: string }) {
  const cap = useQuery(spendCapQueryOptions(orgId, ORGANIZATION));
  return (
    <WalletSection
      id="wallet-org-cap-title"
      title="Monthly spend cap"
      description="The most all workspaces together may draw from the balance in a calendar month (UTC)."
    >
      {cap.isError ? (
        <QueryRetryAlert title="The spend cap could not be loaded" query={cap} />
      ) : !cap.data ? (
        <Skeleton height={120} aria-busy="true" aria-label="Loading the spend cap" />
      ) : (
        <Stack gap="md">
          <SpendCapProgress cap={cap.data} name={orgName} />
          <SpendCapForm orgId={orgId} owner={ORGANIZATION} cap={cap.data} name={orgName} />
        </Stack>
      )}
    </WalletSection>
  );
}
