import type { Paginated, Plan } from '@portolan/contract';
import { PAGE_SIZE } from '@portolan/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { BILLING_APP } from './subscriptions-api';

export const planConfigsKey = ['billing', 'plans', BILLING_APP] as const;

/** GET /v1/plans/service/config/transit/?page=1&limit=99 (spec §7, §9), in the plans' order. */
export function planConfigsQueryOptions() {
  return queryOptions({
    queryKey: planConfigsKey,
    queryFn: ({ signal }) =>
      api.get<Paginated<Plan>>(`/v1/plans/service/config/${BILLING_APP}/`, {
        signal,
        query: { page: 1, limit: PAGE_SIZE.planConfigs },
      }),
    select: (page) => [...page.results].sort((a, b) => a.order - b.order),
    // Plans change rarely: one load per visit is enough.
    staleTime: 5 * 60_000,
  });
}
