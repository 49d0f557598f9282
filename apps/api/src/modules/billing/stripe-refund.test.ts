import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeFake, type StripeFake } from '../../../test/support/stripe-fake.ts';
import { REFUND_FAILURE_MESSAGES } from '../../lib/payments/gateway.ts';
import { StripeGateway } from '../../lib/payments/stripe.ts';

/**
 * The Stripe adapter's refunds (a credit note's money), against the local fake of Stripe's API:
 * POST /v1/refunds of the charge's PaymentIntent with the caller's Idempotency-Key; at most what
 * is left; an answer lost after the refund was made is unknown, and the retry with the same key
 * is Stripe's replay.
 */

const SECRET_KEY = 'sk_test_refunds';
const WEBHOOK_SECRET = 'whsec_refunds';

describe('Stripe refunds', () => {
  let fake: StripeFake;
  let gateway: StripeGateway;

  beforeAll(async () => {
    fake = await startStripeFake({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
    // No retries of the SDK's own: a lost answer reaches the adapter.
    gateway = new StripeGateway({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: fake.url,
      clock: { now: () => new Date() },
      maxNetworkRetries: 0,
    });
  });
  afterAll(() => fake?.close());

  /** A payment of `amount` made at a hosted page: its PaymentIntent (what the invoice names). */
  async function paid(amount: number): Promise<string> {
    const page = await gateway.openCheckout({
      checkoutId: crypto.randomUUID(),
      mode: 'payment',
      organizationId: crypto.randomUUID(),
      customerRef: null,
      amount,
      currency: 'usd',
      description: 'Fund package Team',
      successUrl: 'http://localhost/ok',
      cancelUrl: 'http://localhost/cancel',
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const [completed] = fake.pay(page.gatewayRef, '4242424242424242');
    const event = await gateway.verifyEvent(completed!.body, completed!.signature);
    if (event?.type !== 'checkout.completed' || !event.chargeRef) throw new Error('not paid');
    return event.chargeRef;
  }

  const refund = (
    chargeRef: string,
    amount: number,
    idempotencyKey: string = crypto.randomUUID(),
  ) => gateway.refund({ chargeRef, amount, currency: 'usd', idempotencyKey });

  it('refunds part of a payment with the key given, once per key, and never more than is left', async () => {
    const intent = await paid(5000);
    const key = `refund:${crypto.randomUUID()}:k1`;
    const first = await refund(intent, 2000, key);
    expect(first).toEqual({ ok: true, refundRef: expect.stringMatching(/^re_/) });
    const [request] = fake.requestsTo('POST', '/v1/refunds').slice(-1);
    expect(request).toMatchObject({
      idempotencyKey: key,
      params: { payment_intent: intent, amount: '2000' },
    });
    // The same key again: Stripe's replay, nothing more refunded.
    expect(await refund(intent, 2000, key)).toEqual(first);
    expect(
      [...fake.refunds.values()].filter((r) => r.payment_intent === intent).map((r) => r.amount),
    ).toEqual([2000]);

    expect(await refund(intent, 3001)).toEqual({
      ok: false,
      message: REFUND_FAILURE_MESSAGES.tooMuch,
    });
    expect(await refund(intent, 3000)).toMatchObject({ ok: true });
    expect(await refund(intent, 1)).toEqual({
      ok: false,
      message: REFUND_FAILURE_MESSAGES.tooMuch,
    });
  });

  it('refuses a payment Stripe does not know, and a reference that is not a payment, without asking', async () => {
    expect(await refund('pi_unknown', 100)).toEqual({
      ok: false,
      message: REFUND_FAILURE_MESSAGES.unknownCharge,
    });
    const asked = fake.requests.length;
    expect(await refund('cs_test_session', 100)).toEqual({
      ok: false,
      message: REFUND_FAILURE_MESSAGES.unknownCharge,
    });
    expect(fake.requests.length).toBe(asked);
  });

  it('a refund whose answer was lost is unknown; asked again with the same key, it was made once', async () => {
    const intent = await paid(4000);
    const key = `refund:${crypto.randomUUID()}:k2`;
    fake.dropAnswers('/v1/refunds', 1, key);
    expect(await refund(intent, 4000, key)).toEqual({
      ok: false,
      message: REFUND_FAILURE_MESSAGES.unknown,
      unknown: true,
    });
    expect(await refund(intent, 4000, key)).toMatchObject({ ok: true });
    const made = [...fake.refunds.values()].filter((r) => r.payment_intent === intent);
    expect(made.map((r) => r.amount)).toEqual([4000]);
  });
});
