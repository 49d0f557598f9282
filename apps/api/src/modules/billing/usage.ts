import {
  USAGE_MAX_DAYS,
  type BalanceUsage,
  type BalanceUsageGroup,
  type BalanceUsageQuery,
  type UsageGroupBy,
} from '@portolan/contract';
import { and, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import {
  balanceServices,
  billingAccounts,
  clients,
  ledgerEntries,
  users,
} from '../../db/schema/index.ts';
import { days } from '../../lib/clock.ts';
import { fieldError } from '../../lib/errors.ts';

/**
 * The usage report (issue 22 item 4): what the organization's charges drew from the balance in a
 * window of whole days (UTC), net of refunds, per service, workspace or member, and per day.
 * A refund counts on its own day, for its charge's service, workspace and member (so a refund of
 * an earlier month's charge lowers this window's total). Two statements whatever the window or
 * the number of groups; both read the ledger through its (organization_id, [type,] created_at)
 * indexes.
 */

/** The window asked for, both days included (YYYY-MM-DD). */
export interface UsageWindow {
  from: string;
  to: string;
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);

/**
 * from and to, defaulted to the first day of the current month and today (UTC). The schema
 * checks a window whose ends are both given; a defaulted end is checked here, naming the end the
 * caller gave.
 */
export function usageWindow(query: BalanceUsageQuery, now: Date): UsageWindow {
  const today = dayOf(now);
  const from = query.from ?? `${today.slice(0, 8)}01`;
  const to = query.to ?? today;
  if (from > to)
    throw query.to
      ? fieldError(
          'to',
          'The end date must be on or after the start date (the first day of this month unless you give one).',
        )
      : fieldError(
          'from',
          'The start date must be on or before the end date (today unless you give one).',
        );
  if ((dayStart(to).getTime() - dayStart(from).getTime()) / days(1) >= USAGE_MAX_DAYS)
    throw fieldError('from', `Ask for at most ${USAGE_MAX_DAYS} days at once.`);
  return { from, to };
}

/** The charge a refund gives back: a refund counts for its charge's service, workspace, member. */
const refunded = alias(ledgerEntries, 'refunded');
type Attribute = 'service_id' | 'client_id' | 'created_by';
const ofCharge = (column: Attribute) =>
  sql`case when ${ledgerEntries.refund_of} is null then ${ledgerEntries[column]} else ${refunded[column]} end`;

/** Each grouping: what its key is, and the label of a key (the last join names it). */
const GROUPINGS: Record<
  UsageGroupBy,
  {
    key: SQL;
    label: SQL;
    join: { table: typeof balanceServices | typeof clients | typeof users; on: SQL };
  }
> = {
  service: {
    key: sql`${balanceServices.key}`,
    label: sql`coalesce(${balanceServices.name}, 'Unknown service')`,
    join: { table: balanceServices, on: sql`${balanceServices.id} = ${ofCharge('service_id')}` },
  },
  client: {
    key: sql`${clients.id}::text`,
    label: sql`coalesce(${clients.name}, 'No workspace')`,
    join: { table: clients, on: sql`${clients.id} = ${ofCharge('client_id')}` },
  },
  user: {
    key: sql`${users.id}::text`,
    label: sql`coalesce(nullif(concat_ws(' ', nullif(trim(${users.first_name}), ''), nullif(trim(${users.last_name}), '')), ''), ${users.email}, 'Former member')`,
    join: { table: users, on: sql`${users.id} = ${ofCharge('created_by')}` },
  },
};

/** Minor units drawn (charges positive, refunds negative); bigint sums read as numbers. */
const drawn = sql`-sum(${ledgerEntries.amount})`.mapWith(Number);

/** The usage of the organization in the window, grouped as asked. */
export async function usageReport(
  db: Db,
  organizationId: string,
  groupBy: UsageGroupBy,
  window: UsageWindow,
): Promise<BalanceUsage> {
  // The filter of both statements: a range of the ledger's (organization_id, [type,] created_at) indexes.
  const where = and(
    eq(ledgerEntries.organization_id, organizationId),
    inArray(ledgerEntries.type, ['charge', 'refund']),
    gte(ledgerEntries.created_at, dayStart(window.from)),
    lt(ledgerEntries.created_at, new Date(dayStart(window.to).getTime() + days(1))),
  );
  const grouping = GROUPINGS[groupBy];
  const amount = drawn.as('amount');
  const label = sql<string>`${grouping.label}`.as('label');
  const [groups, perDay] = await Promise.all([
    db
      .select({
        key: sql<string | null>`${grouping.key}`.as('key'),
        label,
        amount,
        quantity:
          sql`sum(case when ${ledgerEntries.type} = 'charge' then coalesce(${ledgerEntries.quantity}, 0) else -coalesce(${ledgerEntries.quantity}, 0) end)`
            .mapWith(Number)
            .as('quantity'),
        charges: sql`count(*) filter (where ${ledgerEntries.type} = 'charge')`
          .mapWith(Number)
          .as('charges'),
      })
      .from(ledgerEntries)
      .leftJoin(refunded, eq(refunded.id, ledgerEntries.refund_of))
      .leftJoin(grouping.join.table, grouping.join.on)
      .where(where)
      .groupBy(grouping.key, grouping.label)
      // Output names: "key" is also a column of balance_services, and ORDER BY prefers the output's.
      .orderBy(sql`"amount" desc, "label" asc, "key" asc nulls last`),
    dailyTotals(db, organizationId, where, window),
  ]);
  return {
    from: window.from,
    to: window.to,
    group_by: groupBy,
    currency: perDay.currency,
    total: groups.reduce((sum, g) => sum + g.amount, 0),
    groups: groups satisfies BalanceUsageGroup[],
    days: perDay.days,
  };
}

/**
 * Every day of the window with what was drawn on it (0 included), oldest first, and the
 * account's currency, in one statement: the series of days is the database's.
 */
async function dailyTotals(
  db: Db,
  organizationId: string,
  where: SQL | undefined,
  window: UsageWindow,
): Promise<{ currency: string; days: { date: string; amount: number }[] }> {
  // Both drivers (node-postgres, PGlite) answer a raw statement's rows as `rows`.
  const result = (await db.execute(sql`
    with spent as (
      select (${ledgerEntries.created_at} at time zone 'UTC')::date as day,
             -sum(${ledgerEntries.amount}) as amount
      from ${ledgerEntries}
      where ${where}
      group by 1
    )
    select to_char(d.day, 'YYYY-MM-DD') as date,
           coalesce(spent.amount, 0)::text as amount,
           (select ${billingAccounts.currency} from ${billingAccounts}
             where ${billingAccounts.organization_id} = ${organizationId}) as currency
    from generate_series(${window.from}::timestamp, ${window.to}::timestamp, interval '1 day') as d(day)
    left join spent on spent.day = d.day::date
    order by d.day`)) as unknown as {
    rows: { date: string; amount: string; currency: string | null }[];
  };
  return {
    currency: result.rows[0]?.currency ?? 'usd',
    days: result.rows.map((r) => ({ date: r.date, amount: Number(r.amount) })),
  };
}

// ---- CSV -------------------------------------------------------------------------------------

/** The CSV's columns, in order. */
const USAGE_CSV_HEADER = ['group', 'key', 'label', 'amount', 'currency', 'quantity', 'charges'];

/** Minor units as major units with two decimals, without floating point: -1234 → "-12.34". */
function majorUnits(minor: number): string {
  const abs = Math.abs(minor);
  return `${minor < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * A CSV field as the activities export writes it (portolan_csv_field): text a spreadsheet would
 * run as a formula (= + - @, a tab or a carriage return first) is prefixed with ', and a field
 * with a quote, a comma or a line break is quoted with its quotes doubled.
 */
function csvText(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The report as CSV: a header, then one line per group, largest first; CRLF line ends. */
export function usageCsv(usage: BalanceUsage): string {
  const lines = usage.groups.map((g) =>
    [
      usage.group_by,
      csvText(g.key ?? ''),
      csvText(g.label),
      majorUnits(g.amount),
      csvText(usage.currency),
      String(g.quantity),
      String(g.charges),
    ].join(','),
  );
  return [USAGE_CSV_HEADER.join(','), ...lines].map((line) => `${line}\r\n`).join('');
}

/** usage-<from>-<to>-by-<group>.csv: the name the download is saved under. */
export const usageCsvFileName = (usage: Pick<BalanceUsage, 'from' | 'to' | 'group_by'>) =>
  `usage-${usage.from}-${usage.to}-by-${usage.group_by}.csv`;
