import { Table } from '@mantine/core';
import { PLAN_LIMIT_KEYS, type Plan } from '@portolan/contract';
import { LIMIT_LABELS, limitText } from '../format';
import { priceText } from './PlanCard';
import { scrollRegion } from '../../../lib/scroll-region';

/** The plans side by side: price and each limit, one column a plan. */
export function PlanComparison({ plans, currentType }: { plans: Plan[]; currentType?: string }) {
  return (
    <Table.ScrollContainer minWidth={560} scrollAreaProps={scrollRegion('Plans compared')}>
      <Table withTableBorder withColumnBorders striped data-testid="plan-comparison">
        <Table.Caption>Plans compared: what each allows</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Plan</Table.Th>
            {plans.map((p) => (
              <Table.Th key={p.type} scope="col">
                {p.name}
                {p.type === currentType ? ' (current)' : ''}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th scope="row">Price</Table.Th>
            {plans.map((p) => (
              <Table.Td key={p.type}>{priceText(p)}</Table.Td>
            ))}
          </Table.Tr>
          {PLAN_LIMIT_KEYS.map((key) => (
            <Table.Tr key={key}>
              <Table.Th scope="row">{LIMIT_LABELS[key]}</Table.Th>
              {plans.map((p) => (
                <Table.Td key={p.type}>{limitText(p.config[key])}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
