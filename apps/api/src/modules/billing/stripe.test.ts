import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  formField,
  startStripeFake,
  type FakeCard,
  type StripeFake,
  type WebhookDelivery,
} from '../../../test/support/stripe-fake.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import {
  gatewayEvents,
  invoices,
  paymentMethods,
  plans,
  subscriptions,
} from '../../db/schema/index.ts';
import { days, minutes } from '../../lib/clock.ts';
import { CHARGE_FAILURE_MESSAGES } from '../../lib/payments/gateway.ts';
import { brandFromStripe, StripeGateway } from '../../lib/payments/stripe.ts';
import { createOrganization, createUser, FACTORY_PASSWORD } from '../../seed/factories.ts';
import { runRenewals, UNKNOWN_OUTCOME_RETRY_MS } from './renewal.ts';

/**
 * The Stripe adapter end to end: the real app with PAYMENT_GATEWAY=stripe and the real `stripe`
 * SDK, pointed at a local fake of the Stripe API (test/support/stripe-fake.ts). The subscription
 * flow of the sandbox runs here too, its webhooks delivered twice and out of order: exactly one
 * subscription, one invoice per payment. Runs on both engines.
 */

const SECRET_KEY = 'sk_test_x';
const WEBHOOK_SECRET = 'whsec_test';
const CARD_NUMBERS = [
  '4242424242424242',
  '4000000000000341',
  '4000000000000002',
  '4000000000009995',
];

