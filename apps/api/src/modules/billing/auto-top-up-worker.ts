import { AUTO_TOP_UP_MAX_FAILURES } from '@portolan/contract';
import { and, asc, eq, isNull, lte, or } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { autoTopUps, billingAccounts, fundPackages } from '../../db/schema/index.ts';
import { minutes } from '../../lib/clock.ts';
import type { Job } from '../../lib/jobs.ts';
import { autoTopUpDisabledMail, autoTopUpFailedMail } from '../../lib/mail/templates.ts';
import { formatMoney } from '../../lib/money.ts';
import { CHARGE_FAILURE_MESSAGES, type ChargeResult } from '../../lib/payments/gateway.ts';
import { lockTenant } from '../access/index.ts';
import { lockAccount } from './account.ts';
import { AUTO_TOP_UP_CHANNEL, type AutoTopUpRow } from './auto-top-up.ts';
import { billingPagePath, tellBillingContacts } from './billing-contacts.ts';
import { defaultCard } from './renewal.ts';
import { findSubscription } from './subscription-repo.ts';
import { creditCardPayment } from './top-up-service.ts';

/**
 * Pays the automatic top-ups auto-top-up.ts asks for. One is paid by one worker across every
 * instance, and its money moves once:
 *  - a worker claims a due PENDING top-up with FOR UPDATE SKIP LOCKED and a lease, committed
 *    before the gateway is asked (others skip it until the lease runs out);
 *  - the gateway is asked with one idempotency key per top-up (`auto-top-up:<id>`), the same on
 *    every attempt, so a charge asked again (after an unknown outcome, or by a worker whose lease
 *    ran out) is the gateway's replay, never a second charge;
 *  - the outcome is settled under the tenant's, the billing account's and the top-up's locks,
 *    only while the top-up is still PENDING: it is credited (or declined) once.
 * A definite decline is not retried: the next crossing of the threshold asks again.
 */

/** A claim lasts this long: well beyond a gateway's answer, so it never runs out mid-charge. */
export const AUTO_TOP_UP_LEASE_MS = 60_000;
/** The job's safety net besides its wake-up: a lease run out, a charge to ask again. */
export const AUTO_TOP_UP_INTERVAL_MS = 60_000;
/** After an unknown outcome the same top-up (same key) is asked again this much later. */
export const AUTO_TOP_UP_UNKNOWN_RETRY_MS = minutes(5);

/** Claims the next due top-up (a lease, committed), or null when none is due. */
export async function claimDueAutoTopUp(ctx: AppContext, now: Date): Promise<AutoTopUpRow | null> {
  return ctx.db.transaction(async (tx) => {
    const [due] = await tx
      .select({ id: autoTopUps.id })
      .from(autoTopUps)
      .where(
        and(
          eq(autoTopUps.status, 'PENDING'),
          lte(autoTopUps.next_attempt_at, now),
          or(isNull(autoTopUps.lease_until), lte(autoTopUps.lease_until, now)),
        ),
      )
      .orderBy(asc(autoTopUps.next_attempt_at))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!due) return null;
    const [claimed] = await tx
      .update(autoTopUps)
      .set({ lease_until: new Date(now.getTime() + AUTO_TOP_UP_LEASE_MS), modified_at: now })
      .where(eq(autoTopUps.id, due.id))
      .returning();
    return claimed ?? null;
  });
}

/** What the gateway said, or that there was no card to ask it about. */
type Outcome = ChargeResult | { ok: false; reason: 'no_card'; unknown?: undefined };

const NO_CARD_MESSAGE =
  'There is no default card to charge. Choose one under Billing › Cards (payment methods).';

/** Charges a claimed top-up to the default card and settles the outcome. */
export async function attemptAutoTopUp(
  ctx: AppContext,
  claimed: AutoTopUpRow,
): Promise<'paid' | 'declined' | 'unknown' | 'stale'> {
  const organizationId = claimed.organization_id;
  const { card, customerRef, description } = await ctx.db.transaction(async (tx) => {
    const found = await findSubscription(tx, organizationId, ctx.config.appProfile);
    const [pkg] = claimed.fund_package_id
      ? await tx
          .select({ name: fundPackages.name })
          .from(fundPackages)
          .where(eq(fundPackages.id, claimed.fund_package_id))
      : [];
    const credit = formatMoney(claimed.credit, claimed.currency);
    return {
      card: found ? await defaultCard(tx, found.subscription) : undefined,
      customerRef: found?.subscription.gateway_customer_ref ?? null,
      description: `Automatic top-up: ${pkg ? `fund package ${pkg.name}, ` : ''}${credit} of credit`,
    };
  });
  let outcome: Outcome;
  if (!card) outcome = { ok: false, reason: 'no_card' };
  else {
    try {
      outcome = await ctx.payments.charge({
        customerRef,
        paymentMethodRef: card.gateway_ref,
        amount: claimed.amount,
        currency: claimed.currency,
        description,
        // The same key on every attempt of this top-up: the gateway charges it once.
        idempotencyKey: `auto-top-up:${claimed.id}`,
      });
    } catch {
      // The adapter failed on its way: the charge may or may not have been made.
      outcome = { ok: false, reason: 'error', message: 'No answer.', unknown: true };
    }
  }
  const settled = await settleAutoTopUp(ctx, claimed, outcome, description);
  if (settled === 'declined') ctx.outbox.kick();
  return settled;
}

/**
 * Applies a gateway's outcome in one transaction, taking the locks in the order of every tenant
 * write (the organization, the billing account, then the top-up), and only to a top-up still
 * PENDING: an outcome settled already (by a worker whose lease ran out meanwhile) applies nothing.
 */
