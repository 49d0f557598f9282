import crypto from 'node:crypto';
import type { CardBrand } from '@portolan/contract';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
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
 * The built-in stand-in for a card processor (DESIGN "payments"): no money moves, test card
 * numbers decide the outcome. Its hosted page is served by the API itself
 * (modules/billing/sandbox-routes.ts); what the buyer types is checked here and only brand, last
 * four digits and expiry survive. Its events are signed like a real gateway's, so they take the
 * same road as a webhook.
 */

/** The outcome a test card gives: paid, or one of the failures. */
type Outcome = 'ok' | ChargeFailure;

/** Test numbers with a fixed outcome; any other number passing Luhn succeeds. */
const TEST_CARDS: Record<string, { checkout: Outcome; later: Outcome }> = {
  '4000000000000002': { checkout: 'declined', later: 'declined' },
  '4000000000009995': { checkout: 'insufficient_funds', later: 'insufficient_funds' },
  // Kept fine at a checkout, declined when charged later (a renewal failing).
  '4000000000000341': { checkout: 'ok', later: 'declined' },
};

/** Signed events older (or newer) than this are refused: a captured body cannot be replayed. */
export const SIGNATURE_TOLERANCE_S = 300;

/** The header a sandbox event's signature travels in (Stripe's is `stripe-signature`). */
export const SANDBOX_SIGNATURE_HEADER = 'portolan-signature';

export const SANDBOX_CHECKOUT_PATH = '/v1/billing/sandbox/checkout/';

export function brandOf(number: string): CardBrand {
  const two = Number(number.slice(0, 2));
  const four = Number(number.slice(0, 4));
  if (number.startsWith('4')) return 'visa';
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'mastercard';
  if (two === 34 || two === 37) return 'amex';
  if (number.startsWith('6011') || number.startsWith('65')) return 'discover';
  if (two === 35) return 'jcb';
  if (two === 36 || two === 38 || two === 30) return 'diners';
  if (two === 62) return 'unionpay';
  return 'unknown';
}

export function passesLuhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return number.length > 0 && sum % 10 === 0;
}

/** What the hosted page's form sends; every field a string, anything else is a bad form. */
export interface CardForm {
  number: string;
  expiry: string;
  cvc: string;
  name: string;
}

export type CardCheck =
  | { ok: true; card: CardSummary; outcome: { checkout: Outcome; later: Outcome } }
  | { ok: false; field: keyof CardForm; message: string };

/**
 * Checks a typed card. Messages never repeat what was typed: the number must not reach a log,
 * the database or an answer.
 */
export function checkCard(form: CardForm, now: Date): CardCheck {
  const number = form.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !passesLuhn(number))
    return { ok: false, field: 'number', message: 'Enter a valid card number.' };
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(form.expiry);
  const month = Number(expiry?.[1]);
  const year = expiry?.[2]?.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry?.[2]);
  if (!expiry || month < 1 || month > 12)
    return { ok: false, field: 'expiry', message: 'Enter the expiry date as MM/YY.' };
  const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
  if (year * 12 + (month - 1) < thisMonth)
    return { ok: false, field: 'expiry', message: 'This card has expired.' };
  const brand = brandOf(number);
  if (!(brand === 'amex' ? /^\d{4}$/ : /^\d{3}$/).test(form.cvc.trim()))
    return { ok: false, field: 'cvc', message: 'Enter the security code on the card.' };
  if (form.name.trim().length === 0 || form.name.length > 200)
    return { ok: false, field: 'name', message: 'Enter the name on the card.' };
  return {
    ok: true,
    card: { brand, last4: number.slice(-4), exp_month: month, exp_year: year },
    outcome: TEST_CARDS[number] ?? { checkout: 'ok', later: 'ok' },
  };
}

const randomHex = (bytes = 12) => crypto.randomBytes(bytes).toString('hex');

