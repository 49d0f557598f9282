import { Anchor, Badge, Card, Group, Stack, Table, Text } from '@mantine/core';
import { SUBSCRIBABLE_EVENT_TYPES, type WebhookEndpoint } from '@portolan/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { WebhookStatus } from './WebhookStatus';
import { PhoneDetail } from '../../../lib/phone-detail';

/** Event badges shown before the rest fold into "+N more". */
const SHOWN_EVENTS = 3;

function EventBadge({ children }: { children: ReactNode }) {
  return (
    <Badge
      variant="light"
      color="blue"
      c="dark.7"
      tt="none"
      fw={500}
      ff="monospace"
      miw="max-content"
    >
      {children}
    </Badge>
  );
}

/** "All events", or a few of them and how many more. */
function Events({ endpoint }: { endpoint: WebhookEndpoint }) {
  const events = endpoint.events;
  if (SUBSCRIBABLE_EVENT_TYPES.every((type) => events.includes(type))) {
    return <EventBadge>All {events.length} events</EventBadge>;
  }
  const more = events.length - SHOWN_EVENTS;
  return (
    <Group gap={4}>
      {events.slice(0, SHOWN_EVENTS).map((type) => (
        <EventBadge key={type}>{type}</EventBadge>
      ))}
      {more > 0 && (
        <Text size="xs" c="dimmed">
          +{more} more ({events.length} events)
        </Text>
      )}
    </Group>
  );
}

/** One line of the phone's summary (the table hides its column there). */
const Detail = (props: { term: string; children: ReactNode }) => (
  <PhoneDetail termWidth={56} {...props} />
);

/**
 * The organization's webhook endpoints: a table from tablet widths up; on a phone each
 * endpoint's events and status are stacked under its URL. The URL opens the endpoint's page.
 */
export function WebhookList({
  endpoints,
  pathOf,
}: {
  endpoints: WebhookEndpoint[];
  /** The page of an endpoint. */
  pathOf: (endpoint: WebhookEndpoint) => string;
}) {
  return (
    <Card padding={0} withBorder>
      <Table.ScrollContainer minWidth={0}>
        <Table
          verticalSpacing="sm"
          horizontalSpacing="md"
          styles={{ td: { verticalAlign: 'top' } }}
        >
          <Table.Caption>Endpoints: {endpoints.length}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Endpoint</Table.Th>
              <Table.Th visibleFrom="md">Events</Table.Th>
              <Table.Th visibleFrom="md">Status</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {endpoints.map((endpoint) => (
              <Table.Tr key={endpoint.id}>
                <Table.Td>
                  <Stack gap={2}>
                    <Anchor
                      component={Link}
                      to={pathOf(endpoint)}
                      fw={600}
                      ff="monospace"
                      size="sm"
                      style={{ overflowWrap: 'anywhere' }}
                    >
                      {endpoint.url}
                    </Anchor>
                    {endpoint.description && (
                      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {endpoint.description}
                      </Text>
                    )}
                  </Stack>
                  <Stack gap={6} mt="sm" hiddenFrom="md">
                    <Detail term="Events">
                      <Events endpoint={endpoint} />
                    </Detail>
                    <Detail term="Status">
                      <WebhookStatus endpoint={endpoint} />
                    </Detail>
                  </Stack>
                </Table.Td>
                <Table.Td visibleFrom="md">
                  <Events endpoint={endpoint} />
                </Table.Td>
                <Table.Td visibleFrom="md">
                  <WebhookStatus endpoint={endpoint} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}
