import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Box, Text } from '@mantine/core';
import type { BalanceUsage } from '@portolan/contract';
import { formatMoney } from '../format';

/** "2099-03-07" → "03/07": the days of one report are close enough to drop the year. */
const dayLabel = (day: string) => `${day.slice(5, 7)}/${day.slice(8, 10)}`;

/**
 * What was drawn from the balance each day of the report, as bars (@mantine/charts on recharts;
 * this file's chunk is loaded only with the usage report). The groups' table says the same in
 * words.
 */
export function UsageChart({ usage }: { usage: BalanceUsage }) {
  const data = usage.days.map((d) => ({ day: dayLabel(d.date), amount: d.amount }));
  const money = (value: number) => formatMoney(value, usage.currency);
  return (
    <Box component="figure" m={0} aria-labelledby="usage-chart-caption">
      <Text component="figcaption" id="usage-chart-caption" size="sm" fw={600} mb="xs">
        Spent per day: {money(usage.total)} in all
      </Text>
      <BarChart
        h={240}
        data={data}
        dataKey="day"
        series={[{ name: 'amount', label: 'Spent', color: 'ocean.6' }]}
        valueFormatter={money}
        tickLine="y"
        textColor="gray.7"
        yAxisProps={{ width: 80 }}
        xAxisProps={{ minTickGap: 16 }}
        maxBarWidth={32}
        // Room on the right for the last day's bar and label.
        barChartProps={{ margin: { top: 8, right: 24, bottom: 0, left: 0 } }}
      />
    </Box>
  );
}
