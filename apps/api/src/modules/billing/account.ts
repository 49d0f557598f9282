import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { billingAccounts } from '../../db/schema/index.ts';

/**
 * An organization's billing account: its balance and the next invoice number. Made on first use;
 * every change of either happens in a transaction holding the account's row lock, taken last
 * (after any subscription or checkout row), so the lock order is the same everywhere.
 */

export type AccountRow = typeof billingAccounts.$inferSelect;

/** Locks the organization's account for the rest of the transaction, making it if need be. */
export async function lockAccount(tx: Tx, organizationId: string): Promise<AccountRow> {
  // Never waits on a held lock: a row that exists already just makes this a no-op.
  await tx
    .insert(billingAccounts)
    .values({ organization_id: organizationId })
    .onConflictDoNothing();
  const [row] = await tx
    .select()
    .from(billingAccounts)
    .where(eq(billingAccounts.organization_id, organizationId))
    .for('update');
  return row!;
}

/** The balance as it stands (0 for an organization that never had an account). */
export async function readBalance(
  db: Db | Tx,
  organizationId: string,
): Promise<{ available_balance: number; currency: string }> {
  const [row] = await db
    .select({
      available_balance: billingAccounts.available_balance,
      currency: billingAccounts.currency,
    })
    .from(billingAccounts)
    .where(eq(billingAccounts.organization_id, organizationId));
  return row ?? { available_balance: 0, currency: 'usd' };
}