const cardSummarySchema = z.object({
  brand: z.string(),
  last4: z.string().regex(/^\d{4}$/),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
});
const eventSchema = z.discriminatedUnion('type', [
  z.object({
    id: z.string().min(1).max(200),
    type: z.literal('checkout.completed'),
    checkoutRef: z.string().max(200),
    checkoutId: z.uuid(),
    customerRef: z.string().max(200).nullable(),
    paymentMethod: z.object({ ref: z.string().min(1).max(200), card: cardSummarySchema }),
    chargeRef: z.string().max(200).nullable(),
    amount: z.number().int(),
    currency: z.string().max(10).nullable(),
  }),
  z.object({
    id: z.string().min(1).max(200),
    type: z.literal('checkout.failed'),
    checkoutRef: z.string().max(200),
    checkoutId: z.uuid(),
    reason: z.enum(['declined', 'insufficient_funds', 'error', 'expired']),
    message: z.string().max(500),
  }),
]);

export class SandboxGateway implements PaymentGateway {
  readonly name = 'sandbox';
  private readonly secret: Buffer;
  /** Test hook: cards told to fail from now on, whatever their number said. */
  private readonly failing = new Map<string, ChargeFailure>();

  private readonly clock: Clock;
  /** What each charge has had refunded (chargeRef → minor units), and refunds by idempotency key. */
  private readonly refunded = new Map<string, number>();
  private readonly refundsByKey = new Map<string, RefundResult>();
  private refundFailure: 'refused' | 'unknown' | null = null;

  /** `jwtKey`: the server's signing key; the sandbox's event secret is derived from it. */
  constructor(jwtKey: Uint8Array, clock: Clock) {
    this.clock = clock;
    this.secret = crypto.createHmac('sha256', jwtKey).update('portolan sandbox events').digest();
  }

  async openCheckout(request: CheckoutRequest): Promise<HostedCheckout> {
    const gatewayRef = `cs_sandbox_${randomHex()}`;
    return {
      gatewayRef,
      url: `${SANDBOX_CHECKOUT_PATH}${gatewayRef}/`,
      customerRef: request.customerRef,
    };
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const reason =
      this.failing.get(request.paymentMethodRef) ?? laterOutcomeOf(request.paymentMethodRef);
    if (reason !== 'ok') return { ok: false, reason, message: CHARGE_FAILURE_MESSAGES[reason] };
    return { ok: true, chargeRef: chargeRefOf(request.amount, request.currency) };
  }

  /**
   * Gives back at most what is left of a charge (its amount rides in its ref, so charges made
   * before a restart are known too); what was refunded already is kept in memory, and a retry
   * with the same idempotency key answers the first refund.
   */
  async refund(request: RefundRequest): Promise<RefundResult> {
    const replay = this.refundsByKey.get(request.idempotencyKey);
    if (replay) return replay;
    if (this.refundFailure) {
      return this.refundFailure === 'unknown'
        ? { ok: false, message: REFUND_FAILURE_MESSAGES.unknown, unknown: true }
        : { ok: false, message: REFUND_FAILURE_MESSAGES.refused };
    }
    const charge = chargeOf(request.chargeRef);
    if (!charge || charge.currency !== request.currency.toLowerCase())
      return { ok: false, message: REFUND_FAILURE_MESSAGES.unknownCharge };
    const refunded = this.refunded.get(request.chargeRef) ?? 0;
    if (request.amount < 1 || refunded + request.amount > charge.amount)
      return { ok: false, message: REFUND_FAILURE_MESSAGES.tooMuch };
    this.refunded.set(request.chargeRef, refunded + request.amount);
    const result: RefundResult = { ok: true, refundRef: `re_sandbox_${randomHex()}` };
    this.refundsByKey.set(request.idempotencyKey, result);
    return result;
  }

  /** Test hook: every later refund is refused, or gets no sure answer (null: refunds work). */
  failRefunds(outcome: 'refused' | 'unknown' | null): void {
    this.refundFailure = outcome;
  }

  /** Nothing is kept at the sandbox's side but the token itself. */
  async detachPaymentMethod(): Promise<void> {}

