import { Group, Select, TextInput } from '@mantine/core';
import {
  LEDGER_ENTRY_TYPE_LABELS,
  LEDGER_ENTRY_TYPES,
  type LedgerEntryType,
} from '@portolan/contract';
import type { LedgerFilters } from '../api/balance-api';

const ALL = 'all';
const TYPE_OPTIONS = [
  { value: ALL, label: 'All types' },
  ...LEDGER_ENTRY_TYPES.map((value) => ({ value, label: LEDGER_ENTRY_TYPE_LABELS[value] })),
];

/**
 * The history's filters: a range of days (native date inputs, no date picker package) and the
 * kind of movement. Each bound keeps the other in range where the browser supports it; the
 * server's refusal of a range still shows at the field (`errors`).
 */
export function LedgerFilterBar({
  filters,
  onChange,
  errors,
}: {
  filters: LedgerFilters;
  onChange: (next: LedgerFilters) => void;
  errors: { from_date?: string; to_date?: string };
}) {
  return (
    <Group gap="sm" wrap="wrap" align="flex-start">
      <TextInput
        type="date"
        label="From date"
        value={filters.from}
        max={filters.to || undefined}
        error={errors.from_date}
        onChange={(e) => onChange({ ...filters, from: e.currentTarget.value })}
        style={{ flex: '0 1 180px' }}
      />
      <TextInput
        type="date"
        label="To date"
        value={filters.to}
        min={filters.from || undefined}
        error={errors.to_date}
        onChange={(e) => onChange({ ...filters, to: e.currentTarget.value })}
        style={{ flex: '0 1 180px' }}
      />
      <Select
        label="Type"
        data={TYPE_OPTIONS}
        value={filters.type ?? ALL}
        allowDeselect={false}
        onChange={(value) =>
          onChange({
            ...filters,
            type: !value || value === ALL ? null : (value as LedgerEntryType),
          })
        }
        style={{ flex: '0 1 200px' }}
      />
    </Group>
  );
}
