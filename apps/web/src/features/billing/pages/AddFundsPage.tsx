import { NativeSelect, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconPackage } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { EmptyListCard } from '../../../lib/empty-list-card';
import { ProblemAlert } from '../../../lib/form-parts';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { toast } from '../../../lib/toasts';
import {
  fundPackagesQueryOptions,
  useTopUpCheckout,
  useTopUpWithCard,
} from '../api/fund-packages-api';
import { paymentMethodsQueryOptions } from '../api/payment-methods-api';
import { useOrganizationSubscription } from '../api/subscriptions-api';
import { BalanceCard } from '../components/BalanceCard';
import { BalanceServices } from '../components/BalanceServices';
import { FundPackageCard } from '../components/FundPackageCard';
import { BRAND_NAMES, formatMoney } from '../format';

/**
 * fund-packages (ps-BillingAddFunds): the balance, the packages of credit on sale (with a saved
 * card, "Buy with saved card" pays at once, in one click; Buy, or "Use another card", opens the
 * gateway's payment page; back from it, CheckoutOutcome says how it went), and the services that
 * draw on the balance, those the plan includes marked.
 */
export function AddFundsPage() {
  const { orgId = '' } = useParams();
  const packages = useQuery(fundPackagesQueryOptions());
  const topUp = useTopUpCheckout(orgId);
  const withCard = useTopUpWithCard(orgId);
  const cards = useQuery(paymentMethodsQueryOptions(orgId));
  const { entry } = useOrganizationSubscription(orgId);
  const saved = cards.data?.results ?? [];
  // The card chosen to pay with: the default one unless another is picked.
  const [picked, setPicked] = useState<string | null>(null);
  const card =
    saved.find((c) => c.id === picked) ?? saved.find((c) => c.is_default) ?? saved[0] ?? null;
  const cardLabel = card ? `${BRAND_NAMES[card.brand] ?? 'Card'} ending in ${card.last4}` : '';

  const buyWithCard = (pack: { id: string; name: string; credit: number; currency: string }) => {
    if (!card) return;
    withCard.mutate(
      { fundPackageId: pack.id, paymentMethodId: card.id },
      {
        onSuccess: () =>
          toast.success(
            `${pack.name} bought with ${cardLabel}: ${formatMoney(pack.credit, pack.currency)} added to your balance.`,
          ),
      },
    );
  };

  return (
    <Stack gap="lg" component="section" aria-labelledby="billing-add-funds-title">
      <Title order={2} fz="h3" id="billing-add-funds-title">
        Add funds
      </Title>
      <BalanceCard orgId={orgId} withAddFunds={false} />

      <Stack gap="sm" component="section" aria-labelledby="billing-packages-title">
        <Title order={3} fz="h4" id="billing-packages-title">
          Fund packages
        </Title>
        <Text size="sm" c="dimmed">
          Pay once by card; the credit is added to your balance as soon as the payment goes through.
        </Text>
        {saved.length > 1 && (
          <NativeSelect
            label="Pay with"
            maw={360}
            value={card?.id ?? ''}
            onChange={(e) => setPicked(e.currentTarget.value)}
            data={saved.map((c) => ({
              value: c.id,
              label: `${BRAND_NAMES[c.brand] ?? 'Card'} ending in ${c.last4}${c.is_default ? ' (default)' : ''}`,
            }))}
          />
        )}
        {saved.length === 1 && card && (
          <Text size="sm">
            Saved card: <strong>{cardLabel}</strong>
          </Text>
        )}
        {topUp.isError && (
          <ProblemAlert>
            The payment page could not be opened. {errorMessage(topUp.error)}
          </ProblemAlert>
        )}
        {withCard.isError && (
          <ProblemAlert>
            The payment did not go through. {errorMessage(withCard.error)}
          </ProblemAlert>
        )}
        {packages.isError ? (
          <QueryRetryAlert title="The fund packages could not be loaded" query={packages} />
        ) : !packages.data ? (
          <SimpleGrid
            cols={{ base: 1, sm: 2, md: 3 }}
            aria-busy="true"
            aria-label="Loading the fund packages"
          >
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={220} radius="md" />
            ))}
          </SimpleGrid>
        ) : packages.data.length === 0 ? (
          <EmptyListCard icon={IconPackage} title="No fund packages on sale">
            Please check back later, or contact support to add funds another way.
          </EmptyListCard>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            {packages.data.map((pack) => {
              // Still busy once the checkout is there: the browser is on its way to the gateway.
              const busy = topUp.isPending || topUp.isSuccess;
              const mine = busy && topUp.variables === pack.id;
              const paying = withCard.isPending && withCard.variables?.fundPackageId === pack.id;
              return (
                <FundPackageCard
                  key={pack.id}
                  pack={pack}
                  buying={mine}
                  disabled={(busy && !mine) || (withCard.isPending && !paying)}
                  onBuy={() => topUp.mutate(pack.id)}
                  {...(card && {
                    savedCard: cardLabel,
                    payingWithCard: paying,
                    onBuyWithCard: () => buyWithCard(pack),
                  })}
                />
              );
            })}
          </SimpleGrid>
        )}
      </Stack>

      <BalanceServices planType={entry?.subscription?.plan.type ?? null} />
    </Stack>
  );
}
