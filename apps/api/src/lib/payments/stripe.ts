import { CARD_BRANDS, type CardBrand } from '@portolan/contract';
import type Stripe from 'stripe';
import { lazyModule } from '../lazy-module.ts';
import type { Clock } from '../clock.ts';
import { minutes } from '../clock.ts';
import {
  CHARGE_FAILURE_MESSAGES,
  type CardSummary,
  type ChargeFailure,
  type ChargeRequest,
  type ChargeResult,
  type CheckoutRequest,
  type GatewayEvent,
  type HostedCheckout,
  type PaymentGateway,
  REFUND_FAILURE_MESSAGES,
  type RefundRequest,
  type RefundResult,
} from './gateway.ts';

/**
 * The Stripe adapter (decision 0009): Checkout Sessions in `payment` mode (pay and keep the card)
 * and `setup` mode (keep a card), off-session PaymentIntents for renewals and upgrades, refunds,
 * and the `checkout.session.*` webhooks read into the portal's two events. Stripe Billing (its own
 * subscriptions) is not used: plans, periods and proration stay the portal's.
 *
 * The buyer types the card on Stripe's page; the portal only ever reads brand, last four digits
 * and expiry back from the PaymentMethod. Stripe's own error messages are never passed on (a
 * card error's text may quote what the buyer typed): callers read CHARGE_FAILURE_MESSAGES.
 */

export interface StripeGatewayOptions {
  secretKey: string;
  webhookSecret: string;
  /** Another API host than api.stripe.com (a local fake in tests): `http://127.0.0.1:12111`. */
  apiBase?: string | undefined;
  clock: Clock;
  /** How often the SDK itself retries a request that got no answer (same key); 2 unless told. */
  maxNetworkRetries?: number;
}

/** Signed events older than this are refused (Stripe's default tolerance). */
export const STRIPE_SIGNATURE_TOLERANCE_S = 300;

/** Stripe accepts a session's `expires_at` from 30 minutes to 24 hours ahead; a margin each side. */
const MIN_SESSION_LIFETIME_MS = minutes(31);
const MAX_SESSION_LIFETIME_MS = minutes(24 * 60 - 1);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Stripe's card brands the portal has a logo for; any other reads as a generic card. */
export function brandFromStripe(brand: string | null | undefined): CardBrand {
  return (CARD_BRANDS as readonly string[]).includes(brand ?? '')
    ? (brand as CardBrand)
    : 'unknown';
}

/** The SDK, loaded when the Stripe gateway is chosen (a megabyte of code a sandbox never needs). */
const stripeSdk = lazyModule<typeof Stripe>('stripe');

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/** The SDK's options for an API base given as a URL (host, port and protocol separately). */
function addressOf(apiBase: string | undefined): Stripe.StripeConfig {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    protocol,
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
  };
}

export class StripeGateway implements PaymentGateway {
  readonly name = 'stripe';
  private readonly stripe: Stripe;
  private readonly webhookSecret: string;
  private readonly clock: Clock;

  constructor(options: StripeGatewayOptions) {
    const Sdk = stripeSdk();
    this.stripe = new Sdk(options.secretKey, {
      // Every POST carries an idempotency key (ours, or the SDK's own), so retries are safe.
      maxNetworkRetries: options.maxNetworkRetries ?? 2,
      timeout: 20_000,
      telemetry: false,
      ...addressOf(options.apiBase),
    });
    this.webhookSecret = options.webhookSecret;
    this.clock = options.clock;
  }