describe('billing through Stripe (a local fake of its API)', () => {
  let fake: StripeFake;
  let t: TestApp;
  const logs: string[] = [];

  beforeAll(async () => {
    // The fake first: its port is the app's STRIPE_API_BASE.
    fake = await startStripeFake({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
    t = await createTestApp(
      {
        PAYMENT_GATEWAY: 'stripe',
        STRIPE_SECRET_KEY: SECRET_KEY,
        STRIPE_API_BASE: fake.url,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        LOG_LEVEL: 'info',
      },
      { logStream: { write: (line) => void logs.push(line) } },
    );
    // Stripe's time is the app's: signatures and session expiries follow the test's clock.
    fake.now = () => t.clock.now().getTime();
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  let address = 0;
  /** An organization with no subscription and its signed-in owner. */
  async function owner() {
    const user = await createUser(t.ctx.db);
    const org = await createOrganization(t.ctx.db, { ownerId: user.id, plan: null });
    const n = address++;
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/app/login/',
      payload: { email: user.email, password: FACTORY_PASSWORD },
      remoteAddress: `10.93.${Math.floor(n / 250)}.${(n % 250) + 1}`,
    });
    expect(res.statusCode).toBe(200);
    return { orgId: org.id, token: res.json().token as string };
  }
  type Owner = Awaited<ReturnType<typeof owner>>;

  const subscribe = (who: Owner, key: string, plan = 'PROFESSIONAL') =>
    t.app.inject({
      method: 'POST',
      url: `/v1/organizations/${who.orgId}/checkout/`,
      headers: { ...bearer(who.token), 'idempotency-key': key },
      payload: { plan },
    });
  const addCardPage = (who: Owner, key: string) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/organizations/${who.orgId}/payment-methods/checkout/`,
      headers: { ...bearer(who.token), 'idempotency-key': key },
    });
  const checkoutOf = (who: Owner, id: string) =>
    t.app.inject({
      method: 'GET',
      url: `/v1/organizations/${who.orgId}/checkout/${id}/`,
      headers: bearer(who.token),
    });
  const cardsOf = (who: Owner) =>
    t.app.inject({
      method: 'GET',
      url: `/v1/organizations/${who.orgId}/payment-methods/`,
      headers: bearer(who.token),
    });
  const deliver = (delivery: WebhookDelivery, signature: string | null = delivery.signature) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/billing/webhooks/stripe/',
      headers: {
        'content-type': 'application/json',
        ...(signature !== null && { 'stripe-signature': signature }),
      },
      payload: delivery.body,
    });
  /** The Stripe session of a checkout (its URL ends with the session's id). */
  const sessionOf = (url: string) => url.split('/').pop()!;

  const subscriptionsOf = (orgId: string) =>
    t.ctx.db
      .select({ subscription: subscriptions, plan: plans })
      .from(subscriptions)
      .innerJoin(plans, eq(plans.id, subscriptions.plan_id))
      .where(eq(subscriptions.organization_id, orgId));
  /** The organization's one subscription. */
  const subscriptionOf = async (orgId: string) => {
    const rows = await subscriptionsOf(orgId);
    expect(rows).toHaveLength(1);
    return rows[0]!.subscription;
  };
  const invoicesOf = (orgId: string) =>
    t.ctx.db.select().from(invoices).where(eq(invoices.organization_id, orgId));
  const professional = async () =>
    (
      await t.ctx.db
        .select()
        .from(plans)
        .where(and(eq(plans.app_profile, 'transit'), eq(plans.type, 'PROFESSIONAL')))
    )[0]!;

  /** Nothing the portal sent to Stripe, or read back, or logged, carries a card number. */
  function expectNoCardNumbers() {
    expect(logs.length).toBeGreaterThan(0);
    const seen = [...fake.requests.flatMap((r) => [r.raw, r.response]), ...logs].join('\n');
    for (const number of CARD_NUMBERS) expect(seen).not.toContain(number);
  }

  // State shared by the flow below: the subscribed organization, its card and customer.
  let subscribed: Owner;
  let cardRef: string;
  let customerRef: string;

  it('subscribes through a Checkout Session; events twice and out of order apply once', async () => {
    const who = (subscribed = await owner());
    const plan = await professional();

    const opened = await subscribe(who, 'subscribe-1');
    expect(opened.statusCode).toBe(201);
    const checkout = opened.json();
    expect(checkout).toMatchObject({ status: 'OPEN', kind: 'SUBSCRIPTION' });
    expect(checkout.url).toMatch(new RegExp(`^${fake.url}/pay/cs_test_[0-9a-f]+$`));

    // A customer for the organization, then the session, each with our idempotency key.
    const [customerCall] = fake.requestsTo('POST', '/v1/customers');
    expect(customerCall).toMatchObject({
      idempotencyKey: `customer:${who.orgId}`,
      params: { metadata: { organization_id: who.orgId } },
      status: 200,
    });
    customerRef = JSON.parse(customerCall!.response).id;
    const sessionCalls = fake.requestsTo('POST', '/v1/checkout/sessions');
    expect(sessionCalls).toHaveLength(1);
    const session = sessionCalls[0]!;
    expect(session.idempotencyKey).toBe(`checkout:${checkout.id}`);
    expect(session.params).toMatchObject({
      mode: 'payment',
      customer: customerRef,
      client_reference_id: checkout.id,
      metadata: { checkout_id: checkout.id },
      allowed_payment_method_types: ['card'],
      line_items: [
        {
          quantity: '1',
          price_data: {
            currency: plan.currency,
            unit_amount: String(plan.price),
            product_data: { name: 'Professional plan, monthly' },
          },
        },
      ],
      payment_intent_data: {
        setup_future_usage: 'off_session',
        metadata: { checkout_id: checkout.id },
      },
    });
    expect(formField(session.params, 'success_url')).toContain(`?checkout=${checkout.id}`);
    // The portal's hour, as Stripe's unix seconds.
    expect(Number(formField(session.params, 'expires_at'))).toBe(
      Math.floor(new Date(checkout.expires_at).getTime() / 1000),
    );

    // A replay of the paying call answers the first page and opens no second session.
    const replay = await subscribe(who, 'subscribe-1');
    expect(replay.statusCode).toBe(201);
    expect(replay.json()).toEqual(checkout);
    expect(fake.requestsTo('POST', '/v1/checkout/sessions')).toHaveLength(1);
    expect(fake.requestsTo('POST', '/v1/customers')).toHaveLength(1);

    // The buyer pays on Stripe's page; Stripe sends the completed event twice (at once), with an
    // event the portal does not handle in between.
    const sessionId = sessionOf(checkout.url);
    const [completed] = fake.pay(sessionId, '4242424242424242');
    const unrelated = fake.event('customer.updated', fake.customers.get(customerRef)!);
    const answers = await Promise.all([
      deliver(completed!),
      deliver(unrelated),
      deliver(completed!),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect((await deliver(completed!)).statusCode).toBe(200);

    const subs = await subscriptionsOf(who.orgId);
    expect(subs).toHaveLength(1);
    const { subscription } = subs[0]!;
    expect(subs[0]!.plan.type).toBe('PROFESSIONAL');
    expect(subscription).toMatchObject({
      status: 'ACTIVE',
      is_active: true,
      amount: plan.price,
      limits: plan.config,
      gateway_customer_ref: customerRef,
    });
    const pi = [...fake.paymentIntents.values()].find((p) => p.customer === customerRef)!;
    cardRef = pi.payment_method as string;
    const paid = await invoicesOf(who.orgId);
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({
      kind: 'SUBSCRIPTION',
      status: 'PAID',
      amount: plan.price,
      gateway_ref: pi.id,
    });

    const cards = (await cardsOf(who)).json();
    expect(cards.results).toEqual([
      {
        id: subscription.default_payment_method_id,
        brand: 'visa',
        last4: '4242',
        exp_month: 12,
        exp_year: t.clock.now().getUTCFullYear() + 4,
        is_default: true,
      },
    ]);
    const [kept] = await t.ctx.db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.organization_id, who.orgId));
    expect(kept!.gateway_ref).toBe(cardRef);

    expect((await checkoutOf(who, checkout.id)).json()).toMatchObject({ status: 'COMPLETE' });
    // The card's details were read back with the payment's method expanded.
    expect(fake.requestsTo('GET', `/v1/payment_intents/${pi.id}`)[0]?.params).toEqual({
      expand: ['payment_method'],
    });
    expectNoCardNumbers();
  });

  // Stripe reports a failed payment as a page completed unpaid, then the failure. Delivered here
  // out of order (the failure first) and in order (the unpaid completion must not subscribe).
  it.each([
    ['4000000000000002', 'failure first', ['failure', 'unpaid', 'failure']],
    ['4000000000009995', 'in order, twice', ['unpaid', 'failure', 'unpaid', 'failure']],
  ] as const)(
    'a failed payment (%s, %s) fails the checkout and subscribes nobody',
    async (card, _how, order) => {
      const who = await owner();
      const checkout = (await subscribe(who, `fail-${card}`)).json();
      const deliveries = fake.pay(sessionOf(checkout.url), card as FakeCard);
      expect(deliveries.map((d) => d.type)).toEqual([
        'checkout.session.completed',
        'checkout.session.async_payment_failed',
      ]);
      const [unpaid, failure] = deliveries as [WebhookDelivery, WebhookDelivery];
      for (const delivery of order.map((name) => ({ unpaid, failure })[name]))
        expect((await deliver(delivery)).statusCode).toBe(200);

      expect((await checkoutOf(who, checkout.id)).json()).toMatchObject({
        status: 'FAILED',
        failure_message: CHARGE_FAILURE_MESSAGES.declined,
      });
      expect(await subscriptionsOf(who.orgId)).toHaveLength(0);
      expect(await invoicesOf(who.orgId)).toHaveLength(0);
      expect((await cardsOf(who)).json().results).toEqual([]);
    },
  );

  it('applies nothing for a paid session of another amount or currency: recorded and logged', async () => {
    const plan = await professional();
    const cases = [
      { amount_total: plan.price - 1, currency: plan.currency },
      { amount_total: plan.price + 1, currency: plan.currency },
      { amount_total: plan.price, currency: 'eur' },
    ];
    for (const paid of cases) {
      const who = await owner();
      const opened = await subscribe(who, `mismatch-${who.orgId}`);
      expect(opened.statusCode).toBe(201);
      const checkout = opened.json();
      const sessionId = sessionOf(checkout.url);
      // What Stripe reports was paid is not what the portal asked for.
      Object.assign(fake.sessions.get(sessionId)!, paid);
      const [completed] = fake.pay(sessionId, '4242424242424242');
      expect((await deliver(completed!)).statusCode, JSON.stringify(paid)).toBe(200);
      expect(await subscriptionsOf(who.orgId)).toEqual([]);
      expect(await invoicesOf(who.orgId)).toEqual([]);
      expect(
        await t.ctx.db
          .select()
          .from(paymentMethods)
          .where(eq(paymentMethods.organization_id, who.orgId)),
      ).toEqual([]);
      expect((await checkoutOf(who, checkout.id)).json()).toMatchObject({ status: 'FAILED' });
      const [event] = await t.ctx.db
        .select()
        .from(gatewayEvents)
        .where(eq(gatewayEvents.id, completed!.eventId));
      expect(event).toMatchObject({
        outcome: 'amount_mismatch',
        reason: `expected ${plan.price} ${plan.currency}, received ${paid.amount_total} ${paid.currency}`,
      });
      const logged = logs
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.eventId === completed!.eventId);
      expect(logged).toMatchObject({
        level: 50,
        expected: { amount: plan.price, currency: plan.currency },
        received: { amount: paid.amount_total, currency: paid.currency },
      });
    }
  });

  it('an expired session expires the checkout', async () => {
    const who = await owner();
    const checkout = (await subscribe(who, 'expire-1')).json();
    const [expired] = fake.expire(sessionOf(checkout.url));
    expect((await deliver(expired!)).statusCode).toBe(200);
    expect((await deliver(expired!)).statusCode).toBe(200);
    expect((await checkoutOf(who, checkout.id)).json()).toMatchObject({
      status: 'EXPIRED',
      failure_message: CHARGE_FAILURE_MESSAGES.expired,
    });
    expect(await subscriptionsOf(who.orgId)).toHaveLength(0);
  });

  it('refuses an event whose signature does not verify (400), and writes nothing', async () => {
    const who = await owner();
    const checkout = (await subscribe(who, 'forged-1')).json();
    const [completed] = fake.pay(sessionOf(checkout.url), '4242424242424242') as [WebhookDelivery];
    const events = async () => (await t.ctx.db.select().from(gatewayEvents)).length;
    const before = await events();
    const t0 = Math.floor(t.clock.now().getTime() / 1000);
    const forged = [
      // Another secret.
      fake.sign(completed.body, { secret: 'whsec_other' }),
      // The body changed after signing.
      completed.signature,
      // Too old: a captured delivery replayed ten minutes later.
      fake.sign(completed.body, { timestamp: t0 - 600 }),
      'garbage',
      null,
    ];
    for (const [i, signature] of forged.entries()) {
      const body = i === 1 ? completed.body.replace('"paid"', '"unpaid"') : completed.body;
      if (i === 1) expect(body).not.toBe(completed.body);
      const res = await deliver({ ...completed, body }, signature);
      expect(res.statusCode, `forgery ${i}`).toBe(400);
      expect(res.json().code).toBe('BAD_REQUEST');
    }
    expect(await events()).toBe(before);
    expect((await checkoutOf(who, checkout.id)).json()).toMatchObject({ status: 'OPEN' });
    expect(await subscriptionsOf(who.orgId)).toHaveLength(0);
    // The genuine delivery still applies.
    expect((await deliver(completed)).statusCode).toBe(200);
    expect(await subscriptionsOf(who.orgId)).toHaveLength(1);
  });

  it('adds a card through a setup-mode session', async () => {
    const who = subscribed;
    const opened = await addCardPage(who, 'card-1');
    expect(opened.statusCode).toBe(201);
    const checkout = opened.json();
    expect(checkout).toMatchObject({ status: 'OPEN', kind: 'PAYMENT_METHOD' });
    const session = fake.requestsTo('POST', '/v1/checkout/sessions').at(-1)!;
    expect(session.idempotencyKey).toBe(`checkout:${checkout.id}`);
    // The organization's customer from its subscription: no second customer.
    expect(session.params).toMatchObject({
      mode: 'setup',
      currency: 'usd',
      customer: customerRef,
      metadata: { checkout_id: checkout.id },
    });
    expect(session.params.line_items).toBeUndefined();

    const [completed] = fake.pay(sessionOf(checkout.url), '4000000000000341');
    expect((await deliver(completed!)).statusCode).toBe(200);
    expect((await deliver(completed!)).statusCode).toBe(200);
    const cards = (await cardsOf(who)).json();
    expect(cards.results.map((c: { last4: string }) => c.last4).sort()).toEqual(['0341', '4242']);
    // The first card stays the one renewals charge.
    expect(cards.results.find((c: { last4: string }) => c.last4 === '4242').is_default).toBe(true);
    const setup = [...fake.setupIntents.values()].at(-1)!;
    expect(fake.requestsTo('GET', `/v1/setup_intents/${setup.id}`)).not.toHaveLength(0);
    expect(await invoicesOf(who.orgId)).toHaveLength(1);
    expectNoCardNumbers();
  });

  it('renews off-session with the kept card; a card failing later leaves it PAST_DUE', async () => {
    const who = subscribed;
    const plan = await professional();
    const before = await subscriptionOf(who.orgId);
    // Other organizations of this file renew too: the charges of this one carry its id.
    const chargesOf = () =>
      fake
        .requestsTo('POST', '/v1/payment_intents')
        .filter((r) => r.idempotencyKey?.startsWith(`renewal:${before.id}:`));

    t.clock.set(new Date(before.expired_in!.getTime() + minutes(1)));
    await runRenewals(t.ctx, t.clock.now());
    const charges = chargesOf();
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({
      status: 200,
      idempotencyKey: `renewal:${before.id}:${before.expired_in!.toISOString()}:0`,
      params: {
        amount: String(plan.price),
        currency: plan.currency,
        customer: customerRef,
        payment_method: cardRef,
        off_session: 'true',
        confirm: 'true',
        description: `Renewal of the ${plan.name} plan`,
      },
    });
    const chargeId = JSON.parse(charges[0]!.response).id as string;
    const renewed = await subscriptionOf(who.orgId);
    expect(renewed).toMatchObject({ status: 'ACTIVE', retry_count: 0 });
    expect(renewed.expired_in!.getTime()).toBeGreaterThan(before.expired_in!.getTime());
    const renewals = (await invoicesOf(who.orgId)).filter((i) => i.kind === 'RENEWAL');
    expect(renewals).toEqual([
      expect.objectContaining({ status: 'PAID', amount: plan.price, gateway_ref: chargeId }),
    ]);

    // The card now fails at the bank: the next renewal leaves the subscription PAST_DUE.
    fake.failCharges(cardRef, 'insufficient_funds');
    t.clock.set(new Date(renewed.expired_in!.getTime() + minutes(1)));
    await runRenewals(t.ctx, t.clock.now());
    const failedCharge = chargesOf().at(-1)!;
    expect(chargesOf()).toHaveLength(2);
    expect(failedCharge).toMatchObject({ status: 402, params: { payment_method: cardRef } });
    const pastDue = await subscriptionOf(who.orgId);
    expect(pastDue).toMatchObject({ status: 'PAST_DUE', is_active: true, retry_count: 1 });
    expect(pastDue.next_retry_at!.getTime()).toBe(renewed.expired_in!.getTime() + days(1));
    const all = (await invoicesOf(who.orgId)).filter((i) => i.kind === 'RENEWAL');
    expect(all.map((i) => i.status).sort()).toEqual(['FAILED', 'PAID']);
    expectNoCardNumbers();
  });
  it('retries a renewal whose answer was lost with the same key: one charge in the end', async () => {
    // A gateway whose SDK does not retry on its own, so the lost answer reaches the renewal.
    const payments = new StripeGateway({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: fake.url,
      clock: t.clock,
      maxNetworkRetries: 0,
    });
    const user = await createUser(t.ctx.db);
    const org = await createOrganization(t.ctx.db, { ownerId: user.id, plan: 'PROFESSIONAL' });
    // A card kept at Stripe through a setup page, the organization's default.
    const page = await payments.openCheckout({
      checkoutId: crypto.randomUUID(),
      mode: 'setup',
      organizationId: org.id,
      customerRef: null,
      amount: 0,
      currency: 'usd',
      description: 'Add a card for future payments',
      successUrl: 'http://localhost/ok',
      cancelUrl: 'http://localhost/cancel',
      expiresAt: new Date(t.clock.now().getTime() + 3_600_000),
    });
    const [kept] = fake.pay(page.gatewayRef, '4242424242424242');
    const event = await payments.verifyEvent(kept!.body, kept!.signature);
    if (event?.type !== 'checkout.completed') throw new Error('no card kept');
    const [card] = await t.ctx.db
      .insert(paymentMethods)
      .values({
        organization_id: org.id,
        gateway_ref: event.paymentMethod.ref,
        ...event.paymentMethod.card,
      })
      .returning();
    await t.ctx.db
      .update(subscriptions)
      .set({ default_payment_method_id: card!.id, gateway_customer_ref: page.customerRef })
      .where(eq(subscriptions.organization_id, org.id));
    const before = await subscriptionOf(org.id);
    const intentsOfCard = () =>
      [...fake.paymentIntents.values()].filter((p) => p.payment_method === card!.gateway_ref);

    // Stripe takes the money, then answers 500: whether it charged is unknown.
    fake.dropAnswers('/v1/payment_intents', 1, `renewal:${before.id}:`);
    t.clock.set(new Date(before.expired_in!.getTime() + minutes(1)));
    await runRenewals({ ...t.ctx, payments }, t.clock.now());
    expect(intentsOfCard()).toHaveLength(1);
    const unknown = await subscriptionOf(org.id);
    // Not a failure: no invoice, the attempt keeps its number, asked again in an hour.
    expect(unknown).toMatchObject({ status: 'PAST_DUE', is_active: true, retry_count: 0 });
    expect(unknown.next_retry_at!.getTime()).toBe(
      t.clock.now().getTime() + UNKNOWN_OUTCOME_RETRY_MS,
    );
    expect(await invoicesOf(org.id)).toEqual([]);

    t.clock.set(unknown.next_retry_at!);
    await runRenewals({ ...t.ctx, payments }, t.clock.now());
    const calls = fake
      .requestsTo('POST', '/v1/payment_intents')
      .filter((r) => r.idempotencyKey?.startsWith(`renewal:${before.id}:`));
    expect(calls.map((c) => [c.status, c.idempotencyKey])).toEqual([
      [500, `renewal:${before.id}:${before.expired_in!.toISOString()}:0`],
      [200, `renewal:${before.id}:${before.expired_in!.toISOString()}:0`],
    ]);
    const charged = intentsOfCard();
    expect(charged).toHaveLength(1);
    const renewed = await subscriptionOf(org.id);
    expect(renewed).toMatchObject({ status: 'ACTIVE', retry_count: 0, next_retry_at: null });
    expect(renewed.current_period_start).toEqual(before.expired_in);
    expect(await invoicesOf(org.id)).toEqual([
      expect.objectContaining({ kind: 'RENEWAL', status: 'PAID', gateway_ref: charged[0]!.id }),
    ]);
  });
});

describe('the Stripe adapter on its own', () => {
  let fake: StripeFake;
  let gateway: StripeGateway;
  const clock = { now: () => new Date() };

  beforeAll(async () => {
    fake = await startStripeFake({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
    gateway = new StripeGateway({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: fake.url,
      clock,
    });
  });
  afterAll(() => fake?.close());

  /** A card kept through a setup page, as the portal would have it. */
  async function keptCard(card: FakeCard = '4242424242424242') {
    const checkoutId = crypto.randomUUID();
    const page = await gateway.openCheckout({
      checkoutId,
      mode: 'setup',
      organizationId: crypto.randomUUID(),
      customerRef: null,
      amount: 0,
      currency: 'usd',
      description: 'Add a card for future payments',
      successUrl: 'http://localhost/ok',
      cancelUrl: 'http://localhost/cancel',
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const [completed] = fake.pay(page.gatewayRef, card);
    const event = await gateway.verifyEvent(completed!.body, completed!.signature);
    if (event?.type !== 'checkout.completed') throw new Error('not completed');
    expect(event).toMatchObject({
      checkoutId,
      checkoutRef: page.gatewayRef,
      customerRef: page.customerRef,
      chargeRef: null,
      amount: 0,
      paymentMethod: { card: { brand: 'visa' } },
    });
    return { customerRef: page.customerRef, ref: event.paymentMethod.ref };
  }

  const charge = (card: { customerRef: string | null; ref: string }, key: string) =>
    gateway.charge({
      customerRef: card.customerRef,
      paymentMethodRef: card.ref,
      amount: 2500,
      currency: 'usd',
      description: 'Renewal of the Professional plan',
      idempotencyKey: key,
    });

  it('charges a kept card once per idempotency key', async () => {
    const card = await keptCard();
    const first = await charge(card, 'k-1');
    expect(first).toMatchObject({ ok: true, chargeRef: expect.stringMatching(/^pi_/) });
    expect(await charge(card, 'k-1')).toEqual(first);
    const made = [...fake.paymentIntents.values()].filter((p) => p.payment_method === card.ref);
    expect(made).toHaveLength(1);
    // Without the customer the portal may not have kept, it is read from the card.
    expect(await charge({ ...card, customerRef: null }, 'k-2')).toMatchObject({ ok: true });
  });

  it('maps declines, insufficient funds and other failures, never with Stripe’s words', async () => {
    const card = await keptCard();
    fake.failCharges(card.ref, 'insufficient_funds');
    expect(await charge(card, 'f-1')).toEqual({
      ok: false,
      reason: 'insufficient_funds',
      message: CHARGE_FAILURE_MESSAGES.insufficient_funds,
    });
    fake.failCharges(card.ref, 'generic_decline');
    expect(await charge(card, 'f-2')).toEqual({
      ok: false,
      reason: 'declined',
      message: CHARGE_FAILURE_MESSAGES.declined,
    });
    expect(await charge({ ...card, ref: 'pm_missing' }, 'f-3')).toEqual({
      ok: false,
      reason: 'error',
      message: CHARGE_FAILURE_MESSAGES.error,
    });
    const later = await keptCard('4000000000000341');
    expect(await charge(later, 'f-4')).toMatchObject({ ok: false, reason: 'declined' });
  });

  it('forgets a card, and a card Stripe no longer has', async () => {
    const card = await keptCard();
    await gateway.detachPaymentMethod(card.ref);
    expect(fake.paymentMethods.get(card.ref)!.customer).toBeNull();
    await expect(gateway.detachPaymentMethod('pm_gone')).resolves.toBeUndefined();
  });

  it('clamps a session’s expiry into Stripe’s 30 minutes to 24 hours', async () => {
    const open = (expiresAt: Date) =>
      gateway.openCheckout({
        checkoutId: crypto.randomUUID(),
        mode: 'payment',
        organizationId: crypto.randomUUID(),
        customerRef: null,
        amount: 1000,
        currency: 'usd',
        description: 'Standard plan, monthly',
        successUrl: 'http://localhost/ok',
        cancelUrl: 'http://localhost/cancel',
        expiresAt,
      });
    const now = Date.now();
    for (const [asked, min, max] of [
      [now + minutes(5), now + minutes(30), now + minutes(32)],
      [now + days(3), now + days(1) - minutes(2), now + days(1)],
    ] as const) {
      const page = await open(new Date(asked));
      const at = (fake.sessions.get(page.gatewayRef)!.expires_at as number) * 1000;
      expect(at).toBeGreaterThanOrEqual(min - 1000);
      expect(at).toBeLessThanOrEqual(max);
    }
  });

  it('ignores events it does not handle, and sessions the portal did not open', async () => {
    const other = fake.event('invoice.paid', { id: 'in_1', object: 'invoice' });
    expect(await gateway.verifyEvent(other.body, other.signature)).toBeNull();
    const foreign = fake.event('checkout.session.expired', {
      id: 'cs_test_foreign',
      object: 'checkout.session',
      metadata: {},
      client_reference_id: null,
      mode: 'payment',
    });
    expect(await gateway.verifyEvent(foreign.body, foreign.signature)).toBeNull();
    await expect(gateway.verifyEvent(other.body, undefined)).rejects.toThrow(/signature/i);
  });

  it('reads Stripe’s card brands', () => {
    expect(
      ['visa', 'mastercard', 'amex', 'diners', 'discover', 'jcb', 'unionpay'].map(brandFromStripe),
    ).toEqual(['visa', 'mastercard', 'amex', 'diners', 'discover', 'jcb', 'unionpay']);
    expect(brandFromStripe('cartes_bancaires')).toBe('unknown');
    expect(brandFromStripe('unknown')).toBe('unknown');
    expect(brandFromStripe(null)).toBe('unknown');
  });

  it('will not start without its keys', () => {
    expect(() => loadConfig({ PAYMENT_GATEWAY: 'stripe' })).toThrow(ConfigError);
    expect(() => loadConfig({ PAYMENT_GATEWAY: 'stripe' })).toThrow(/STRIPE_SECRET_KEY: required/);
    expect(() => loadConfig({ PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY: SECRET_KEY })).toThrow(
      /STRIPE_WEBHOOK_SECRET: required/,
    );
    expect(
      loadConfig({
        PAYMENT_GATEWAY: 'stripe',
        STRIPE_SECRET_KEY: SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      }).payments.gateway,
    ).toBe('stripe');
  });
});
