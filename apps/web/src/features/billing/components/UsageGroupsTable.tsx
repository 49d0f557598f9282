import { Card, Stack, Table, Text } from '@mantine/core';
import type { BalanceUsage, UsageGroupBy } from '@portolan/contract';
import { formatMoney } from '../format';
import { PhoneDetail } from '../../../lib/phone-detail';

export const GROUP_LABELS: Record<UsageGroupBy, string> = {
  service: 'Service',
  client: 'Workspace',
  user: 'Member',
};

const count = (n: number) => n.toLocaleString('en-US');

/**
 * The report's groups, largest first, with the total under them. On a phone the charges and
 * units stack under the name; the amount keeps its column.
 */
export function UsageGroupsTable({ usage, busy }: { usage: BalanceUsage; busy: boolean }) {
  const what = GROUP_LABELS[usage.group_by];
  const money = (n: number) => formatMoney(n, usage.currency);
  const charges = usage.groups.reduce((sum, g) => sum + g.charges, 0);
  const quantity = usage.groups.reduce((sum, g) => sum + g.quantity, 0);
  return (
    <Card padding={0} withBorder aria-busy={busy || undefined}>
      <Table.ScrollContainer minWidth={0}>
        <Table
          verticalSpacing="sm"
          horizontalSpacing="md"
          striped
          aria-label={`Usage by ${what.toLowerCase()}`}
          styles={{ td: { verticalAlign: 'top' } }}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{what}</Table.Th>
              <Table.Th ta="right" visibleFrom="sm">
                Charges
              </Table.Th>
              <Table.Th ta="right" visibleFrom="sm">
                Units
              </Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {usage.groups.map((g) => (
              <Table.Tr key={g.key ?? '(none)'}>
                <Table.Td>
                  <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {g.label}
                  </Text>
                  <Stack gap={2} mt={4} hiddenFrom="sm">
                    <PhoneDetail termWidth={84} term="Charges">
                      <Text size="sm">{count(g.charges)}</Text>
                    </PhoneDetail>
                    <PhoneDetail termWidth={84} term="Units">
                      <Text size="sm">{count(g.quantity)}</Text>
                    </PhoneDetail>
                  </Stack>
                </Table.Td>
                <Table.Td ta="right" visibleFrom="sm">
                  <Text size="sm">{count(g.charges)}</Text>
                </Table.Td>
                <Table.Td ta="right" visibleFrom="sm">
                  <Text size="sm">{count(g.quantity)}</Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                    {money(g.amount)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th scope="row">Total</Table.Th>
              <Table.Td ta="right" visibleFrom="sm">
                <Text size="sm" fw={600}>
                  {count(charges)}
                </Text>
              </Table.Td>
              <Table.Td ta="right" visibleFrom="sm">
                <Text size="sm" fw={600}>
                  {count(quantity)}
                </Text>
              </Table.Td>
              <Table.Td ta="right">
                <Text size="sm" fw={700} style={{ whiteSpace: 'nowrap' }}>
                  {money(usage.total)}
                </Text>
              </Table.Td>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}
