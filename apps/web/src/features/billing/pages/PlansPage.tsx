import { Group, SegmentedControl, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { Plan } from '@portolan/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { useBillingStore } from '../../../lib/billing-store';
import { usePublicConfig } from '../../../lib/config';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { toast } from '../../../lib/toasts';
import { useSubscribeCheckout } from '../api/checkout-api';
import { planConfigsQueryOptions } from '../api/plans-api';
import { useOrganizationSubscription } from '../api/subscriptions-api';
import { PlanCard } from '../components/PlanCard';
import { PlanChangeModal } from '../components/PlanChangeModal';
import { PlanComparison } from '../components/PlanComparison';
import { planAction } from '../plan-actions';

type View = 'cards' | 'compare';

/**
 * plans (ps-BillingPlans): a card per plan with what the caller may do (Subscribe, Upgrade,
 * Downgrade, Email Now for CUSTOM), or the plans compared in a table. Subscribing goes to the
 * hosted payment page; a change of plan opens its preview first.
 */
export function PlansPage() {
  const { orgId = '' } = useParams();
  const plans = useQuery(planConfigsQueryOptions());
  const { entry } = useOrganizationSubscription(orgId);
  const config = usePublicConfig();
  const registerPlan = useBillingStore((s) => s.registerPlan);
  const subscribe = useSubscribeCheckout(orgId);
  const [view, setView] = useState<View>('cards');
  const [changing, setChanging] = useState<{ plan: Plan; kind: 'upgrade' | 'downgrade' } | null>(
    null,
  );
  const subscription = entry?.subscription ?? null;

  const onSubscribe = (plan: Plan) =>
    subscribe.mutate(plan.type, { onError: (error) => toast.error(errorMessage(error)) });

  return (
    <Stack gap="md" component="section" aria-labelledby="billing-plans-title">
      <Group justify="space-between">
        <Title order={2} fz="h3" id="billing-plans-title">
          Plans
        </Title>
        <SegmentedControl
          aria-label="Plans view"
          value={view}
          onChange={(v) => setView(v as View)}
          data={[
            { value: 'cards', label: 'Plans' },
            { value: 'compare', label: 'Compare' },
          ]}
        />
      </Group>
      {!subscription && (
        <Text size="sm" c="dimmed">
          Your organization has no subscription yet. Choose a plan to start.
        </Text>
      )}

      {plans.isError ? (
        <QueryRetryAlert title="The plans could not be loaded" query={plans} />
      ) : !plans.data ? (
        <SimpleGrid cols={{ base: 1, sm: 2, xl: 4 }} aria-busy="true" aria-label="Loading plans">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} height={280} radius="md" />
          ))}
        </SimpleGrid>
      ) : view === 'compare' ? (
        <PlanComparison plans={plans.data} currentType={subscription?.plan.type} />
      ) : (
        // Four columns only when each is wide enough for "Subscribe to Professional" in one line.
        <SimpleGrid cols={{ base: 1, sm: 2, xl: 4 }}>
          {plans.data.map((plan) => {
            const action = planAction(plan, subscription, plans.data);
            return (
              <PlanCard
                key={plan.id}
                plan={plan}
                action={action}
                supportEmail={config.data?.support_email}
                chosenAtSignUp={plan.type === registerPlan}
                busy={subscribe.isPending && subscribe.variables === plan.type}
                onSubscribe={onSubscribe}
                onChange={(p) =>
                  setChanging({
                    plan: p,
                    kind: action.kind === 'upgrade' ? 'upgrade' : 'downgrade',
                  })
                }
              />
            );
          })}
        </SimpleGrid>
      )}

      <PlanChangeModal
        orgId={orgId}
        plan={changing?.plan ?? null}
        kind={changing?.kind ?? 'upgrade'}
        onClose={() => setChanging(null)}
      />
    </Stack>
  );
}
