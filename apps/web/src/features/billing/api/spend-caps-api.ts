import type { SpendCap, SpendCapUpdate } from '@portolan/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { walletKey } from './balance-api';

const enc = encodeURIComponent;

/** Whose monthly cap: the organization's, or one of its workspaces'. */
export type CapOwner = { kind: 'organization' } | { kind: 'workspace'; clientId: string };

const capKey = (orgId: string, owner: CapOwner) =>
  owner.kind === 'organization'
    ? ([...walletKey(orgId), 'spend-cap'] as const)
    : ([...walletKey(orgId), 'spend-cap', owner.clientId] as const);

const capPath = (orgId: string, owner: CapOwner) =>
  owner.kind === 'organization'
    ? `/v1/organizations/${enc(orgId)}/balance/spend-cap/`
    : `/v1/clients/${enc(owner.clientId)}/spend-cap/`;

/**
 * GET …/balance/spend-cap/ or /v1/clients/{clientId}/spend-cap/: the monthly limit (null: none)
 * and what was spent since the month began. Kept under the wallet's key: a top-up or a charge
 * rereads it with the balance.
 */
export function spendCapQueryOptions(orgId: string, owner: CapOwner) {
  return queryOptions({
    queryKey: capKey(orgId, owner),
    queryFn: ({ signal }) => api.get<SpendCap>(capPath(orgId, owner), { signal }),
  });
}

/** PUT the same path {monthly_limit}. */
export function useSaveSpendCap(orgId: string, owner: CapOwner) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SpendCapUpdate) =>
      api.put<SpendCap>(capPath(orgId, owner), body, { loadingMessage: 'Saving the cap…' }),
    onSuccess: (saved) => queryClient.setQueryData(capKey(orgId, owner), saved),
  });
}
