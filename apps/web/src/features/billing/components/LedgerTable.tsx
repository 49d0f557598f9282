import { Badge, Card, Stack, Table, Text } from '@mantine/core';
import { LEDGER_ENTRY_TYPE_LABELS, type LedgerEntry } from '@portolan/contract';
import { formatDate } from '../../../lib/dates';
import { formatMoney, formatSignedMoney } from '../format';
import { LEDGER_TYPE_COLORS, ledgerService, ledgerWho } from '../ledger-format';
import { scrollRegion } from '../../../lib/scroll-region';

/** One page of balance movements, newest first: what, who, how much, and the balance after. */
export function LedgerTable({
  entries,
  count,
  brand,
  busy,
}: {
  entries: LedgerEntry[];
  count: number;
  /** Who the platform's own adjustments are said to come from. */
  brand: string;
  /** Another page or filter is on its way: this one is still shown. */
  busy: boolean;
}) {
  return (
    <Card padding={0} withBorder aria-busy={busy || undefined}>
      <Table.ScrollContainer minWidth={720} scrollAreaProps={scrollRegion('Balance history')}>
        <Table verticalSpacing="sm" horizontalSpacing="md" striped aria-label="Balance history">
          <Table.Caption>
            {count} {count === 1 ? 'movement' : 'movements'}, newest first
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Date</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th>Who</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th ta="right">Balance after</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((entry) => (
              <LedgerRow key={entry.id} entry={entry} brand={brand} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

function LedgerRow({ entry, brand }: { entry: LedgerEntry; brand: string }) {
  const who = ledgerWho(entry, brand);
  const service = ledgerService(entry);
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm">{formatDate(entry.created)}</Text>
      </Table.Td>
      <Table.Td>
        {/* The light badge's own text colour is too pale on white: dark text on the tint. */}
        <Badge variant="light" color={LEDGER_TYPE_COLORS[entry.type]} c="dark.7">
          {LEDGER_ENTRY_TYPE_LABELS[entry.type]}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Stack gap={0}>
          <Text size="sm">{entry.description}</Text>
          {service && (
            <Text size="xs" c="dimmed">
              {service}
            </Text>
          )}
          {entry.reference && (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              Ref. {entry.reference}
            </Text>
          )}
          {entry.refunded_by && (
            <Text size="xs" c="dimmed">
              Refunded
            </Text>
          )}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Stack gap={0}>
          <Text size="sm">{who.name}</Text>
          {who.email && (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {who.email}
            </Text>
          )}
        </Stack>
      </Table.Td>
      <Table.Td ta="right">
        <Text
          size="sm"
          fw={600}
          // Darker shades: the lighter greens and reds are too pale for text on white.
          c={entry.amount < 0 ? 'red.9' : entry.amount > 0 ? 'teal.9' : undefined}
          style={{ whiteSpace: 'nowrap' }}
        >
          {formatSignedMoney(entry.amount, entry.currency)}
        </Text>
      </Table.Td>
      <Table.Td ta="right">
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatMoney(entry.balance_after, entry.currency)}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
