import {
  Badge,
  Button,
  Card,
  Group,
  Stack,
  Table,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { WEBHOOK_DELIVERY_PAGE_SIZE, type WebhookDelivery } from '@portolan/contract';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState, type ReactNode } from 'react';
import { ApiError } from '../../../lib/api';
import { formatDateTime } from '../../../lib/dates';
import { ListSkeleton } from '../../../lib/list-skeleton';
import { PagePagination } from '../../../lib/page-pagination';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { toast, toastFailure } from '../../../lib/toasts';
import { useRetryDelivery, webhookDeliveriesQueryOptions } from '../api/webhook-deliveries-api';
import { answerOf, DeliveryAttempts, notAnsweredYet } from './DeliveryAttempts';
import { PhoneDetail } from '../../../lib/phone-detail';

export const DeliveryLogMessages = {
  retried: (type: string) => `The ${type} delivery is being sent again.`,
  gone: 'That delivery is no longer in the log.',
} as const;

const STATUS: Record<WebhookDelivery['status'], { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'blue' },
  succeeded: { label: 'Delivered', color: 'teal' },
  failed: { label: 'Failed', color: 'red' },
};

function StatusBadge({ delivery }: { delivery: WebhookDelivery }) {
  const { label, color } = STATUS[delivery.status];
  const retryAt = delivery.attempts.length > 0 ? delivery.next_attempt_at : null;
  return (
    <Stack gap={2} align="flex-start">
      <Badge variant="light" color={color} c="dark.7" tt="none" miw="max-content">
        {label}
      </Badge>
      {delivery.status === 'pending' && retryAt && (
        <Text size="xs" c="dimmed">
          Next try {formatDateTime(retryAt)}
        </Text>
      )}
    </Stack>
  );
}

/** The last attempt's answer and how long it took; or that none came back yet. */
function LastAttempt({ delivery }: { delivery: WebhookDelivery }) {
  const last = delivery.attempts.at(-1);
  if (!last) return <Text size="sm">{notAnsweredYet(delivery)}</Text>;
  return (
    <Text size="sm">
      {answerOf(last)} · {last.duration_ms} ms
    </Text>
  );
}

/** One line of the phone's summary (the table hides its column there). */
const Detail = (props: { term: string; children: ReactNode }) => (
  <PhoneDetail termWidth={64} {...props} />
);

/** Columns of a row, for the attempts' row under it. */
const COLUMNS = 5;

/**
 * An endpoint's delivery log, newest first, a page at a time: each delivery's event, time,
 * status, attempts and last answer; its attempts open under it; a failed one can be sent again.
 */
export function WebhookDeliveryLog({ orgId, endpointId }: { orgId: string; endpointId: string }) {
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const log = useQuery(webhookDeliveriesQueryOptions(orgId, endpointId, page));
  const retry = useRetryDelivery(orgId, endpointId);

  const toggle = (id: string) =>
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const onRetry = async (delivery: WebhookDelivery) => {
    try {
      await retry.mutateAsync(delivery);
      toast.success(DeliveryLogMessages.retried(delivery.event_type));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) toast.info(DeliveryLogMessages.gone);
      else toastFailure(error);
    }
  };

  if (log.isPending) return <ListSkeleton label="Loading the deliveries" rows={3} />;
  if (log.isError)
    return <QueryRetryAlert title="The deliveries could not be loaded" query={log} />;
  const deliveries = log.data.results;
  if (deliveries.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No deliveries yet. Each event the endpoint receives shows here with its attempts; send a
        test event to try it.
      </Text>
    );
  }

  return (
    <Stack gap="md">
      <Card padding={0} withBorder>
        <Table.ScrollContainer minWidth={0}>
          <Table
            verticalSpacing="xs"
            horizontalSpacing="sm"
            styles={{ td: { verticalAlign: 'top' } }}
          >
            <Table.Caption>Deliveries: {log.data.count}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Event</Table.Th>
                <Table.Th visibleFrom="md">Status</Table.Th>
                <Table.Th visibleFrom="md">Attempts</Table.Th>
                <Table.Th visibleFrom="md">Last answer</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {deliveries.map((delivery) => {
                const expanded = open.has(delivery.id);
                const attemptsId = `delivery-attempts-${delivery.id}`;
                const when = formatDateTime(delivery.created_at);
                return (
                  <Fragment key={delivery.id}>
                    <Table.Tr>
                      <Table.Td>
                        <UnstyledButton
                          onClick={() => toggle(delivery.id)}
                          aria-expanded={expanded}
                          aria-controls={expanded ? attemptsId : undefined}
                        >
                          <Group gap={6} wrap="nowrap" align="flex-start">
                            {expanded ? (
                              <IconChevronDown size={16} aria-hidden="true" />
                            ) : (
                              <IconChevronRight size={16} aria-hidden="true" />
                            )}
                            <Stack gap={0}>
                              <Text size="sm" ff="monospace" fw={600}>
                                {delivery.event_type}
                              </Text>
                              <Text size="xs" c="dimmed">
                                {when}
                              </Text>
                            </Stack>
                          </Group>
                        </UnstyledButton>
                        <Stack gap={4} mt="xs" hiddenFrom="md">
                          <Detail term="Status">
                            <StatusBadge delivery={delivery} />
                          </Detail>
                          <Detail term="Attempts">
                            <Text size="sm">{delivery.attempt_count}</Text>
                          </Detail>
                          <Detail term="Answer">
                            <LastAttempt delivery={delivery} />
                          </Detail>
                        </Stack>
                      </Table.Td>
                      <Table.Td visibleFrom="md">
                        <StatusBadge delivery={delivery} />
                      </Table.Td>
                      <Table.Td visibleFrom="md">
                        <Text size="sm">{delivery.attempt_count}</Text>
                      </Table.Td>
                      <Table.Td visibleFrom="md">
                        <LastAttempt delivery={delivery} />
                      </Table.Td>
                      <Table.Td>
                        {delivery.status === 'failed' && (
                          <Group justify="flex-end">
                            <Button
                              variant="default"
                              size="xs"
                              aria-label={`Retry ${delivery.event_type} of ${when}`}
                              loading={retry.isPending && retry.variables?.id === delivery.id}
                              onClick={() => void onRetry(delivery)}
                            >
                              Retry
                            </Button>
                          </Group>
                        )}
                      </Table.Td>
                    </Table.Tr>
                    {expanded && (
                      <Table.Tr id={attemptsId}>
                        <Table.Td colSpan={COLUMNS} bg="gray.0">
                          <DeliveryAttempts delivery={delivery} />
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
      <PagePagination
        total={Math.ceil(log.data.count / WEBHOOK_DELIVERY_PAGE_SIZE)}
        page={page}
        onChange={setPage}
      />
    </Stack>
  );
}
