import { ErrorCode, invoiceNumberText } from '@portolan/contract';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { checkouts, gatewayEvents, paymentMethods, subscriptions } from '../../db/schema/index.ts';
import { badRequest } from '../../lib/errors.ts';
import type { GatewayEvent } from '../../lib/payments/gateway.ts';
import { lockTenant } from '../access/index.ts';
import { lockAccount } from './account.ts';
import { recordBillingActivity } from './activity.ts';
import { recordInvoice } from './invoices.ts';
import { appendEntry } from './ledger.ts';
import { addPeriod } from './renewal.ts';
import { findPlanById } from './subscription-repo.ts';
import { planDescription, type CheckoutRow } from './checkout-service.ts';

/**
 * The one place where a gateway's word changes the portal (webhook and sandbox alike). Each
 * event is handled in one transaction: its id is recorded first (a redelivery finds it and does
 * nothing), then the checkout row is locked and only an OPEN one is closed, so the events of a
 * checkout apply exactly once whatever their order (a "failed" after a "completed" is ignored).
 * A "completed" whose amount or currency is not the checkout's applies nothing: the checkout
 * fails, the event row keeps why, and the error is logged with both amounts.
 */

export type EventOutcome = 'applied' | 'duplicate' | 'ignored' | 'mismatch';

/** What the buyer reads on a checkout whose payment did not match it. */
export const MISMATCH_MESSAGE =
  'The payment did not match this purchase, so nothing was applied. Contact support.';

/** The raw body and signature header of a delivery: verified by the gateway, then handled. */
export async function receiveGatewayEvent(
  ctx: AppContext,
  rawBody: string,
  signature: string | undefined,
  log?: FastifyBaseLogger,
): Promise<EventOutcome> {
  let event: GatewayEvent | null;
  try {
    event = await ctx.payments.verifyEvent(rawBody, signature);
  } catch (error) {
    // The gateway's reason is about the signature or the shape, never about a card.
    throw badRequest(ErrorCode.BAD_REQUEST, (error as Error).message || 'Not a valid event.');
  }
  if (!event) return 'ignored';
  return handleGatewayEvent(ctx, event, log);
}

export async function handleGatewayEvent(
  ctx: AppContext,
  event: GatewayEvent,
  log?: FastifyBaseLogger,
): Promise<EventOutcome> {
  return ctx.db.transaction(async (tx) => {
    // The lock order of tenant writes: the checkout's organization first, then the rest.
    const [of] = await tx
      .select({ organizationId: checkouts.organization_id })
      .from(checkouts)
      .where(eq(checkouts.id, event.checkoutId));
    if (of) await lockTenant(tx, of);
    const [fresh] = await tx
      .insert(gatewayEvents)
      .values({ id: event.id, gateway: ctx.payments.name, type: event.type })
      .onConflictDoNothing()
      .returning({ id: gatewayEvents.id });
    if (!fresh) return 'duplicate';
    const [checkout] = await tx
      .select()
      .from(checkouts)
      .where(eq(checkouts.id, event.checkoutId))
      .for('update');
    // An event about a page the portal did not open (or another session of it) changes nothing.
    if (!checkout || checkout.gateway_ref !== event.checkoutRef || checkout.status !== 'OPEN')
      return 'ignored';
    if (event.type === 'checkout.failed') {
      await tx
        .update(checkouts)
        .set({
          status: event.reason === 'expired' ? 'EXPIRED' : 'FAILED',
          failure_message: event.message,
        })
        .where(eq(checkouts.id, checkout.id));
      return 'applied';
    }
    const mismatch = mismatchOf(checkout, event);
    if (mismatch) {
      await tx
        .update(gatewayEvents)
        .set({ outcome: 'amount_mismatch', reason: mismatch })
        .where(eq(gatewayEvents.id, event.id));
      await tx
        .update(checkouts)
        .set({ status: 'FAILED', failure_message: MISMATCH_MESSAGE })
        .where(eq(checkouts.id, checkout.id));
      log?.error(
        {
          eventId: event.id,
          gateway: ctx.payments.name,
          checkoutId: checkout.id,
          expected: { amount: checkout.amount, currency: checkout.currency },
          received: { amount: event.amount, currency: event.currency },
        },
        `gateway event ${event.id} refused: ${mismatch}`,
      );
      return 'mismatch';
    }
    await completeCheckout(ctx, tx, checkout, event);
    return 'applied';
  });
}

/**
 * Why a completed payment is not the checkout's, or null: the amount differs, or (when something
 * was to be paid) the currency does. A page that only keeps a card (amount 0) has no currency to
 * compare.
 */
function mismatchOf(
  checkout: CheckoutRow,
  event: Extract<GatewayEvent, { type: 'checkout.completed' }>,
): string | null {
  const currency = event.currency?.toLowerCase() ?? null;
  const sameCurrency = checkout.amount === 0 || currency === checkout.currency.toLowerCase();
  if (event.amount === checkout.amount && sameCurrency) return null;
  return `expected ${checkout.amount} ${checkout.currency}, received ${event.amount} ${currency ?? '(no currency)'}`;
}

