import {
  ErrorCode,
  type AutoTopUp,
  type AutoTopUpAttempt,
  type AutoTopUpUpdate,
} from '@portolan/contract';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db, Tx } from '../../db/client.ts';
import { autoTopUps, billingAccounts, fundPackages } from '../../db/schema/index.ts';
import { conflict, fieldError } from '../../lib/errors.ts';
import { lockTenant, type Actor } from '../access/index.ts';
import { lockAccount, type AccountRow } from './account.ts';
import { recordSettingChange } from './activity.ts';
import { defaultCard } from './renewal.ts';
import { findSubscription } from './subscription-repo.ts';

/**
 * Auto top-up (issue 22 item 1): when a charge takes the balance below the organization's
 * threshold, one top-up of its chosen fund package is asked for, in the charge's transaction, and
 * paid off-session with the default card by the worker (auto-top-up-worker.ts). The settings are
 * columns of the billing account, so they change under the same row lock as the balance.
 */

export type AutoTopUpRow = typeof autoTopUps.$inferSelect;

/** The NOTIFY channel a new automatic top-up is announced on, at commit: the workers wake. */
export const AUTO_TOP_UP_CHANNEL = 'portolan_auto_top_ups';

/**
 * Called by the charge, in its transaction, under the billing account's row lock (so charges are
 * serialised), with the account as the charge left it: a charge that took the balance from at or
 * above the threshold to below it asks for one top-up of the package (PENDING), unless one is in
 * flight already (the unique index on the organization's PENDING top-up: never two). The workers
 * are woken at commit; a charge rolled back asks for nothing.
 */
export async function requestAutoTopUp(
  _ctx: AppContext,
  tx: Tx,
  account: AccountRow,
  balanceBefore: number,
  now: Date,
): Promise<void> {
  const threshold = account.auto_top_up_threshold;
  const packageId = account.auto_top_up_fund_package_id;
  if (!account.auto_top_up_enabled || threshold === null || packageId === null) return;
  if (!(balanceBefore >= threshold && account.available_balance < threshold)) return;
  const [pkg] = await tx
    .select()
    .from(fundPackages)
    .where(and(eq(fundPackages.id, packageId), eq(fundPackages.enabled, true)));
  if (!pkg) return;
  const [asked] = await tx
    .insert(autoTopUps)
    .values({
      organization_id: account.organization_id,
      fund_package_id: pkg.id,
      amount: pkg.price,
      credit: pkg.credit,
      currency: pkg.currency,
      next_attempt_at: now,
      created_at: now,
      modified_at: now,
    })
    // The organization's one PENDING top-up: a crossing while one is in flight asks for nothing.
    .onConflictDoNothing()
    .returning({ id: autoTopUps.id });
  if (asked) await tx.execute(sql`select pg_notify(${AUTO_TOP_UP_CHANNEL}, '')`);
}

const toAttemptDto = (row: AutoTopUpRow): AutoTopUpAttempt => ({
  id: row.id,
  status: row.status,
  amount: row.amount,
  credit: row.credit,
  currency: row.currency,
  failure_reason: row.failure_reason,
  created: row.created_at.toISOString(),
  settled: row.settled_at?.toISOString() ?? null,
});

/** GET …/balance/auto-top-up/: the settings and the most recent automatic top-up. */
export async function readAutoTopUp(db: Db | Tx, organizationId: string): Promise<AutoTopUp> {
  const [[account], [last]] = await Promise.all([
    db.select().from(billingAccounts).where(eq(billingAccounts.organization_id, organizationId)),
    db
      .select()
      .from(autoTopUps)
      .where(eq(autoTopUps.organization_id, organizationId))
      .orderBy(desc(autoTopUps.created_at), desc(autoTopUps.id))
      .limit(1),
  ]);
  return {
    enabled: account?.auto_top_up_enabled ?? false,
    threshold: account?.auto_top_up_threshold ?? null,
    fund_package_id: account?.auto_top_up_fund_package_id ?? null,
    consecutive_failures: account?.auto_top_up_failures ?? 0,
    last_attempt: last ? toAttemptDto(last) : null,
  };
}

/**
 * PUT …/balance/auto-top-up/: an enabled package (400 on fund_package_id otherwise); switching
 * it on needs a default card to charge (409 NO_PAYMENT_METHOD) and starts the count of declines
 * afresh. Under the organization's lock, then the billing account's, as every tenant write.
 */
export async function updateAutoTopUp(
  ctx: AppContext,
  actor: Actor,
  body: AutoTopUpUpdate,
): Promise<AutoTopUp> {
  const organizationId = actor.organization.id;
  return ctx.db.transaction(async (tx) => {
    await lockTenant(tx, { organizationId });
    if (body.fund_package_id !== null) {
      const [pkg] = await tx
        .select({ id: fundPackages.id })
        .from(fundPackages)
        .where(and(eq(fundPackages.id, body.fund_package_id), eq(fundPackages.enabled, true)));
      if (!pkg)
        throw fieldError('fund_package_id', 'No such fund package. Choose one of the list.');
    }
    if (body.enabled) {
      const found = await findSubscription(tx, organizationId, ctx.config.appProfile);
      const card = found ? await defaultCard(tx, found.subscription) : undefined;
      if (!card)
        throw conflict(
          ErrorCode.NO_PAYMENT_METHOD,
          'Auto top-up charges the default card, and there is none. Choose a default card under Billing › Cards (payment methods) first, then switch auto top-up on.',
        );
    }
    const before = await lockAccount(tx, organizationId);
    await tx
      .update(billingAccounts)
      .set({
        auto_top_up_enabled: body.enabled,
        auto_top_up_threshold: body.threshold,
        auto_top_up_fund_package_id: body.fund_package_id,
        ...(body.enabled && { auto_top_up_failures: 0 }),
        modified_at: ctx.clock.now(),
      })
      .where(eq(billingAccounts.organization_id, organizationId));
    await recordSettingChange(ctx, tx, actor, {
      action: 'UPDATE_AUTO_TOP_UP',
      data: {
        enabled: body.enabled,
        threshold: body.threshold,
        fund_package_id: body.fund_package_id,
        previous_enabled: before.auto_top_up_enabled,
        currency: before.currency,
      },
    });
    return readAutoTopUp(tx, organizationId);
  });
}
