import { Badge, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { PaymentMethod } from '@portolan/contract';
// Icons of this page only: one the billing layout shares would land in the preloaded chunk.
import { IconCreditCardOff, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { confirmModal } from '../../../lib/confirm';
import { EmptyListCard } from '../../../lib/empty-list-card';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { toast, toastFailure } from '../../../lib/toasts';
import {
  paymentMethodsQueryOptions,
  useAddCardCheckout,
  useMakeDefaultCard,
  useRemoveCard,
} from '../api/payment-methods-api';
import { CardBrandMark } from '../components/CardBrandMark';
import { BRAND_NAMES, cardName } from '../format';

/**
 * cards (ps-BillingCardManagement): the organization's cards, the default marked; add one on the
 * gateway's page, make another the default, remove one after confirming (the server refuses the
 * default card while subscribed: its message is shown).
 */
export function CardsPage() {
  const { orgId = '' } = useParams();
  const cards = useQuery(paymentMethodsQueryOptions(orgId));
  const add = useAddCardCheckout(orgId);
  const makeDefault = useMakeDefaultCard(orgId);
  const remove = useRemoveCard(orgId);

  const onMakeDefault = (card: PaymentMethod) =>
    makeDefault.mutate(card.id, {
      onSuccess: () =>
        toast.success(
          `${BRAND_NAMES[card.brand]} ending in ${card.last4} is now the default card.`,
        ),
      onError: (error) => toastFailure(error),
    });

  const onRemove = async (card: PaymentMethod) => {
    const ok = await confirmModal({
      title: 'Remove this card?',
      content: `${cardName(card)} will no longer be charged.`,
      confirmLabel: 'Remove card',
      danger: true,
    });
    if (!ok) return;
    remove.mutate(card.id, {
      onSuccess: () =>
        toast.success(`${BRAND_NAMES[card.brand]} ending in ${card.last4} was removed.`),
      onError: (error) => toastFailure(error),
    });
  };

  return (
    <Stack gap="md" component="section" aria-labelledby="billing-cards-title">
      <Group justify="space-between">
        <Title order={2} fz="h3" id="billing-cards-title">
          Cards
        </Title>
        <Button
          leftSection={<IconPlus size={16} aria-hidden="true" />}
          loading={add.isPending}
          onClick={() => add.mutate(undefined, { onError: (e) => toastFailure(e) })}
        >
          Add card
        </Button>
      </Group>

      {cards.isError ? (
        <QueryRetryAlert title="Your cards could not be loaded" query={cards} />
      ) : !cards.data ? (
        <Stack gap="sm" aria-busy="true" aria-label="Loading cards">
          <Skeleton height={72} radius="md" />
          <Skeleton height={72} radius="md" />
        </Stack>
      ) : cards.data.results.length === 0 ? (
        <EmptyListCard icon={IconCreditCardOff} title="No card yet">
          Add a card to pay for the subscription and its renewals.
        </EmptyListCard>
      ) : (
        <Stack gap="sm" component="ul" aria-label="Cards" p={0} m={0} style={{ listStyle: 'none' }}>
          {cards.data.results.map((card) => {
            const name = cardName(card);
            const isDefault = card.is_default || card.id === cards.data.default_payment_method;
            return (
              <Card
                key={card.id}
                component="li"
                withBorder
                padding="md"
                aria-label={name}
                data-testid={`card-${card.last4}`}
              >
                <Group justify="space-between" wrap="wrap">
                  <Group gap="md" wrap="nowrap">
                    <CardBrandMark brand={card.brand} />
                    <Stack gap={0}>
                      <Text fw={600}>
                        {BRAND_NAMES[card.brand]} ending in {card.last4}
                      </Text>
                      <Text size="sm" c="dimmed">
                        Expires {String(card.exp_month).padStart(2, '0')}/{card.exp_year}
                      </Text>
                    </Stack>
                    {isDefault && (
                      <Badge variant="light" color="teal" c="dark.7">
                        Default
                      </Badge>
                    )}
                  </Group>
                  <Group gap="xs">
                    {!isDefault && (
                      <Button
                        variant="default"
                        size="xs"
                        aria-label={`Make ${name} the default card`}
                        loading={makeDefault.isPending && makeDefault.variables === card.id}
                        onClick={() => onMakeDefault(card)}
                      >
                        Make default
                      </Button>
                    )}
                    <Button
                      variant="subtle"
                      color="red.9"
                      // The subtle variant paints its label a lighter red than asked: too pale on white.
                      c="red.9"
                      size="xs"
                      aria-label={`Remove ${name}`}
                      loading={remove.isPending && remove.variables === card.id}
                      onClick={() => void onRemove(card)}
                    >
                      Remove
                    </Button>
                  </Group>
                </Group>
              </Card>
            );
          })}
        </Stack>
      )}
    </Stack>
  );
}