async function completeCheckout(
  ctx: AppContext,
  tx: Tx,
  checkout: CheckoutRow,
  event: Extract<GatewayEvent, { type: 'checkout.completed' }>,
): Promise<void> {
  const { card } = event.paymentMethod;
  const [card_] = await tx
    .insert(paymentMethods)
    .values({
      organization_id: checkout.organization_id,
      gateway_ref: event.paymentMethod.ref,
      brand: card.brand,
      last4: card.last4,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
    })
    .onConflictDoUpdate({
      target: paymentMethods.gateway_ref,
      set: {
        brand: card.brand,
        last4: card.last4,
        exp_month: card.exp_month,
        exp_year: card.exp_year,
        deleted_at: null,
      },
      // A gateway's card is never moved to another organization.
      setWhere: eq(paymentMethods.organization_id, checkout.organization_id),
    })
    .returning({ id: paymentMethods.id });
  const now = ctx.clock.now();

  if (checkout.kind === 'SUBSCRIPTION') {
    const plan = checkout.plan_id ? await findPlanById(tx, checkout.plan_id) : undefined;
    if (!plan) throw new Error(`checkout ${checkout.id} has no plan`);
    const values = {
      plan_id: plan.id,
      status: 'ACTIVE' as const,
      is_active: true,
      amount: plan.price,
      currency: plan.currency,
      current_period_start: now,
      expired_in: addPeriod(now, plan.period),
      cancel_at_period_end: false,
      canceled_at: null,
      subscriber_id: checkout.created_by,
      default_payment_method_id: card_?.id ?? null,
      limits: plan.config,
      credit: 0,
      retry_count: 0,
      next_retry_at: null,
      ...(event.customerRef !== null && { gateway_customer_ref: event.customerRef }),
    };
    // One subscription per organization and app: made, or taken over by this payment.
    const [subscription] = await tx
      .insert(subscriptions)
      .values({
        organization_id: checkout.organization_id,
        app_profile: plan.app_profile,
        ...values,
      })
      .onConflictDoUpdate({
        target: [subscriptions.organization_id, subscriptions.app_profile],
        set: values,
      })
      .returning({ id: subscriptions.id });
    const description = planDescription(plan);
    await recordInvoice(tx, {
      organizationId: checkout.organization_id,
      subscriptionId: subscription!.id,
      kind: 'SUBSCRIPTION',
      status: 'PAID',
      amount: event.amount,
      currency: checkout.currency,
      description,
      lines: [{ description, amount: event.amount }],
      gatewayRef: event.chargeRef ?? event.checkoutRef,
      at: now,
    });
    await recordBillingActivity(tx, {
      userId: checkout.created_by,
      organizationId: checkout.organization_id,
      action: 'SUBSCRIBE',
      data: { plan: plan.type, amount: event.amount, currency: checkout.currency },
      event: {
        type: 'subscription.changed',
        data: {
          change: 'subscribed',
          plan: plan.type,
          previous_plan: null,
          status: values.status,
          period_end: values.expired_in.toISOString(),
        },
      },
      at: now,
    });
  } else {
    const ofOrganization = and(
      eq(subscriptions.organization_id, checkout.organization_id),
      eq(subscriptions.app_profile, ctx.config.appProfile),
    );
    // A first card becomes the one renewals charge.
    if (card_) {
      await tx
        .update(subscriptions)
        .set({ default_payment_method_id: card_.id })
        .where(and(ofOrganization, isNull(subscriptions.default_payment_method_id)));
    }
    // The gateway's customer made for this card (Stripe) is the organization's from now on, so a
    // later checkout reuses it instead of making another.
    if (event.customerRef !== null) {
      await tx
        .update(subscriptions)
        .set({ gateway_customer_ref: event.customerRef })
        .where(and(ofOrganization, isNull(subscriptions.gateway_customer_ref)));
    }
  }
  if (checkout.kind === 'TOP_UP') await creditTopUp(tx, checkout, event, now);
  await tx
    .update(checkouts)
    .set({ status: 'COMPLETE', failure_message: null })
    .where(eq(checkouts.id, checkout.id));
}

/**
 * A paid fund package: its invoice, then the credit on the balance, in the event's transaction.
 * A crash anywhere before the commit leaves neither (and the event unrecorded, so the gateway's
 * redelivery applies it); the ledger's unique checkout_id makes a second credit impossible.
 */
export async function creditTopUp(
  tx: Tx,
  checkout: CheckoutRow,
  event: Pick<
    Extract<GatewayEvent, { type: 'checkout.completed' }>,
    'amount' | 'chargeRef' | 'checkoutRef'
  >,
  at: Date,
): Promise<void> {
  if (checkout.credit === null) throw new Error(`top-up checkout ${checkout.id} has no credit`);
  const invoice = await recordInvoice(tx, {
    organizationId: checkout.organization_id,
    subscriptionId: null,
    kind: 'TOP_UP',
    status: 'PAID',
    amount: event.amount,
    currency: checkout.currency,
    description: checkout.description,
    lines: [{ description: checkout.description, amount: event.amount }],
    gatewayRef: event.chargeRef ?? event.checkoutRef,
    at,
  });
  const account = await lockAccount(tx, checkout.organization_id);
  const { row: entry, account: after } = await appendEntry(tx, account, {
    type: 'top-up',
    amount: checkout.credit,
    description: checkout.description,
    reference: invoice ? invoiceNumberText(invoice.number) : '',
    source: 'payment',
    createdBy: checkout.created_by,
    checkoutId: checkout.id,
    invoiceId: invoice?.id ?? null,
  });
  await recordBillingActivity(tx, {
    userId: checkout.created_by,
    organizationId: checkout.organization_id,
    action: 'TOP_UP_BALANCE',
    data: {
      fund_package_id: checkout.fund_package_id,
      credit: checkout.credit,
      amount: event.amount,
      currency: checkout.currency,
      invoice: invoice ? invoiceNumberText(invoice.number) : null,
    },
    event: {
      type: 'balance.topped_up',
      data: {
        entry_id: entry.id,
        invoice_id: invoice?.id ?? null,
        amount: entry.amount,
        currency: entry.currency,
        available_balance: after.available_balance,
      },
    },
    at,
  });
}
