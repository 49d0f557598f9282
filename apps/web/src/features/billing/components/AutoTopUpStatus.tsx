import { Alert, Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { AUTO_TOP_UP_MAX_FAILURES, type AutoTopUp } from '@portolan/contract';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/dates';
import { formatMoney } from '../format';
import { billingPath } from '../gate-rules';

const STATUS = {
  PENDING: { label: 'Waiting for the card', color: 'blue' },
  SUCCEEDED: { label: 'Paid', color: 'teal' },
  FAILED: { label: 'Declined', color: 'red' },
} as const;

/** The last automatic top-up (status, amount, when, why it was declined) and the failures in a row. */
export function AutoTopUpStatus({ orgId, setting }: { orgId: string; setting: AutoTopUp }) {
  const last = setting.last_attempt;
  const failures = setting.consecutive_failures;
  const cards = (
    <Anchor component={Link} to={billingPath(orgId, 'cards')} inherit fw={600}>
      Check the default card
    </Anchor>
  );
  return (
    <Stack gap="sm">
      {failures >= AUTO_TOP_UP_MAX_FAILURES && !setting.enabled ? (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={18} aria-hidden="true" />}
          title="Auto top-up was switched off"
        >
          The last {failures} automatic top-ups were declined in a row. {cards}, then switch auto
          top-up on again.
        </Alert>
      ) : failures > 0 ? (
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlertTriangle size={18} aria-hidden="true" />}
          title={
            failures === 1
              ? 'The last automatic top-up was declined'
              : `${failures} automatic top-ups in a row were declined`
          }
        >
          After {AUTO_TOP_UP_MAX_FAILURES} in a row, auto top-up switches itself off. {cards} before
          the balance runs low again.
        </Alert>
      ) : null}
      {last ? (
        <Stack gap={4} aria-label="Last automatic top-up" role="group">
          <Group gap="xs" wrap="wrap">
            <Text size="sm">
              Last automatic top-up: {formatMoney(last.amount, last.currency)} on{' '}
              {formatDateTime(last.created)}
            </Text>
            <Badge variant="light" color={STATUS[last.status].color} c="dark.7">
              {STATUS[last.status].label}
            </Badge>
          </Group>
          {last.status === 'FAILED' && last.failure_reason && (
            <Text size="sm" c="red.9">
              Declined: {last.failure_reason}
            </Text>
          )}
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          No automatic top-up yet.
        </Text>
      )}
    </Stack>
  );
}
