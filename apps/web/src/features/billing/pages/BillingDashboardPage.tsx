import { Box, Card, Group, Stack, Text, Title } from '@mantine/core';
import { isUnlimited, LIMIT_RESOURCES, PLAN_LIMIT_KEYS } from '@portolan/contract';
import { useParams } from 'react-router';
import { useOrganizationSubscription } from '../api/subscriptions-api';
import { BalanceCard } from '../components/BalanceCard';
import { LIMIT_LABELS } from '../format';

/** The bar turns orange near the limit and red at it: adding more is refused there (spec §5). */
function colorOf(percent: number): string {
  if (percent >= 100) return 'red';
  if (percent >= 80) return 'orange';
  return 'ocean';
}

/**
 * A usage bar. Not Mantine's Progress: the global loading bar uses that one, and sharing it would
 * move it into the chunk every first load preloads.
 */
function UsageBar({ percent, label }: { percent: number; label: string }) {
  const value = Math.round(percent);
  return (
    <Box
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      aria-valuetext={`${value}%`}
      h={8}
      bg="gray.2"
      style={{ borderRadius: 4, overflow: 'hidden' }}
    >
      <Box h="100%" w={`${value}%`} bg={`${colorOf(percent)}.6`} />
    </Box>
  );
}

/**
 * dashboard (ps-BillingDashboard): the balance (with the ways to add funds and to its history),
 * and what the organization uses against each limit of its plan.
 */
export function BillingDashboardPage() {
  const { orgId = '' } = useParams();
  const { entry } = useOrganizationSubscription(orgId);
  if (!entry) return null;

  return (
    <Stack gap="lg">
      <BalanceCard orgId={orgId} />
      <Stack gap="md" component="section" aria-labelledby="billing-usage-title">
        <Title order={2} fz="h3" id="billing-usage-title">
          Usage
        </Title>
        <Text size="sm" c="dimmed">
          Pending invitations count as members.
          {entry.subscription ? ` Limits of the ${entry.subscription.plan.name} plan.` : ''}
        </Text>
        <Stack gap="sm">
          {PLAN_LIMIT_KEYS.map((key) => {
            const limit = entry.limits[key];
            const used = entry.usage[LIMIT_RESOURCES[key]];
            const unlimited = isUnlimited(limit);
            const percent = unlimited || !limit ? 0 : Math.min(100, (used / limit) * 100);
            return (
              <Card key={key} withBorder padding="md" data-testid={`usage-${key}`}>
                <Stack gap={6}>
                  <Group justify="space-between">
                    <Text fw={600}>{LIMIT_LABELS[key]}</Text>
                    <Text size="sm">
                      {unlimited ? `${used} · Unlimited` : `${used} of ${limit}`}
                    </Text>
                  </Group>
                  {!unlimited && (
                    <UsageBar
                      percent={limit === 0 ? 100 : percent}
                      label={`${LIMIT_LABELS[key]}: ${used} of ${limit} used`}
                    />
                  )}
                </Stack>
              </Card>
            );
          })}
        </Stack>
      </Stack>
    </Stack>
  );
}