  async openCheckout(request: CheckoutRequest): Promise<HostedCheckout> {
    let customerRef = request.customerRef;
    if (!customerRef) {
      // One customer per organization, even when two pages open at once (within Stripe's 24 h of
      // idempotency; after that the portal has usually kept the customer of a completed page).
      const customer = await this.stripe.customers.create(
        { metadata: { organization_id: request.organizationId } },
        { idempotencyKey: `customer:${request.organizationId}` },
      );
      customerRef = customer.id;
    }
    const now = this.clock.now().getTime();
    const expiresAt = Math.min(
      Math.max(request.expiresAt.getTime(), now + MIN_SESSION_LIFETIME_MS),
      now + MAX_SESSION_LIFETIME_MS,
    );
    const metadata = { checkout_id: request.checkoutId };
    const common = {
      customer: customerRef,
      client_reference_id: request.checkoutId,
      metadata,
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
      expires_at: Math.floor(expiresAt / 1000),
      // The portal keeps cards only (brand, last four, expiry).
      allowed_payment_method_types: ['card'],
    } satisfies Stripe.Checkout.SessionCreateParams;
    const params: Stripe.Checkout.SessionCreateParams =
      request.mode === 'payment'
        ? {
            ...common,
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: request.currency,
                  unit_amount: request.amount,
                  product_data: { name: request.description },
                },
              },
            ],
            payment_intent_data: {
              // Kept for renewals and upgrades, charged while the buyer is away.
              setup_future_usage: 'off_session',
              description: request.description,
              metadata,
            },
          }
        : {
            ...common,
            mode: 'setup',
            currency: request.currency,
            setup_intent_data: { description: request.description, metadata },
          };
    const session = await this.stripe.checkout.sessions.create(params, {
      idempotencyKey: `checkout:${request.checkoutId}`,
    });
    if (!session.url) throw new Error(`Stripe gave checkout session ${session.id} no URL.`);
    return { gatewayRef: session.id, url: session.url, customerRef };
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    try {
      // A kept card belongs to a customer, and Stripe charges it only with that customer.
      const customer = request.customerRef ?? (await this.customerOf(request.paymentMethodRef));
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: request.amount,
          currency: request.currency,
          ...(customer && { customer }),
          payment_method: request.paymentMethodRef,
          off_session: true,
          confirm: true,
          description: request.description,
        },
        { idempotencyKey: request.idempotencyKey },
      );
      if (intent.status === 'succeeded') return { ok: true, chargeRef: intent.id };
      // Off-session, a card that needs its holder (authentication, another card) is a decline;
      // anything else (still processing) is not a payment yet, nor a failure: asked again with
      // the same key, Stripe answers this PaymentIntent as it then stands.
      if (intent.status === 'requires_action' || intent.status === 'requires_payment_method')
        return failure('declined');
      return unknownOutcome();
    } catch (error) {
      const { errors } = stripeSdk();
      if (error instanceof errors.StripeCardError)
        return failure(
          error.decline_code === 'insufficient_funds' ? 'insufficient_funds' : 'declined',
        );
      // Stripe refused the request itself: nothing was charged.
      if (
        error instanceof errors.StripeInvalidRequestError ||
        error instanceof errors.StripeAuthenticationError ||
        error instanceof errors.StripePermissionError ||
        error instanceof errors.StripeIdempotencyError
      )
        return failure('error');
      // No answer, or Stripe's own failure (5xx): the charge may have been made.
      return unknownOutcome();
    }
  }

  /**
   * POST /v1/refunds of the charge's PaymentIntent (what `charge` and a paid page name; an older
   * `ch_` ref is a Charge), with the caller's key: a retry after a lost answer is Stripe's replay.
   */
  async refund(request: RefundRequest): Promise<RefundResult> {
    const of = request.chargeRef.startsWith('ch_')
      ? { charge: request.chargeRef }
      : request.chargeRef.startsWith('pi_')
        ? { payment_intent: request.chargeRef }
        : null;
    if (!of) return { ok: false, message: REFUND_FAILURE_MESSAGES.unknownCharge };
    try {
      const refund = await this.stripe.refunds.create(
        { ...of, amount: request.amount, metadata: { portal: 'credit-note' } },
        { idempotencyKey: request.idempotencyKey },
      );
      // A card refund is `pending` until the bank settles it; Stripe has taken it all the same.
      if (refund.status === 'succeeded' || refund.status === 'pending')
        return { ok: true, refundRef: refund.id };
      if (refund.status === 'failed' || refund.status === 'canceled')
        return { ok: false, message: REFUND_FAILURE_MESSAGES.refused };
      return { ok: false, message: REFUND_FAILURE_MESSAGES.unknown, unknown: true };
    } catch (error) {
      const { errors } = stripeSdk();
      if (error instanceof errors.StripeInvalidRequestError) {
        if (error.code === 'resource_missing')
          return { ok: false, message: REFUND_FAILURE_MESSAGES.unknownCharge };
        if (error.code === 'amount_too_large' || error.code === 'charge_already_refunded')
          return { ok: false, message: REFUND_FAILURE_MESSAGES.tooMuch };
        return { ok: false, message: REFUND_FAILURE_MESSAGES.refused };
      }
      if (
        error instanceof errors.StripeAuthenticationError ||
        error instanceof errors.StripePermissionError ||
        error instanceof errors.StripeIdempotencyError
      )
        return { ok: false, message: REFUND_FAILURE_MESSAGES.refused };
      // No answer, or Stripe's own failure (5xx): the refund may have been made.
      return { ok: false, message: REFUND_FAILURE_MESSAGES.unknown, unknown: true };
    }
  }

  async detachPaymentMethod(paymentMethodRef: string): Promise<void> {
    try {
      await this.stripe.paymentMethods.detach(paymentMethodRef);
    } catch (error) {
      // Already gone at Stripe: forgotten all the same.
      if (error instanceof stripeSdk().errors.StripeError && error.code === 'resource_missing')
        return;
      throw error;
    }
  }

  async verifyEvent(
    rawBody: string,
    signatureHeader: string | undefined,
  ): Promise<GatewayEvent | null> {
    if (!signatureHeader) throw new Error('Missing Stripe-Signature header.');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(
        rawBody,
        signatureHeader,
        this.webhookSecret,
        STRIPE_SIGNATURE_TOLERANCE_S,
        undefined,
        this.clock.now().getTime(),
      );
    } catch (error) {
      // Stripe's message is long and about integration; ours says what was wrong.
      throw new Error('The Stripe signature does not verify.', { cause: error });
    }
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        return this.completed(event.id, event.data.object);
      case 'checkout.session.async_payment_failed':
        return failed(event.id, event.data.object, 'declined');
      case 'checkout.session.expired':
        return failed(event.id, event.data.object, 'expired');
      default:
        return null;
    }
  }

  /** A completed page: the card kept (and the payment made) read back from Stripe. */
  private async completed(
    eventId: string,
    session: Stripe.Checkout.Session,
  ): Promise<GatewayEvent | null> {
    const checkoutId = checkoutIdOf(session);
    if (!checkoutId) return null;
    let paymentMethod: string | Stripe.PaymentMethod | null;
    let chargeRef: string | null = null;
    let customerRef = idOf(session.customer);
    if (session.mode === 'payment') {
      // A delayed payment method completes the page unpaid; its async_payment_* event follows.
      if (session.payment_status !== 'paid') return null;
      const intentId = idOf(session.payment_intent);
      if (!intentId) throw new Error(`Checkout session ${session.id} has no payment.`);
      const intent = await this.stripe.paymentIntents.retrieve(intentId, {
        expand: ['payment_method'],
      });
      paymentMethod = intent.payment_method;
      chargeRef = intent.id;
      customerRef ??= idOf(intent.customer);
    } else if (session.mode === 'setup') {
      const setupId = idOf(session.setup_intent);
      if (!setupId) throw new Error(`Checkout session ${session.id} has no setup.`);
      const setup = await this.stripe.setupIntents.retrieve(setupId, {
        expand: ['payment_method'],
      });
      paymentMethod = setup.payment_method;
      customerRef ??= idOf(setup.customer);
    } else {
      return null;
    }
    if (!paymentMethod || typeof paymentMethod === 'string' || !paymentMethod.card)
      throw new Error(`Checkout session ${session.id} kept no card.`);
    const { card } = paymentMethod;
    const summary: CardSummary = {
      brand: brandFromStripe(card.brand),
      last4: card.last4,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
    };
    return {
      id: eventId,
      type: 'checkout.completed',
      checkoutRef: session.id,
      checkoutId,
      customerRef,
      paymentMethod: { ref: paymentMethod.id, card: summary },
      chargeRef,
      amount: session.mode === 'payment' ? (session.amount_total ?? 0) : 0,
      currency: session.currency?.toLowerCase() ?? null,
    };
  }

  /** The customer a kept card is attached to (a card kept before the portal knew the customer). */
  private async customerOf(paymentMethodRef: string): Promise<string | null> {
    const method = await this.stripe.paymentMethods.retrieve(paymentMethodRef);
    return idOf(method.customer);
  }
}

/** The portal's checkout a session was opened for; none (or not ours): the event is ignored. */
function checkoutIdOf(session: Stripe.Checkout.Session): string | null {
  const id = session.metadata?.checkout_id ?? session.client_reference_id;
  return id && UUID.test(id) ? id : null;
}

function failed(
  eventId: string,
  session: Stripe.Checkout.Session,
  reason: ChargeFailure | 'expired',
): GatewayEvent | null {
  const checkoutId = checkoutIdOf(session);
  if (!checkoutId) return null;
  return {
    id: eventId,
    type: 'checkout.failed',
    checkoutRef: session.id,
    checkoutId,
    reason,
    message: CHARGE_FAILURE_MESSAGES[reason],
  };
}

function failure(reason: ChargeFailure): ChargeResult {
  return { ok: false, reason, message: CHARGE_FAILURE_MESSAGES[reason] };
}

function unknownOutcome(): ChargeResult {
  return { ok: false, reason: 'error', message: CHARGE_FAILURE_MESSAGES.error, unknown: true };
}