  /** Test hook: the kept card fails every later charge with this reason (null: as its number says). */
  failCharges(paymentMethodRef: string, reason: ChargeFailure | null): void {
    if (reason) this.failing.set(paymentMethodRef, reason);
    else this.failing.delete(paymentMethodRef);
  }

  /**
   * Pays (or only keeps the card, amount 0) at a hosted page: the event the sandbox then sends,
   * which a real gateway would send to the webhook. The card's later outcome rides in its token.
   */
  pay(
    checkout: { id: string; gatewayRef: string; amount: number; currency: string },
    check: Extract<CardCheck, { ok: true }>,
  ): GatewayEvent {
    const id = `evt_sandbox_${randomHex()}`;
    const base = { id, checkoutRef: checkout.gatewayRef, checkoutId: checkout.id };
    // A setup (amount 0) charges nothing, so only the card's later outcome counts.
    const now = checkout.amount > 0 ? check.outcome.checkout : 'ok';
    if (now !== 'ok')
      return {
        ...base,
        type: 'checkout.failed',
        reason: now,
        message: CHARGE_FAILURE_MESSAGES[now],
      };
    return {
      ...base,
      type: 'checkout.completed',
      customerRef: null,
      paymentMethod: { ref: `pm_sandbox_${check.outcome.later}_${randomHex()}`, card: check.card },
      chargeRef: checkout.amount > 0 ? chargeRefOf(checkout.amount, checkout.currency) : null,
      amount: checkout.amount,
      currency: checkout.currency,
    };
  }

  /** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, as Stripe signs. */
  sign(rawBody: string, at: Date = this.clock.now()): string {
    const t = Math.floor(at.getTime() / 1000);
    return `t=${t},v1=${this.mac(t, rawBody).toString('hex')}`;
  }

  async verifyEvent(
    rawBody: string,
    signatureHeader: string | undefined,
  ): Promise<GatewayEvent | null> {
    const parts = new Map(
      (signatureHeader ?? '').split(',').map((part) => {
        const at = part.indexOf('=');
        return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
      }),
    );
    const t = Number(parts.get('t'));
    const given = Buffer.from(parts.get('v1') ?? '', 'hex');
    if (!Number.isInteger(t)) throw new Error('Missing or malformed signature.');
    const expected = this.mac(t, rawBody);
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected))
      throw new Error('The signature does not match.');
    if (Math.abs(this.clock.now().getTime() / 1000 - t) > SIGNATURE_TOLERANCE_S)
      throw new Error('The signature is too old.');
    let json: unknown;
    try {
      json = JSON.parse(rawBody);
    } catch {
      throw new Error('The event is not JSON.');
    }
    const parsed = eventSchema.safeParse(json);
    if (parsed.success) return parsed.data as GatewayEvent;
    // A signed event of a type the portal does not handle is acknowledged and ignored.
    const type = (json as { type?: unknown } | null)?.type;
    if (typeof type === 'string' && !type.startsWith('checkout.')) return null;
    throw new Error('The event is malformed.');
  }

  private mac(t: number, rawBody: string): Buffer {
    return crypto.createHmac('sha256', this.secret).update(`${t}.${rawBody}`).digest();
  }
}

/** A charge's ref carries what it took: `ch_sandbox_<amount>_<currency>_<hex>`. */
const chargeRefOf = (amount: number, currency: string) =>
  `ch_sandbox_${amount}_${currency.toLowerCase()}_${randomHex()}`;

function chargeOf(ref: string): { amount: number; currency: string } | null {
  const match = /^ch_sandbox_(\d+)_([a-z]{3})_[0-9a-f]+$/.exec(ref);
  return match ? { amount: Number(match[1]), currency: match[2]! } : null;
}

/** A kept card's outcome when charged later, from its token (`pm_sandbox_<outcome>_<hex>`). */
function laterOutcomeOf(ref: string): Outcome {
  const match = /^pm_sandbox_(ok|declined|insufficient_funds|error)_[0-9a-f]+$/.exec(ref);
  return (match?.[1] as Outcome | undefined) ?? 'ok';
}
