import type { GradeChangePreview, PlanType, Subscription } from '@portolan/contract';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { idempotencyHeaders } from './checkout-api';
import { useStoreSubscription } from './subscriptions-api';

const enc = encodeURIComponent;

/** POST …/grade-changes/preview/ {plan}: the invoice and resource comparison of a change. */
export function gradeChangePreviewQueryOptions(orgId: string, plan: PlanType) {
  return queryOptions({
    queryKey: ['billing', 'grade-change-preview', orgId, plan],
    queryFn: ({ signal }) =>
      api.post<GradeChangePreview>(
        `/v1/organizations/${enc(orgId)}/grade-changes/preview/`,
        { plan },
        { signal },
      ),
    // The proration depends on the moment: a preview opened again is computed again.
    staleTime: 0,
    gcTime: 0,
  });
}

/** POST …/grade-changes/checkout/ {plan}: the change, charged (or credited) at once. */
export function useGradeChange(orgId: string) {
  const store = useStoreSubscription(orgId);
  return useMutation({
    mutationFn: (plan: PlanType) =>
      api.post<Subscription>(
        `/v1/organizations/${enc(orgId)}/grade-changes/checkout/`,
        { plan },
        { headers: idempotencyHeaders(), loadingMessage: 'Changing your plan…' },
      ),
    onSuccess: (subscription) => store(subscription),
  });
}
