import { Badge, Stack, Text } from '@mantine/core';
import type { WebhookEndpoint } from '@portolan/contract';
import { formatDateTime } from '../../../lib/dates';

/**
 * Whether an endpoint receives events: on; on but failing (since when); switched off by a member;
 * or switched off by the server after days of failures, with its reason.
 */
export function WebhookStatus({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (!endpoint.enabled) {
    return (
      <Stack gap={2} align="flex-start">
        <Badge variant="outline" color="red" c="dark.7" tt="none" miw="max-content">
          {endpoint.disabled_reason ? 'Switched off by Portolan' : 'Switched off'}
        </Badge>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {endpoint.disabled_reason ?? 'It receives no events until switched on.'}
        </Text>
      </Stack>
    );
  }
  if (endpoint.failing_since) {
    return (
      <Stack gap={2} align="flex-start">
        <Badge variant="light" color="orange" c="dark.7" tt="none" miw="max-content">
          Failing
        </Badge>
        <Text size="xs" c="dimmed">
          Since {formatDateTime(endpoint.failing_since)}
        </Text>
      </Stack>
    );
  }
  return (
    <Badge variant="light" color="teal" c="dark.7" tt="none" miw="max-content">
      On
    </Badge>
  );
}
