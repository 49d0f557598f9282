import { Alert, CloseButton, Group, Loader, Text } from '@mantine/core';
import type { Checkout } from '@portolan/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { toast } from '../../../lib/toasts';
import { walletKey } from '../api/balance-api';
import { CHECKOUT_POLLS, checkoutKey, checkoutQueryOptions } from '../api/checkout-api';
import { invoicesKey } from '../api/invoices-api';
import { paymentMethodsKey } from '../api/payment-methods-api';
import { subscriptionsKey } from '../api/subscriptions-api';

/**
 * Back from the gateway's hosted page with `?checkout={id}`: reads the checkout and says how it
 * went. COMPLETE: a success toast, the subscriptions, cards, balance, its history and the invoices
 * reread (a payment of any kind may have changed them), and the query dropped. FAILED: the
 * gateway's reason in a red alert, until dismissed. OPEN: reread a few times. EXPIRED: the page
 * timed out before paying.
 */
const SUCCESS_MESSAGES: Record<Checkout['kind'], string> = {
  SUBSCRIPTION: 'Thank you! Your payment went through and your subscription is active.',
  PAYMENT_METHOD: 'Your card has been added.',
  TOP_UP: 'Thank you! Your payment went through. Funds added to your balance.',
};

export function CheckoutOutcome({ orgId }: { orgId: string }) {
  const [params, setParams] = useSearchParams();
  const id = params.get('checkout');
  const queryClient = useQueryClient();
  const query = useQuery({ ...checkoutQueryOptions(orgId, id ?? ''), enabled: Boolean(id) });
  const handled = useRef<string | null>(null);
  const checkout = query.data;

  const dismiss = () =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('checkout');
        return next;
      },
      { replace: true },
    );

  useEffect(() => {
    if (!checkout || checkout.status !== 'COMPLETE' || handled.current === checkout.id) return;
    handled.current = checkout.id;
    toast.success(SUCCESS_MESSAGES[checkout.kind]);
    void Promise.all([
      queryClient.invalidateQueries({ queryKey: subscriptionsKey }),
      queryClient.invalidateQueries({ queryKey: paymentMethodsKey(orgId) }),
      queryClient.invalidateQueries({ queryKey: walletKey(orgId) }),
      queryClient.invalidateQueries({ queryKey: invoicesKey(orgId) }),
    ]).then(() => dismiss());
    // `dismiss` changes with the query string; the checkout is handled once by its id.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [checkout, orgId, queryClient]);

  if (!id) return null;
  if (query.isError) {
    return <QueryRetryAlert title="The payment's outcome could not be read" query={query} />;
  }
  if (!checkout || checkout.status === 'COMPLETE') return null;

  const closer = <CloseButton aria-label="Dismiss the payment message" onClick={dismiss} />;
  if (checkout.status === 'FAILED') {
    return (
      <Alert
        color="red"
        role="alert"
        title="The payment did not go through"
        data-testid="checkout-failed"
      >
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          {/* The gateway's reason already says what to do (CHARGE_FAILURE_MESSAGES of the API). */}
          <Text size="sm">
            {checkout.kind === 'TOP_UP' && 'No funds were added to your balance. '}
            {checkout.failure_message ?? 'The card was declined. Please try another card.'}
          </Text>
          {closer}
        </Group>
      </Alert>
    );
  }
  if (checkout.status === 'EXPIRED') {
    return (
      <Alert color="yellow" role="alert" title="The payment page expired">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text size="sm">Nothing was charged. Please start again when you are ready.</Text>
          {closer}
        </Group>
      </Alert>
    );
  }
  const stillPolling = query.dataUpdatedAt > 0 && query.isFetching;
  const reads = queryClient.getQueryState(checkoutKey(orgId, id))?.dataUpdateCount ?? 0;
  const done = reads >= CHECKOUT_POLLS;
  return (
    <Alert color="blue" role="status" title="Your payment is being processed">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Group gap="xs">
          {!done && <Loader size="xs" aria-hidden="true" />}
          <Text size="sm">
            {done && !stillPolling
              ? 'The payment has not completed yet. Reload this page in a moment to see it.'
              : 'This takes a few seconds.'}
          </Text>
        </Group>
        {closer}
      </Group>
    </Alert>
  );
}
