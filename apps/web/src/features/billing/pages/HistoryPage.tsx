import { Stack, Tabs, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { ListSkeleton } from '../../../lib/list-skeleton';
import { RetryAlert } from '../../../lib/retry-alert';
import { loadFailureReason } from '../../../lib/api';
import { invoicesQueryOptions } from '../api/invoices-api';
import { paymentMethodsQueryOptions } from '../api/payment-methods-api';
import { CreditNoteList } from '../components/CreditNoteList';
import { InvoiceList } from '../components/InvoiceList';
import { LedgerHistory } from '../components/LedgerHistory';

/**
 * Payment-method mode: an organization that has paid with a card (a card on file, or any
 * invoice) sees its invoices beside the balance history; one that only ever had a balance (the
 * platform's credit, no payment yet) sees the balance history alone. Undecided while either list
 * loads; a failed one is retried, since the page cannot say which kind it is without it.
 */
function usePaymentMethodMode(orgId: string) {
  const cards = useQuery(paymentMethodsQueryOptions(orgId));
  const invoices = useQuery(invoicesQueryOptions(orgId, 1));
  const on = (cards.data?.results.length ?? 0) > 0 || (invoices.data?.count ?? 0) > 0;
  const decided = on || (cards.isSuccess && invoices.isSuccess);
  const failed = [cards, invoices].filter((q) => q.isError);
  return { on, decided, failed };
}

/**
 * history (ps-BillingHistory): the invoices (with the credit notes of refunds under them) and
 * the balance's movements, as two tabs (both stay mounted, so the hidden one keeps its page and
 * filters).
 */
export function HistoryPage() {
  const { orgId = '' } = useParams();
  const mode = usePaymentMethodMode(orgId);

  return (
    <Stack gap="md" component="section" aria-labelledby="billing-history-title">
      <Title order={2} fz="h3" id="billing-history-title">
        History
      </Title>
      {!mode.decided && mode.failed.length > 0 ? (
        <RetryAlert
          title="Your billing history could not be loaded"
          onRetry={() => mode.failed.forEach((q) => void q.refetch())}
        >
          {loadFailureReason(mode.failed[0]?.error)}
        </RetryAlert>
      ) : !mode.decided ? (
        <ListSkeleton label="Loading the billing history" rows={4} />
      ) : mode.on ? (
        <Tabs defaultValue="invoices">
          <Tabs.List aria-label="History view">
            <Tabs.Tab value="invoices">Invoices</Tabs.Tab>
            <Tabs.Tab value="balance">Balance history</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="invoices" pt="md">
            <Stack gap="xl">
              <InvoiceList orgId={orgId} />
              <CreditNoteList orgId={orgId} />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="balance" pt="md">
            <LedgerHistory orgId={orgId} />
          </Tabs.Panel>
        </Tabs>
      ) : (
        <LedgerHistory orgId={orgId} />
      )}
    </Stack>
  );
}
