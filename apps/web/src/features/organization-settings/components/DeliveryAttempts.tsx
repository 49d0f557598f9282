import { Badge, Group, Stack, Text } from '@mantine/core';
import type { WebhookAttempt, WebhookDelivery } from '@portolan/contract';
import { formatDateTime } from '../../../lib/dates';

/** The receiver's answer in a few characters: its HTTP status, or that none came. */
export function answerOf(attempt: WebhookAttempt): string {
  return attempt.status_code === null ? 'No answer' : `HTTP ${attempt.status_code}`;
}

/**
 * A delivery without a finished attempt: being sent (an attempt is under way: it counts before it
 * ends) or waiting for its first.
 */
export const notAnsweredYet = (delivery: WebhookDelivery) =>
  delivery.attempt_count > 0 ? 'Being sent' : 'Not sent yet';

const succeeded = (attempt: WebhookAttempt) =>
  attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;

function Attempt({ attempt }: { attempt: WebhookAttempt }) {
  return (
    <Stack gap={4} component="li">
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={600}>
          Attempt {attempt.attempt}
        </Text>
        <Text size="sm">{formatDateTime(attempt.attempted_at)}</Text>
        <Badge
          variant="light"
          color={succeeded(attempt) ? 'teal' : 'red'}
          c="dark.7"
          tt="none"
          miw="max-content"
        >
          {answerOf(attempt)}
        </Badge>
        <Text size="sm" c="dimmed">
          {attempt.duration_ms} ms
        </Text>
      </Group>
      {attempt.error && (
        <Text size="sm" c="red.9" style={{ overflowWrap: 'anywhere' }}>
          {attempt.error}
        </Text>
      )}
      {attempt.response_excerpt && (
        <Text
          component="pre"
          size="xs"
          ff="monospace"
          bg="var(--mantine-color-body)"
          p="xs"
          m={0}
          style={{
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            borderRadius: 'var(--mantine-radius-sm)',
          }}
        >
          {attempt.response_excerpt}
        </Text>
      )}
    </Stack>
  );
}

/** A delivery's attempts, oldest first: when, the answer, how long, its first KiB, the error. */
export function DeliveryAttempts({ delivery }: { delivery: WebhookDelivery }) {
  if (delivery.attempts.length === 0) {
    const due = delivery.next_attempt_at;
    return (
      <Text size="sm" c="dimmed">
        {delivery.attempt_count > 0
          ? 'The first attempt is under way.'
          : `Not sent yet${due ? `: due ${formatDateTime(due)}` : ''}.`}
      </Text>
    );
  }
  return (
    <Stack gap="sm" component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
      {delivery.attempts.map((attempt) => (
        <Attempt key={attempt.attempt} attempt={attempt} />
      ))}
    </Stack>
  );
}
