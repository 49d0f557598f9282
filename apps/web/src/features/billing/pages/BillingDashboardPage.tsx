import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { isUnlimited, LIMIT_RESOURCES, PLAN_LIMIT_KEYS } from '@portolan/contract';
import { Suspense } from 'react';
import { useParams } from 'react-router';
import { lazyPart } from '../../../lib/lazy-part';
import { ListSkeleton } from '../../../lib/list-skeleton';
import { useOrganizationSubscription } from '../api/subscriptions-api';
import { BalanceCard } from '../components/BalanceCard';
import { UsageBar } from '../components/UsageBar';
import { LIMIT_LABELS } from '../format';

/** The balance's usage report with its chart: a chunk of its own, the chart library with it. */
const BalanceUsage = lazyPart(() =>
  import('../components/BalanceUsage').then((m) => m.BalanceUsage),
);

/**
 * dashboard (ps-BillingDashboard): the balance (with the ways to add funds and to its history),
 * what the organization uses against each limit of its plan, and what it drew from the balance
 * (by day, and by service, workspace or member).
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
      <Stack gap="md" component="section" aria-labelledby="billing-spending-title">
        <Stack gap={2}>
          <Title order={2} fz="h3" id="billing-spending-title">
            Balance usage
          </Title>
          <Text size="sm" c="dimmed">
            What was drawn from the balance, net of refunds.
          </Text>
        </Stack>
        <Suspense fallback={<ListSkeleton label="Loading the usage" rows={4} />}>
          <BalanceUsage orgId={orgId} />
        </Suspense>
      </Stack>
    </Stack>
  );
}
