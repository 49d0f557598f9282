import type { BalanceAlerts, SpendCap } from '@portolan/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { billingAccounts, workspaceSpendCaps } from '../../db/schema/index.ts';
import { lockTenant, type Actor } from '../access/index.ts';
import { lockAccount, readBalance } from './account.ts';
import { recordSettingChange } from './activity.ts';
import { toSpendCapDto } from './spending.ts';

/**
 * Setting the caps and the alert thresholds: each write in one transaction, in the lock order of
 * tenant writes (organization, workspace, billing account), so it never interleaves with a
 * charge that is deciding against the old value. Each is recorded in the organization's activity
 * log with the value it replaced.
 */

export async function setOrganizationCap(
  ctx: AppContext,
  actor: Actor,
  monthlyLimit: number | null,
): Promise<SpendCap> {
  const organizationId = actor.organization.id;
  return ctx.db.transaction(async (tx) => {
    await lockTenant(tx, { organizationId });
    const before = await lockAccount(tx, organizationId);
    const [account] = await tx
      .update(billingAccounts)
      .set({ spend_cap: monthlyLimit })
      .where(eq(billingAccounts.organization_id, organizationId))
      .returning();
    const { spend_cap, spend_period_start, spent_this_period, currency } = account!;
    await recordSettingChange(ctx, tx, actor, {
      action: 'UPDATE_SPEND_CAP',
      data: {
        scope: 'organization',
        monthly_limit: spend_cap,
        previous_monthly_limit: before.spend_cap,
        currency,
      },
    });
    return toSpendCapDto(
      { monthly_limit: spend_cap, period_start: spend_period_start, spent: spent_this_period },
      currency,
      ctx.clock.now(),
    );
  });
}

/** The workspace the kernel found on the route (clientId), as the caps see it. */
const workspaceOf = (actor: Actor) => ({
  organizationId: actor.organization.id,
  clientId: actor.client!.id,
  clientName: actor.client!.name,
});

export async function readWorkspaceCap(ctx: AppContext, actor: Actor): Promise<SpendCap> {
  const { organizationId, clientId } = workspaceOf(actor);
  const [row] = await ctx.db
    .select()
    .from(workspaceSpendCaps)
    .where(eq(workspaceSpendCaps.client_id, clientId));
  const { currency } = await readBalance(ctx.db, organizationId);
  return toSpendCapDto(
    row ?? { monthly_limit: null, period_start: null, spent: 0 },
    currency,
    ctx.clock.now(),
  );
}

export async function setWorkspaceCap(
  ctx: AppContext,
  actor: Actor,
  monthlyLimit: number | null,
): Promise<SpendCap> {
  const { organizationId, clientId, clientName } = workspaceOf(actor);
  return ctx.db.transaction(async (tx) => {
    await lockTenant(tx, { organizationId, clientId });
    const account = await lockAccount(tx, organizationId);
    const [before] = await tx
      .select({ monthly_limit: workspaceSpendCaps.monthly_limit })
      .from(workspaceSpendCaps)
      .where(eq(workspaceSpendCaps.client_id, clientId));
    const [row] = await tx
      .insert(workspaceSpendCaps)
      .values({ client_id: clientId, organization_id: organizationId, monthly_limit: monthlyLimit })
      .onConflictDoUpdate({
        target: workspaceSpendCaps.client_id,
        set: { monthly_limit: monthlyLimit },
      })
      .returning();
    await recordSettingChange(ctx, tx, actor, {
      action: 'UPDATE_SPEND_CAP',
      data: {
        scope: 'client',
        client_id: clientId,
        client_name: clientName,
        monthly_limit: monthlyLimit,
        previous_monthly_limit: before?.monthly_limit ?? null,
        currency: account.currency,
      },
      clientId: clientId,
    });
    return toSpendCapDto(row!, account.currency, ctx.clock.now());
  });
}

const toAlertsDto = (thresholds: readonly number[], currency: string): BalanceAlerts => ({
  thresholds: [...thresholds].sort((a, b) => b - a),
  currency,
});

export async function readAlerts(db: Db, organizationId: string): Promise<BalanceAlerts> {
  const [row] = await db
    .select({
      thresholds: billingAccounts.low_balance_thresholds,
      currency: billingAccounts.currency,
    })
    .from(billingAccounts)
    .where(eq(billingAccounts.organization_id, organizationId));
  return toAlertsDto(row?.thresholds ?? [], row?.currency ?? 'usd');
}

export async function setAlerts(
  ctx: AppContext,
  actor: Actor,
  thresholds: number[],
): Promise<BalanceAlerts> {
  const organizationId = actor.organization.id;
  return ctx.db.transaction(async (tx) => {
    await lockTenant(tx, { organizationId });
    const account = await lockAccount(tx, organizationId);
    const sorted = [...thresholds].sort((a, b) => b - a);
    await tx
      .update(billingAccounts)
      .set({ low_balance_thresholds: sorted })
      .where(eq(billingAccounts.organization_id, organizationId));
    await recordSettingChange(ctx, tx, actor, {
      action: 'UPDATE_BALANCE_ALERTS',
      data: {
        thresholds: sorted,
        previous_thresholds: account.low_balance_thresholds,
        currency: account.currency,
      },
    });
    return toAlertsDto(sorted, account.currency);
  });
}
