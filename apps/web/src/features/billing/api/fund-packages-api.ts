import type { Checkout, FundPackage, LedgerEntry, Paginated } from '@portolan/contract';
import { PAGE_SIZE } from '@portolan/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { track } from '../../../lib/analytics';
import { api } from '../../../lib/api';
import { walletKey } from './balance-api';
import { goToHostedPage, idempotencyHeaders } from './checkout-api';

const enc = encodeURIComponent;

/** GET /v1/fund-packages/?page=1&limit=10: the packages of credit on sale, in their order. */
export function fundPackagesQueryOptions() {
  return queryOptions({
    queryKey: ['billing', 'fund-packages'] as const,
    queryFn: ({ signal }) =>
      api.get<Paginated<FundPackage>>('/v1/fund-packages/', {
        signal,
        query: { page: 1, limit: PAGE_SIZE.fundPackages },
      }),
    select: (page) => [...page.results].sort((a, b) => a.order - b.order),
    staleTime: 5 * 60_000,
  });
}

/**
 * POST /v1/organizations/{orgId}/balance/checkout/ {fund_package_id}: a top-up checkout, then
 * its page. The gateway sends the browser back to history (paid) or fund-packages (cancelled),
 * with `?checkout=` for CheckoutOutcome.
 */
export function useTopUpCheckout(orgId: string) {
  return useMutation({
    mutationFn: (fundPackageId: string) =>
      api.post<Checkout>(
        `/v1/organizations/${enc(orgId)}/balance/checkout/`,
        { fund_package_id: fundPackageId },
        { headers: idempotencyHeaders(), loadingMessage: 'Opening the payment page…' },
      ),
    onSuccess: (checkout) => {
      track('fund package checkout started');
      goToHostedPage(checkout);
    },
  });
}

/**
 * POST /v1/organizations/{orgId}/balance/top-ups/ {fund_package_id, payment_method_id}: a package
 * paid at once with a saved card (one click; a fresh Idempotency-Key per click, so a retried
 * request is never charged twice). The balance and its history are read again.
 */
export function useTopUpWithCard(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (choice: { fundPackageId: string; paymentMethodId: string }) =>
      api.post<LedgerEntry>(
        `/v1/organizations/${enc(orgId)}/balance/top-ups/`,
        { fund_package_id: choice.fundPackageId, payment_method_id: choice.paymentMethodId },
        { headers: idempotencyHeaders(), loadingMessage: 'Paying with your card…' },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: walletKey(orgId) }),
  });
}
