import { ErrorCode, spendPeriodStart, type SpendCap } from '@portolan/contract';
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { billingAccounts, workspaceSpendCaps } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { AccountRow } from './account.ts';

/**
 * Monthly spend caps (issue 22 item 2): the organization's on its billing account, a workspace's
 * in workspace_spend_caps. Each counts what its calendar month (UTC) has charged, net of refunds
 * of that month's charges. Counted and checked only under the billing account's row lock, which
 * every charge and refund holds, so 50 charges at once let through exactly what fits.
 */

type WorkspaceCapRow = typeof workspaceSpendCaps.$inferSelect;

/** What a counter holds for the month of `now`: a counter of an older month has spent nothing. */
const spentIn = (periodStart: Date | null, spent: number, now: Date) =>
  periodStart?.getTime() === spendPeriodStart(now).getTime() ? spent : 0;

export const organizationSpent = (account: AccountRow, now: Date) =>
  spentIn(account.spend_period_start, account.spent_this_period, now);

const spendCapReached = (
  scope: 'organization' | 'workspace',
  limit: number,
  spent: number,
  amount: number,
) =>
  new AppError(
    ErrorCode.SPEND_CAP_REACHED,
    scope === 'organization'
      ? 'This charge would pass the organization’s monthly spend cap. Raise the cap in the wallet settings, or wait for next month.'
      : 'This charge would pass the workspace’s monthly spend cap. Raise the cap in the wallet settings, or wait for next month.',
    { scope, limit, spent, amount },
  );

/** A workspace's cap row, locked for the rest of the transaction (after the account's lock). */
async function lockWorkspaceCap(tx: Tx, clientId: string): Promise<WorkspaceCapRow | undefined> {
  const [row] = await tx
    .select()
    .from(workspaceSpendCaps)
    .where(eq(workspaceSpendCaps.client_id, clientId))
    .for('update');
  return row;
}

/**
 * Refuses a charge of `amount` that would pass the organization's cap or the workspace's
 * (402 SPEND_CAP_REACHED, details {scope, limit, spent, amount}). The caller holds the account.
 */
export async function assertWithinCaps(
  tx: Tx,
  account: AccountRow,
  clientId: string | null,
  amount: number,
  now: Date,
): Promise<void> {
  const spent = organizationSpent(account, now);
  if (account.spend_cap !== null && spent + amount > account.spend_cap)
    throw spendCapReached('organization', account.spend_cap, spent, amount);
  if (!clientId) return;
  const cap = await lockWorkspaceCap(tx, clientId);
  if (cap?.monthly_limit == null) return;
  const workspaceSpent = spentIn(cap.period_start, cap.spent, now);
  if (workspaceSpent + amount > cap.monthly_limit)
    throw spendCapReached('workspace', cap.monthly_limit, workspaceSpent, amount);
}

/**
 * Counts `amount` (a charge: positive; a refund: negative) in the month of `now`, on the
 * organization's counter and the workspace's. A refund counts only against the month of its
 * charge (`chargedAt`): a refund of last month's charge leaves this month's spending alone.
 */
export async function countSpend(
  tx: Tx,
  account: AccountRow,
  clientId: string | null,
  amount: number,
  now: Date,
  chargedAt: Date = now,
): Promise<void> {
  const period = spendPeriodStart(now);
  if (spendPeriodStart(chargedAt).getTime() !== period.getTime()) return;
  await tx
    .update(billingAccounts)
    .set({
      spend_period_start: period,
      spent_this_period: Math.max(0, organizationSpent(account, now) + amount),
    })
    .where(eq(billingAccounts.organization_id, account.organization_id));
  if (!clientId) return;
  // A workspace's first charge makes its counter; a counter of an older month starts again.
  await tx
    .insert(workspaceSpendCaps)
    .values({
      client_id: clientId,
      organization_id: account.organization_id,
      period_start: period,
      spent: Math.max(0, amount),
    })
    .onConflictDoUpdate({
      target: workspaceSpendCaps.client_id,
      set: {
        period_start: period,
        spent: sql`greatest(0, case when ${workspaceSpendCaps.period_start} = ${period.toISOString()}::timestamptz
          then ${workspaceSpendCaps.spent} else 0 end + ${amount}::integer)`,
      },
    });
}

/** A cap as GET …/spend-cap/ answers it. */
export function toSpendCapDto(
  cap: { monthly_limit: number | null; period_start: Date | null; spent: number },
  currency: string,
  now: Date,
): SpendCap {
  return {
    monthly_limit: cap.monthly_limit,
    spent_this_period: spentIn(cap.period_start, cap.spent, now),
    period_start: spendPeriodStart(now).toISOString(),
    currency,
  };
}

/** The organization's cap and spending (an organization without an account has neither). */
export async function readOrganizationCap(db: Db | Tx, organizationId: string, now: Date) {
  const [row] = await db
    .select({
      monthly_limit: billingAccounts.spend_cap,
      period_start: billingAccounts.spend_period_start,
      spent: billingAccounts.spent_this_period,
      currency: billingAccounts.currency,
    })
    .from(billingAccounts)
    .where(eq(billingAccounts.organization_id, organizationId));
  return toSpendCapDto(
    row ?? { monthly_limit: null, period_start: null, spent: 0 },
    row?.currency ?? 'usd',
    now,
  );
}
