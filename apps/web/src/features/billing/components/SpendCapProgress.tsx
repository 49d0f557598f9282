import { Stack, Text } from '@mantine/core';
import type { SpendCap } from '@portolan/contract';
import { formatMoney } from '../format';
import { UsageBar } from './UsageBar';

/** MM/DD/YYYY of a UTC instant as the server counts it (a period starts at 00:00 UTC). */
export function utcDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const mm = String(d.getUTCMonth() + 1).padStart(2, '0');
  const dd = String(d.getUTCDate()).padStart(2, '0');
  return `${mm}/${dd}/${d.getUTCFullYear()}`;
}

/** What was spent this month against the cap: a sentence, and a bar when there is a cap. */
export function SpendCapProgress({ cap, name }: { cap: SpendCap; name: string }) {
  const spent = formatMoney(cap.spent_this_period, cap.currency);
  const since = utcDate(cap.period_start);
  if (cap.monthly_limit === null) {
    return (
      <Text size="sm">
        {spent} spent since {since}. No cap.
      </Text>
    );
  }
  const limit = formatMoney(cap.monthly_limit, cap.currency);
  const percent = cap.monthly_limit === 0 ? 100 : (cap.spent_this_period / cap.monthly_limit) * 100;
  return (
    <Stack gap={6}>
      <Text size="sm">
        {spent} of {limit} spent since {since}.
      </Text>
      <UsageBar percent={percent} label={`${name}: ${spent} of ${limit} spent this month`} />
    </Stack>
  );
}
