import type { CardBrand } from '@portolan/contract';

/**
 * The payment provider behind one interface (DESIGN "payments"; decision 0009). The portal owns
 * plans, subscriptions, periods and proration; a gateway only
 *  - opens a hosted page where the buyer types a card (the portal never sees the number): to pay
 *    an amount and keep the card for later charges (`payment`), or only to keep a card (`setup`);
 *  - charges a kept card off-session (renewals, upgrades);
 *  - gives money of a charge back (refunds, which the portal records as credit notes);
 *  - forgets a kept card;
 *  - tells the outcome of a hosted page as signed events, which the portal verifies here and
 *    handles in one place (modules/billing/events.ts) whichever gateway sent them.
 * Adapters: `sandbox` (built in, test card numbers, no money moves) and `stripe`.
 */

/** What the portal keeps of a card: never its number. */
export interface CardSummary {
  brand: CardBrand;
  last4: string;
  exp_month: number;
  exp_year: number;
}

export interface CheckoutRequest {
  /** The portal's checkout row; the gateway echoes it in its events. */
  checkoutId: string;
  mode: 'payment' | 'setup';
  organizationId: string;
  /** The organization's customer at the gateway, when it has one (Stripe). */
  customerRef: string | null;
  /** Minor units; 0 in setup mode. */
  amount: number;
  currency: string;
  /** Shown on the hosted page ("Professional plan, monthly"). */
  description: string;
  /** Where the browser goes back to after paying, or giving up. */
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
}

export interface HostedCheckout {
  /** The gateway's id of the hosted page (the sandbox's session, a Stripe Checkout Session). */
  gatewayRef: string;
  /** Where to send the browser. */
  url: string;
  customerRef: string | null;
}

export interface ChargeRequest {
  customerRef: string | null;
  paymentMethodRef: string;
  amount: number;
  currency: string;
  description: string;
  /** Passed on to the gateway, so a retried call never charges twice. */
  idempotencyKey: string;
}

export type ChargeFailure = 'declined' | 'insufficient_funds' | 'error';
export type ChargeResult =
  | { ok: true; chargeRef: string }
  | {
      ok: false;
      reason: ChargeFailure;
      message: string;
      /**
       * The gateway may have taken the money all the same (no answer, a 5xx, a payment still
       * processing): the caller retries with the same idempotency key until it answers for sure.
       * Absent: a definite failure, nothing was charged.
       */
      unknown?: true;
    };

/** Money of a charge given back to the card (a credit note's refund). */
export interface RefundRequest {
  /** The charge as `charge` (or a hosted page's payment) named it: the invoice's gateway_ref. */
  chargeRef: string;
  /** Minor units, at most what is left of the charge. */
  amount: number;
  currency: string;
  /** Passed on to the gateway, so a retried call never refunds twice. */
  idempotencyKey: string;
}

export type RefundResult =
  | { ok: true; refundRef: string }
  | {
      ok: false;
      /** For the platform's operators: what to check (never the gateway's own text). */
      message: string;
      /** As for a charge: the refund may have been made; retry with the same idempotency key. */
      unknown?: true;
    };

/** A verified event of a gateway, in the portal's terms. `id` de-duplicates redeliveries. */
export type GatewayEvent =
  | {
      id: string;
      type: 'checkout.completed';
      checkoutRef: string;
      /** The checkout row the portal made (from the session's metadata). */
      checkoutId: string;
      customerRef: string | null;
      paymentMethod: { ref: string; card: CardSummary };
      /** The payment made (payment mode), or null (setup mode). */
      chargeRef: string | null;
      /** What the gateway took, minor units (0 in setup mode), and in which currency (lower case). */
      amount: number;
      currency: string | null;
    }
  | {
      id: string;
      type: 'checkout.failed';
      checkoutRef: string;
      checkoutId: string;
      reason: ChargeFailure | 'expired';
      message: string;
    };

export interface PaymentGateway {
  readonly name: 'sandbox' | 'stripe';
  openCheckout(request: CheckoutRequest): Promise<HostedCheckout>;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  detachPaymentMethod(paymentMethodRef: string): Promise<void>;
  /** Gives (part of) a charge back to its card. */
  refund(request: RefundRequest): Promise<RefundResult>;
  /**
   * Checks an event's signature over its raw body and reads it; throws when the signature is
   * wrong (the webhook then answers 400). An event type the portal ignores reads as null (200).
   * Async: reading an event may need the gateway's API (Stripe: the card of a session).
   */
  verifyEvent(rawBody: string, signatureHeader: string | undefined): Promise<GatewayEvent | null>;
}

/** The message a buyer reads for each failure (the hosted page, a toast, an invoice). */
export const CHARGE_FAILURE_MESSAGES: Record<ChargeFailure | 'expired', string> = {
  declined: 'Your card was declined. Try another card.',
  insufficient_funds: 'Your card has insufficient funds. Try another card.',
  error: 'The payment could not be processed. Try again in a few minutes.',
  expired: 'The checkout expired before it was paid. Start again.',
};

/** What the platform's operators read when a refund is not made. */
export const REFUND_FAILURE_MESSAGES = {
  unknownCharge: 'The gateway does not know this payment, so nothing was refunded.',
  tooMuch: 'The gateway refused: this is more than is left of the payment. Nothing was refunded.',
  refused:
    'The gateway refused the refund. Check the payment in the gateway’s dashboard; nothing was refunded.',
  unknown:
    'The gateway did not answer for sure. Try again with the same Idempotency-Key: it refunds once.',
} as const;
