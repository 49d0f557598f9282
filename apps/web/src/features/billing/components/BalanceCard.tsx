import { Button, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { balanceQueryOptions } from '../api/balance-api';
import { formatMoney } from '../format';
import { billingPath } from '../gate-rules';

/**
 * The organization's available balance, with the ways on: "Add funds" (left out on the add
 * funds page itself) and "History". The usage and add funds pages show it at the top.
 */
export function BalanceCard({
  orgId,
  withAddFunds = true,
}: {
  orgId: string;
  withAddFunds?: boolean;
}) {
  const balance = useQuery(balanceQueryOptions(orgId));

  if (balance.isError) {
    return <QueryRetryAlert title="Your balance could not be loaded" query={balance} />;
  }
  return (
    <Card withBorder padding="md" component="section" aria-label="Balance">
      <Group justify="space-between" align="center" wrap="wrap" gap="md">
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            Available balance
          </Text>
          {balance.data ? (
            <Text fz={28} fw={700} lh={1.2} data-testid="billing-balance">
              {formatMoney(balance.data.available_balance, balance.data.currency)}
            </Text>
          ) : (
            <Skeleton height={34} width={140} aria-busy="true" aria-label="Loading the balance" />
          )}
        </Stack>
        <Group gap="xs">
          {withAddFunds && (
            <Button component={Link} to={billingPath(orgId, 'fund-packages')}>
              Add funds
            </Button>
          )}
          <Button component={Link} to={billingPath(orgId, 'history')} variant="default">
            History
          </Button>
        </Group>
      </Group>
    </Card>
  );
}