async function settleAutoTopUp(
  ctx: AppContext,
  claimed: AutoTopUpRow,
  outcome: Outcome,
  description: string,
): Promise<'paid' | 'declined' | 'unknown' | 'stale'> {
  const organizationId = claimed.organization_id;
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    await lockTenant(tx, { organizationId });
    const account = await lockAccount(tx, organizationId);
    const [row] = await tx
      .select()
      .from(autoTopUps)
      .where(eq(autoTopUps.id, claimed.id))
      .for('update');
    if (!row || row.status !== 'PENDING') return 'stale';
    const update = (values: Partial<typeof autoTopUps.$inferInsert>) =>
      tx
        .update(autoTopUps)
        .set({ ...values, lease_until: null, modified_at: now })
        .where(eq(autoTopUps.id, row.id));
    const setAccount = (values: Partial<typeof billingAccounts.$inferInsert>) =>
      tx
        .update(billingAccounts)
        .set({ ...values, modified_at: now })
        .where(eq(billingAccounts.organization_id, organizationId));

    if (outcome.ok) {
      const { invoiceId } = await creditCardPayment(
        tx,
        {
          organizationId,
          fundPackageId: row.fund_package_id,
          credit: row.credit,
          amount: row.amount,
          currency: row.currency,
          description,
          createdBy: null,
          chargeRef: outcome.chargeRef,
        },
        now,
      );
      await update({ status: 'SUCCEEDED', invoice_id: invoiceId, settled_at: now });
      if (account.auto_top_up_failures !== 0) await setAccount({ auto_top_up_failures: 0 });
      return 'paid';
    }

    if (outcome.unknown) {
      // Only the claim holding it reschedules it: a later claim is asking the gateway now.
      if (row.lease_until?.getTime() !== claimed.lease_until?.getTime()) return 'stale';
      await update({ next_attempt_at: new Date(now.getTime() + AUTO_TOP_UP_UNKNOWN_RETRY_MS) });
      return 'unknown';
    }

    const reason =
      outcome.reason === 'no_card' ? NO_CARD_MESSAGE : CHARGE_FAILURE_MESSAGES[outcome.reason];
    const failures = account.auto_top_up_failures + 1;
    const switchOff = account.auto_top_up_enabled && failures >= AUTO_TOP_UP_MAX_FAILURES;
    await update({ status: 'FAILED', failure_reason: reason, settled_at: now });
    await setAccount({
      auto_top_up_failures: failures,
      ...(switchOff && { auto_top_up_enabled: false }),
    });
    await tellOfDecline(ctx, tx, row, { reason, failures, switchOff, threshold: account });
    return 'declined';
  });
}

/** The OWNERs and ADMINs hear of a declined top-up (and of auto top-up switched off): bell and mail. */
async function tellOfDecline(
  ctx: AppContext,
  tx: Tx,
  row: AutoTopUpRow,
  decline: {
    reason: string;
    failures: number;
    switchOff: boolean;
    threshold: { auto_top_up_threshold: number | null; currency: string };
  },
): Promise<void> {
  const organizationId = row.organization_id;
  const amount = formatMoney(row.amount, row.currency);
  const { auto_top_up_threshold: limit, currency } = decline.threshold;
  const threshold = limit === null ? 'your threshold' : formatMoney(limit, currency);
  const walletPath = billingPagePath(organizationId, 'fund-packages');
  const cardsPath = billingPagePath(organizationId, 'cards');
  const declined = `The automatic top-up of ${amount} was declined: ${decline.reason}`;
  await tellBillingContacts(ctx, tx, organizationId, {
    kind: decline.switchOff ? 'auto_top_up_disabled' : 'auto_top_up_failed',
    message: decline.switchOff
      ? `${declined} After ${decline.failures} declines in a row, auto top-up is now off: choose a card that can be charged, then switch it on again in the wallet.`
      : `${declined} It is tried again the next time the balance falls below ${threshold}: check the default card.`,
    path: decline.switchOff ? walletPath : cardsPath,
    mail: (contact) => {
      const input = {
        organization: contact.organization,
        amount,
        reason: decline.reason,
        walletPath,
        cardsPath,
      };
      return decline.switchOff
        ? autoTopUpDisabledMail(ctx.mail, contact.email, contact.firstName, {
            ...input,
            failures: decline.failures,
          })
        : autoTopUpFailedMail(ctx.mail, contact.email, contact.firstName, { ...input, threshold });
    },
  });
}

/** Claims and pays every due top-up, one after another; answers how many were attempted. */
export async function runAutoTopUps(ctx: AppContext, signal?: AbortSignal): Promise<number> {
  let attempted = 0;
  for (;;) {
    if (signal?.aborted) return attempted;
    const claimed = await claimDueAutoTopUp(ctx, ctx.clock.now());
    if (!claimed) return attempted;
    await attemptAutoTopUp(ctx, claimed);
    attempted++;
  }
}

/**
 * The job, for the runner (lib/jobs.ts; app.ts starts it in every instance with workers): woken
 * by the NOTIFY of each top-up asked for (at the charge's commit, so it is paid within moments),
 * and every AUTO_TOP_UP_INTERVAL_MS for what a lease or a retry left due.
 */
export const autoTopUpJob = (ctx: AppContext): Job => ({
  name: 'auto-top-up',
  everyMs: AUTO_TOP_UP_INTERVAL_MS,
  // One line at the start of an outage and then one an hour, not one per tick.
  logEvery: 60,
  wake: (kick) => {
    const listener = ctx.database.listen(AUTO_TOP_UP_CHANNEL, { notify: kick, listening: kick });
    return () => listener.close();
  },
  run: (signal) => runAutoTopUps(ctx, signal),
});
