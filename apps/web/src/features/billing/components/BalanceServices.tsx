import { Badge, Card, Stack, Table, Text, Title } from '@mantine/core';
import type { PlanType } from '@portolan/contract';
import { IconListDetails } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { EmptyListCard } from '../../../lib/empty-list-card';
import { ListSkeleton } from '../../../lib/list-skeleton';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { balanceServicesQueryOptions } from '../api/balance-api';
import { formatMoney } from '../format';
import { scrollRegion } from '../../../lib/scroll-region';

/**
 * What draws on the balance: each service a module charges per unit, at what price, and whether
 * the organization's plan includes it (then using it draws nothing).
 */
export function BalanceServices({ planType }: { planType: PlanType | null }) {
  const services = useQuery(balanceServicesQueryOptions());

  return (
    <Stack gap="sm" component="section" aria-labelledby="billing-services-title">
      <Title order={3} fz="h4" id="billing-services-title">
        What draws on your balance
      </Title>
      {services.isError ? (
        <QueryRetryAlert title="The services could not be loaded" query={services} />
      ) : !services.data ? (
        <ListSkeleton label="Loading the services" rows={3} />
      ) : services.data.length === 0 ? (
        <EmptyListCard icon={IconListDetails} title="Nothing draws on the balance yet">
          When a module charges for a service, its price per unit shows up here.
        </EmptyListCard>
      ) : (
        <Card padding={0} withBorder>
          <Table.ScrollContainer
            minWidth={520}
            scrollAreaProps={scrollRegion('Services and prices')}
          >
            <Table verticalSpacing="sm" horizontalSpacing="md" aria-label="Services and prices">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Service</Table.Th>
                  <Table.Th>Price</Table.Th>
                  <Table.Th>Your plan</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {services.data.map((service) => (
                  <Table.Tr key={service.id}>
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {service.name}
                      </Text>
                      {service.description && (
                        <Text size="xs" c="dimmed">
                          {service.description}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                        {formatMoney(service.unit_price, service.currency)} per {service.unit}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {planType && service.included_in.includes(planType) ? (
                        <Badge variant="light" color="teal" c="dark.7">
                          Included in your plan
                        </Badge>
                      ) : (
                        <Text size="sm" c="dimmed">
                          Drawn from your balance
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
    </Stack>
  );
}
