import { Alert, Anchor, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { RENEWAL_RETRY_DAYS, type Subscription } from '@portolan/contract';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { useAuthStore } from '../../../lib/auth-store';
import { confirmModal } from '../../../lib/confirm';
import { formatDate } from '../../../lib/dates';
import { toast } from '../../../lib/toasts';
import { useOrganizationSubscription, useUnsubscribe } from '../api/subscriptions-api';
import { formatMoney, perPeriod, STATUS_LABELS } from '../format';
import { billingPath } from '../gate-rules';

const date = (iso: string | null) => (iso ? formatDate(iso) : '—');

/** What the period's end means: a trial ends (and only renews onto a saved card), others renew. */
const endLabel = (s: Subscription, running: boolean) => {
  if (s.cancel_at_period_end || !running) return 'Ends on';
  if (s.status === 'TRIALING') return 'Trial ends on';
  return 'Renews on';
};

/** The notices a subscription's state calls for: trial end, failed renewal, pending end. */
function Notices({ subscription: s, orgId }: { subscription: Subscription; orgId: string }) {
  const notices = [];
  if (s.status === 'TRIALING') {
    const price = `${formatMoney(s.amount, s.currency)} / ${perPeriod(s.plan.period)}`;
    notices.push(
      <Alert key="trial" color="blue" icon={<IconInfoCircle size={18} aria-hidden="true" />}>
        Your free trial ends on {date(s.expired_in)}.{' '}
        {s.default_payment_method_id ? (
          <>
            Then the {s.plan.name} plan starts at {price}, charged to your saved card.{' '}
            <Anchor component={Link} to={billingPath(orgId, 'plans')} inherit>
              Choose another plan
            </Anchor>{' '}
            or unsubscribe before then if you do not want it.
          </>
        ) : (
          <>
            No card is saved, so nothing will be charged: the subscription then goes past due, is
            retried for {RENEWAL_RETRY_DAYS.at(-1)} days and expires, and the organization’s pages
            close until a plan is paid.{' '}
            <Anchor component={Link} to={billingPath(orgId, 'plans')} inherit>
              Choose a plan
            </Anchor>{' '}
            or{' '}
            <Anchor component={Link} to={billingPath(orgId, 'cards')} inherit>
              add a card
            </Anchor>{' '}
            to keep your workspaces and members.
          </>
        )}
      </Alert>,
    );
  }
  if (s.status === 'PAST_DUE') {
    notices.push(
      <Alert key="due" color="orange" icon={<IconAlertTriangle size={18} aria-hidden="true" />}>
        The last payment did not go through
        {s.next_retry_at ? `; we will try again on ${date(s.next_retry_at)}` : ''}.{' '}
        <Anchor component={Link} to={billingPath(orgId, 'cards')} inherit>
          Check your cards
        </Anchor>{' '}
        to keep the subscription.
      </Alert>,
    );
  }
  if (s.status === 'CANCELED' || s.status === 'EXPIRED') {
    notices.push(
      <Alert key="ended" color="red" icon={<IconAlertTriangle size={18} aria-hidden="true" />}>
        This subscription has ended.{' '}
        <Anchor component={Link} to={billingPath(orgId, 'plans')} inherit>
          Choose a plan
        </Anchor>{' '}
        to use the organization again.
      </Alert>,
    );
  } else if (s.cancel_at_period_end) {
    notices.push(
      <Alert key="ending" color="yellow" icon={<IconInfoCircle size={18} aria-hidden="true" />}>
        You unsubscribed: the subscription stays active until {date(s.expired_in)} and will not
        renew.
      </Alert>,
    );
  }
  return <>{notices}</>;
}

/** subscription (ps-BillingSubscription): the plan, its state and period, and Unsubscribe. */
export function SubscriptionPage() {
  const { orgId = '' } = useParams();
  const { entry } = useOrganizationSubscription(orgId);
  const me = useAuthStore((s) => s.user?.user_id);
  const unsubscribe = useUnsubscribe(orgId);
  const s = entry?.subscription;

  if (!s) return null;
  const status = STATUS_LABELS[s.status];
  const running = s.status === 'TRIALING' || s.status === 'ACTIVE' || s.status === 'PAST_DUE';
  const isSubscriber = Boolean(me && s.subscriber_id === me);

  const onUnsubscribe = async () => {
    const ok = await confirmModal({
      title: 'Unsubscribe?',
      content: `The ${s.plan.name} plan stays active until ${date(s.expired_in)}, then ends and is not renewed.`,
      confirmLabel: 'Unsubscribe',
      cancelLabel: 'Keep subscription',
      danger: true,
    });
    if (!ok) return;
    unsubscribe.mutate(undefined, {
      onSuccess: (next) =>
        toast.success(`You unsubscribed. The subscription ends on ${date(next.expired_in)}.`),
      onError: (error) => toast.error(errorMessage(error)),
    });
  };

  return (
    <Stack gap="md" component="section" aria-labelledby="billing-subscription-title">
      <Title order={2} fz="h3" id="billing-subscription-title">
        Subscription
      </Title>
      <Notices subscription={s} orgId={orgId} />
      <Card withBorder padding="lg" data-testid="billing-subscription">
        <Stack gap="sm">
          <Group justify="space-between">
            <Group gap="sm">
              <Title order={3} fz="h4">
                {s.plan.name} plan
              </Title>
              <Badge color={status.color} variant="light" c="dark.7">
                {status.label}
              </Badge>
            </Group>
            <Button component={Link} to={billingPath(orgId, 'plans')} variant="default">
              Change plan
            </Button>
          </Group>
          <Group gap="xl">
            <Stack gap={0}>
              <Text size="sm" c="dimmed">
                Amount
              </Text>
              <Text fw={600}>
                {formatMoney(s.amount, s.currency)} / {perPeriod(s.plan.period)}
              </Text>
            </Stack>
            <Stack gap={0}>
              <Text size="sm" c="dimmed">
                Current period
              </Text>
              <Text fw={600}>
                {date(s.current_period_start)} – {date(s.expired_in)}
              </Text>
            </Stack>
            <Stack gap={0}>
              <Text size="sm" c="dimmed">
                {endLabel(s, running)}
              </Text>
              <Text fw={600}>{date(s.expired_in)}</Text>
            </Stack>
          </Group>
          {running && !s.cancel_at_period_end && (
            <Group justify="flex-end">
              {isSubscriber ? (
                <Button
                  color="red.9"
                  variant="outline"
                  loading={unsubscribe.isPending}
                  onClick={() => void onUnsubscribe()}
                >
                  Unsubscribe
                </Button>
              ) : (
                <Text size="sm" c="dimmed">
                  Only the member who subscribed can unsubscribe.
                </Text>
              )}
            </Group>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
