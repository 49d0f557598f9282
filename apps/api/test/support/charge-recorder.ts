import { eq } from 'drizzle-orm';
import type { TestApp } from './app.ts';
import { paymentMethods, subscriptions } from '../../src/db/schema/index.ts';
import type {
  ChargeFailure,
  ChargeRequest,
  ChargeResult,
  PaymentGateway,
} from '../../src/lib/payments/gateway.ts';
import { createSubscription } from '../../src/seed/factories.ts';

/** Counted across recorders: two instances' recorders in one test never make the same charge id. */
let charges = 0;

/**
 * A payment gateway of the test's own: charges succeed unless told to fail, every call is kept,
 * and a repeated idempotency key answers the first result, as a real gateway does.
 */
export class ChargeRecorder implements PaymentGateway {
  readonly name = 'sandbox';
  readonly calls: ChargeRequest[] = [];
  /** null: charges succeed; otherwise every charge fails this way. */
  failWith: ChargeFailure | null = null;
  private readonly answered = new Map<string, ChargeResult>();

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    this.calls.push(request);
    const earlier = this.answered.get(request.idempotencyKey);
    if (earlier) return earlier;
    const result: ChargeResult = this.failWith
      ? { ok: false, reason: this.failWith, message: this.failWith }
      : { ok: true, chargeRef: `ch_test_${process.pid}_${Date.now()}_${charges++}` };
    this.answered.set(request.idempotencyKey, result);
    return result;
  }

  /** The charges made for one subscription (their keys carry its id). */
  callsFor(subscriptionId: string): ChargeRequest[] {
    return this.calls.filter((c) => c.idempotencyKey.includes(subscriptionId));
  }

  async openCheckout(): Promise<never> {
    throw new Error('not used by these tests');
  }
  async detachPaymentMethod(): Promise<void> {}
  async refund(): Promise<never> {
    throw new Error('not used by these tests');
  }
  async verifyEvent(): Promise<null> {
    return null;
  }
}

/** Puts a ChargeRecorder in the running app's context (services read ctx.payments per call). */
export function recordCharges(t: TestApp): ChargeRecorder {
  const recorder = new ChargeRecorder();
  t.ctx.payments = recorder;
  return recorder;
}

let cards = 0;
/** A kept card of the organization (what a completed setup checkout leaves). */
export async function addCard(t: TestApp, organizationId: string) {
  const [card] = await t.ctx.db
    .insert(paymentMethods)
    .values({
      organization_id: organizationId,
      gateway_ref: `pm_test_${process.pid}_${Date.now()}_${cards++}`,
      brand: 'visa',
      last4: '4242',
      exp_month: 12,
      exp_year: 2099,
    })
    .returning();
  return card!;
}

/** Replaces the organization's subscription with a new one (createSubscription's fields). */
export async function replaceSubscription(
  t: TestApp,
  fields: Parameters<typeof createSubscription>[1],
) {
  await t.ctx.db
    .delete(subscriptions)
    .where(eq(subscriptions.organization_id, fields.organizationId));
  return createSubscription(t.ctx.db, fields);
}
