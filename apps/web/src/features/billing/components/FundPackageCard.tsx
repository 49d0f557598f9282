import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { FundPackage } from '@portolan/contract';
import { formatMoney } from '../format';

/**
 * A package of credit on sale: what it costs, what it adds to the balance, the bonus when it
 * adds more than it costs, and Buy (which opens the gateway's payment page).
 */
export function FundPackageCard({
  pack,
  buying,
  disabled,
  onBuy,
  savedCard,
  payingWithCard = false,
  onBuyWithCard,
}: {
  pack: FundPackage;
  /** This package's checkout is being opened. */
  buying: boolean;
  /** Another package's checkout is: one payment page at a time. */
  disabled: boolean;
  onBuy: () => void;
  /** The saved card to pay with in one click ("Visa ending in 4242"), if the organization has one. */
  savedCard?: string;
  /** This package is being paid with the saved card. */
  payingWithCard?: boolean;
  onBuyWithCard?: () => void;
}) {
  const bonus = pack.credit - pack.price;
  return (
    <Card component="article" withBorder padding="lg" aria-label={pack.name}>
      <Stack gap="sm" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={3} fz="h4">
            {pack.name}
          </Title>
          {bonus > 0 && (
            <Badge variant="light" color="teal" c="dark.7">
              {formatMoney(bonus, pack.currency)} bonus
            </Badge>
          )}
        </Group>
        <Text fz={28} fw={700} lh={1.2}>
          {formatMoney(pack.price, pack.currency)}
        </Text>
        <Text size="sm">Adds {formatMoney(pack.credit, pack.currency)} to your balance</Text>
        {pack.description && (
          <Text size="sm" c="dimmed">
            {pack.description}
          </Text>
        )}
        {savedCard && onBuyWithCard ? (
          <Stack gap={6} mt="auto">
            <Button
              aria-label={`Buy ${pack.name} with ${savedCard}`}
              loading={payingWithCard}
              disabled={disabled || buying}
              onClick={onBuyWithCard}
            >
              Buy with saved card
            </Button>
            <Button
              variant="subtle"
              size="xs"
              aria-label={`Buy ${pack.name} with another card`}
              loading={buying}
              disabled={disabled || payingWithCard}
              onClick={onBuy}
            >
              Use another card
            </Button>
          </Stack>
        ) : (
          <Button
            mt="auto"
            aria-label={`Buy ${pack.name}`}
            loading={buying}
            disabled={disabled}
            onClick={onBuy}
          >
            Buy
          </Button>
        )}
      </Stack>
    </Card>
  );
}
