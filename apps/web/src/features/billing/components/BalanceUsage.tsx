import { Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import type { UsageGroupBy } from '@portolan/contract';
import { IconChartBarOff, IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage, isApiError } from '../../../lib/api';
import { EmptyListCard } from '../../../lib/empty-list-card';
import { ListSkeleton } from '../../../lib/list-skeleton';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { toast } from '../../../lib/toasts';
import { downloadUsageCsv, usageQueryOptions, type UsageQuery } from '../api/usage-api';
import { UsageChart } from './UsageChart';
import { GROUP_LABELS, UsageGroupsTable } from './UsageGroupsTable';
import { rangeErrors, thisMonth } from './usage-range';

const GROUPS = (Object.keys(GROUP_LABELS) as UsageGroupBy[]).map((value) => ({
  value,
  label: GROUP_LABELS[value],
}));

/** The server's refusal of a date (400 with `from` or `to`), shown at the input. */
function serverRangeErrors(error: unknown): { from?: string; to?: string } | null {
  if (!isApiError(error) || error.status !== 400) return null;
  const errors: { from?: string; to?: string } = {};
  for (const { field, message } of error.fieldErrors) {
    const name = field.split('.').pop();
    if (name === 'from' || name === 'to') errors[name] ??= message;
  }
  return errors.from || errors.to ? errors : null;
}

/**
 * The balance's usage (issue 22 item 4): a range of days and a grouping; the days as a chart,
 * the groups as a table with the total, and the same report as a CSV file. A lazy part of the
 * usage page: the chart library comes with it, never with the page's first load.
 */
export function BalanceUsage({ orgId }: { orgId: string }) {
  const [range, setRange] = useState(thisMonth);
  const [groupBy, setGroupBy] = useState<UsageGroupBy>('service');
  const [downloading, setDownloading] = useState(false);
  const local = rangeErrors(range.from, range.to);
  const valid = !local.from && !local.to;
  const query: UsageQuery = { ...range, group_by: groupBy };
  const usage = useQuery({ ...usageQueryOptions(orgId, query), enabled: valid });
  const server = usage.isError ? serverRangeErrors(usage.error) : null;
  const errors = valid ? (server ?? {}) : local;
  const data = usage.isError || !valid ? undefined : usage.data;
  const empty = data && data.groups.length === 0 && data.total === 0;

  const download = async () => {
    setDownloading(true);
    try {
      await downloadUsageCsv(orgId, query);
    } catch (error) {
      toast.error(
        errorMessage(error, 'The usage report could not be downloaded. Please try again.'),
      );
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Stack gap="md">
      <Group gap="sm" wrap="wrap" align="flex-start">
        <TextInput
          type="date"
          label="From"
          value={range.from}
          max={range.to || undefined}
          error={errors.from}
          onChange={(e) => setRange({ ...range, from: e.currentTarget.value })}
          style={{ flex: '1 1 150px', maxWidth: 190 }}
        />
        <TextInput
          type="date"
          label="To"
          value={range.to}
          min={range.from || undefined}
          error={errors.to}
          onChange={(e) => setRange({ ...range, to: e.currentTarget.value })}
          style={{ flex: '1 1 150px', maxWidth: 190 }}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="usage-group-by-label">
            Group by
          </Text>
          <SegmentedControl
            aria-labelledby="usage-group-by-label"
            data={GROUPS}
            value={groupBy}
            onChange={(value) => setGroupBy(value as UsageGroupBy)}
          />
        </Stack>
      </Group>

      {usage.isError && !server && (
        <QueryRetryAlert title="The usage could not be loaded" query={usage} />
      )}
      {valid && usage.isPending && <ListSkeleton label="Loading the usage" rows={4} />}
      {empty && (
        <EmptyListCard icon={IconChartBarOff} title="No usage in these dates">
          Charges for labels, lookups and reports show here by day as they are made. Try other
          dates.
        </EmptyListCard>
      )}
      {data && !empty && (
        <>
          <UsageChart usage={data} />
          <UsageGroupsTable usage={data} busy={usage.isPlaceholderData} />
        </>
      )}
      {data && (
        <Group justify="flex-end">
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden="true" />}
            loading={downloading}
            onClick={() => void download()}
          >
            Download CSV
          </Button>
        </Group>
      )}
    </Stack>
  );
}
