import { ErrorCode, type CardTopUp, type LedgerEntry } from '@portolan/contract';
import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { checkouts, fundPackages, ledgerEntries, paymentMethods } from '../../db/schema/index.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { formatMoney } from '../../lib/money.ts';
import { CHARGE_FAILURE_MESSAGES } from '../../lib/payments/gateway.ts';
import { lockTenant, type Actor } from '../access/index.ts';
import { creditTopUp } from './events.ts';
import { findEntryDto } from './ledger.ts';
import { findSubscription } from './subscription-repo.ts';

/**
 * POST …/balance/top-ups/ (issue 18): a fund package paid at once, off-session, with one of the
 * organization's saved cards, in one transaction: the charge through the gateway (like renewals;
 * its idempotency key is the caller's Idempotency-Key, so a retry after a lost commit is the
 * gateway's replay, not a second charge), then its credit (creditCardPayment). A declined card
 * answers 402 PAYMENT_FAILED and leaves nothing. The route runs it once per
 * Idempotency-Key (withIdempotency); the answer is the ledger's new top-up entry. It takes the
 * organization's row lock first, as every tenant write does.
 */
export async function topUpWithCard(
  ctx: AppContext,
  actor: Actor,
  choice: CardTopUp,
  idempotencyKey: string,
): Promise<LedgerEntry> {
  const organizationId = actor.organization.id;
  const [pkg] = await ctx.db
    .select()
    .from(fundPackages)
    .where(and(eq(fundPackages.id, choice.fund_package_id), eq(fundPackages.enabled, true)));
  if (!pkg) throw fieldError('fund_package_id', 'No such fund package. Choose one of the list.');
  const description = `Fund package ${pkg.name}: ${formatMoney(pkg.credit, pkg.currency)} of credit`;

  return ctx.db.transaction(async (tx) => {
    // The lock order of tenant writes: the organization first (a card removed meanwhile waits).
    await lockTenant(tx, { organizationId });
    const [card] = await tx
      .select()
      .from(paymentMethods)
      .where(
        and(
          eq(paymentMethods.id, choice.payment_method_id),
          eq(paymentMethods.organization_id, organizationId),
          isNull(paymentMethods.deleted_at),
        ),
      );
    if (!card) throw fieldError('payment_method_id', 'No such card. Choose one of your cards.');
    const found = await findSubscription(tx, organizationId, ctx.config.appProfile);
    const result = await ctx.payments.charge({
      customerRef: found?.subscription.gateway_customer_ref ?? null,
      paymentMethodRef: card.gateway_ref,
      amount: pkg.price,
      currency: pkg.currency,
      description,
      idempotencyKey: `top-up:${organizationId}:${actor.userId}:${idempotencyKey}`,
    });
    if (!result.ok)
      throw new AppError(ErrorCode.PAYMENT_FAILED, CHARGE_FAILURE_MESSAGES[result.reason]);
    const { entryId } = await creditCardPayment(
      tx,
      {
        organizationId,
        fundPackageId: pkg.id,
        credit: pkg.credit,
        amount: pkg.price,
        currency: pkg.currency,
        description,
        createdBy: actor.userId,
        chargeRef: result.chargeRef,
      },
      ctx.clock.now(),
    );
    return (await findEntryDto(tx, organizationId, entryId))!;
  });
}

/** A fund package paid off-session with a card, as creditCardPayment records it. */
export interface CardPayment {
  organizationId: string;
  /** null: the package was retired since (an automatic top-up asked for before). */
  fundPackageId: string | null;
  credit: number;
  amount: number;
  currency: string;
  description: string;
  /** Who bought it (the activity's author); null for an automatic top-up. */
  createdBy: string | null;
  chargeRef: string;
}

/**
 * Credits a fund package the gateway has charged to a saved card (this file's top-up, and the
 * automatic top-up of auto-top-up-worker.ts), in the caller's transaction: a TOP_UP checkout row
 * (COMPLETE, so the ledger's unique checkout_id stands behind it as for a hosted payment), then the
 * invoice, the credit under the billing account's row lock and the activity, by the same function
 * as a paid checkout. Answers the ledger entry and the invoice made.
 */
export async function creditCardPayment(
  tx: Tx,
  paid: CardPayment,
  at: Date,
): Promise<{ entryId: string; invoiceId: string | null }> {
  const [checkout] = await tx
    .insert(checkouts)
    .values({
      organization_id: paid.organizationId,
      kind: 'TOP_UP',
      fund_package_id: paid.fundPackageId,
      credit: paid.credit,
      amount: paid.amount,
      currency: paid.currency,
      description: paid.description,
      status: 'COMPLETE',
      created_by: paid.createdBy,
      expires_at: at,
    })
    .returning();
  await creditTopUp(
    tx,
    checkout!,
    { amount: paid.amount, chargeRef: paid.chargeRef, checkoutRef: paid.chargeRef },
    at,
  );
  const [entry] = await tx
    .select({ id: ledgerEntries.id, invoiceId: ledgerEntries.invoice_id })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.checkout_id, checkout!.id));
  return { entryId: entry!.id, invoiceId: entry!.invoiceId };
}
