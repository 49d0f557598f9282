import { useQuery } from '@tanstack/react-query';
import { api } from './api';

const enc = encodeURIComponent;

/** A billing page of an organization: `/ps/organization-settings/<orgId>/billing…`. */
export const isBillingPath = (pathname: string) =>
  /^\/ps\/organization-settings\/[^/]+\/billing(\/|$)/.test(pathname);

/**
 * Payment-method mode of an organization (decision 0010): it pays by card, with a card on file or
 * any invoice. Asked only when `enabled`; `on` is null until both answers are in (a failed one,
 * such as a 404 for someone outside the organization, counts as no).
 */
export function usePaymentMethodMode(orgId: string | undefined, enabled: boolean) {
  const on = Boolean(enabled && orgId);
  const cards = useQuery({
    queryKey: ['payment-method-mode', 'cards', orgId] as const,
    queryFn: ({ signal }) =>
      api.get<{ results: unknown[] }>(`/v1/organizations/${enc(orgId!)}/payment-methods/`, {
        signal,
      }),
    enabled: on,
    retry: false,
  });
  const invoices = useQuery({
    queryKey: ['payment-method-mode', 'invoices', orgId] as const,
    queryFn: ({ signal }) =>
      api.get<{ count: number }>(`/v1/organizations/${enc(orgId!)}/invoices/`, {
        signal,
        query: { page: 1, limit: 1 },
      }),
    enabled: on,
    retry: false,
  });
  if (!on) return { on: false };
  if ((cards.data?.results.length ?? 0) > 0 || (invoices.data?.count ?? 0) > 0) return { on: true };
  const settled = !cards.isPending && !invoices.isPending;
  return { on: settled ? false : null };
}
