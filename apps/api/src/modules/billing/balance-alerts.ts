import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { formatMoney } from '../../lib/money.ts';
import { lowBalanceMail } from '../../lib/mail/templates.ts';
import { recordChangeEvents } from '../events/index.ts';
import type { AccountRow } from './account.ts';
import { billingPagePath, tellBillingContacts } from './billing-contacts.ts';

/**
 * Low-balance alerts (issue 22 item 3). A threshold alerts when a movement takes the balance from
 * at or above it to below it: once per crossing, and armed again by whatever lifts the balance
 * back above it (a top-up, a refund), with no state to keep. Called by the charge, in its
 * transaction, under the account's row lock, so concurrent charges cross a threshold once.
 */

/** The thresholds a move from `before` to `after` crossed downwards, highest first. */
export const thresholdsCrossed = (thresholds: readonly number[], before: number, after: number) =>
  thresholds.filter((t) => before >= t && after < t).sort((a, b) => b - a);

/**
 * Records balance.low for each threshold crossed and tells the OWNERs and ADMINs once (in the
 * bell and by e-mail), naming the lowest threshold crossed.
 */
export async function alertLowBalance(
  ctx: AppContext,
  tx: Tx,
  account: AccountRow,
  balanceBefore: number,
  now: Date,
): Promise<void> {
  const crossed = thresholdsCrossed(
    account.low_balance_thresholds,
    balanceBefore,
    account.available_balance,
  );
  if (crossed.length === 0) return;
  const { organization_id: organizationId, currency } = account;
  await recordChangeEvents(
    tx,
    organizationId,
    now,
    crossed.map((threshold) => ({
      type: 'balance.low' as const,
      data: { threshold, available_balance: account.available_balance, currency },
    })),
  );
  const balance = formatMoney(account.available_balance, currency);
  const threshold = formatMoney(crossed.at(-1)!, currency);
  const walletPath = billingPagePath(organizationId, 'fund-packages');
  await tellBillingContacts(ctx, tx, organizationId, {
    kind: 'balance_low',
    message: `The balance is ${balance}, below your alert threshold of ${threshold}. Add funds before it runs out.`,
    path: walletPath,
    mail: (contact) =>
      lowBalanceMail(ctx.mail, contact.email, contact.firstName, {
        organization: contact.organization,
        balance,
        threshold,
        walletPath,
      }),
  });
}
