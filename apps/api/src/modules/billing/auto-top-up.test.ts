// engine-parity: twenty or more requests at once
import { AUTO_TOP_UP_MAX_FAILURES, ErrorCode } from '@portolan/contract';
import { and, eq, sum } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../../test/support/app.ts';
import { startAnotherInstance } from '../../../test/support/another-instance.ts';
import { ChargeRecorder } from '../../../test/support/charge-recorder.ts';
import { startStripeFake } from '../../../test/support/stripe-fake.ts';
import { createTenantScene, ORG_PEOPLE, type TenantScene } from '../../../test/support/tenants.ts';
import {
  autoTopUps,
  billingAccounts,
  fundPackages,
  invoices,
  ledgerEntries,
  notifications,
  paymentMethods,
  subscriptions,
} from '../../db/schema/index.ts';
import { startJob } from '../../lib/jobs.ts';
import { CHARGE_FAILURE_MESSAGES } from '../../lib/payments/gateway.ts';
import { StripeGateway } from '../../lib/payments/stripe.ts';
import { addOrganizationMember, createOrganization } from '../../seed/factories.ts';
import {
  AUTO_TOP_UP_LEASE_MS,
  AUTO_TOP_UP_UNKNOWN_RETRY_MS,
  attemptAutoTopUp,
  autoTopUpJob,
  claimDueAutoTopUp,
  runAutoTopUps,
} from './auto-top-up-worker.ts';
import { adjustBalance } from './wallet-service.ts';
import { cardForm, newKey, submitCard } from './test-flow.ts';

/**
 * Auto top-up (issue 22 item 1): the settings (GET/PUT …/balance/auto-top-up/), a charge that
 * crosses the threshold asking for one top-up, the worker paying it with the default card and
 * crediting it once (also with 20 charges at once, two instances, a lost gateway answer, Stripe),
 * and declines told to the OWNERs and ADMINs until the third switches it off.
 */
describe('auto top-up', () => {
  let t: TestApp;
  let s: TenantScene;
  let starter: typeof fundPackages.$inferSelect;
  const GOOD = '4242424242424242';
  /** Fine at the hosted page, declined when charged later. */
  const DECLINING = '4000000000000341';

  const url = (orgId: string) => `/v1/organizations/${orgId}/balance/auto-top-up/`;
  const owner = () => s.people.OWNER;
  const put = (orgId: string, body: object, who = owner()) => s.send('PUT', url(orgId), who, body);
  /** The organization's UPDATE_AUTO_TOP_UP activities: who, and the data. */
  const autoTopUpLog = async () =>
    (
      await s.send(
        'GET',
        `/v1/organizations/${s.orgId}/activities/?action=UPDATE_AUTO_TOP_UP`,
        owner(),
      )
    )
      .json()
      .results.map((a: { user: { id: string }; data: object }) => ({ by: a.user.id, ...a.data }));
  const charge = (orgId: string, quantity = 1, key = newKey()) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/organizations/${orgId}/balance/charges/`,
      headers: { ...bearer(owner().token), 'idempotency-key': key },
      payload: { service: 'SHIPPING_LABEL', quantity },
    });
  const accountOf = async (orgId: string) =>
    (
      await t.ctx.db
        .select()
        .from(billingAccounts)
        .where(eq(billingAccounts.organization_id, orgId))
    )[0]!;
  const topUpsOf = (orgId: string) =>
    t.ctx.db.select().from(autoTopUps).where(eq(autoTopUps.organization_id, orgId));
  const ledgerSum = async (orgId: string) =>
    Number(
      (
        await t.ctx.db
          .select({ total: sum(ledgerEntries.amount) })
          .from(ledgerEntries)
          .where(eq(ledgerEntries.organization_id, orgId))
      )[0]!.total,
    );
  const topUpEntriesOf = (orgId: string) =>
    t.ctx.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.organization_id, orgId), eq(ledgerEntries.type, 'top-up')));
  const billingNotices = (orgId: string, userId: string) =>
    t.ctx.db
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.organization_id, orgId),
          eq(notifications.recipient_id, userId),
          eq(notifications.type, 'BILLING'),
        ),
      );

  /**
   * An organization of the OWNER with the ADMIN and STAFF as members, whose first card (its
   * default) is saved by buying the Starter package with `number` at the hosted page: a balance
   * of its credit. Auto top-up on: below `threshold`, buy Starter.
   */
  async function organization(number: string, threshold = starter.credit - 10) {
    const org = await createOrganization(t.ctx.db, { ownerId: owner().id });
    for (const role of ['ADMIN', 'STAFF'] as const)
      await addOrganizationMember(t.ctx.db, {
        organizationId: org.id,
        userId: s.people[role].id,
        role,
      });
    const opened = await t.app.inject({
      method: 'POST',
      url: `/v1/organizations/${org.id}/balance/checkout/`,
      headers: { ...bearer(owner().token), 'idempotency-key': newKey() },
      payload: { fund_package_id: starter.id },
    });
    expect(opened.statusCode).toBe(201);
    expect((await submitCard(t, opened.json().url, cardForm(number))).statusCode).toBeLessThan(400);
    const on = await put(org.id, { enabled: true, threshold, fund_package_id: starter.id });
    expect(on.statusCode, on.body).toBe(200);
    return { orgId: org.id, name: org.name };
  }

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    starter = (await t.ctx.db.select().from(fundPackages)).sort(
      (a, b) => a.sort_order - b.sort_order,
    )[0]!;
  });
  afterAll(() => t.close());

  it('reads and sets the settings: OWNER and ADMIN only, another organization 404', async () => {
    const off = { enabled: false, threshold: null, fund_package_id: null };
    const expected = { OWNER: 200, ADMIN: 200, STAFF: 403, CLIENT: 403, STRANGER: 404 };
    for (const who of ORG_PEOPLE) {
      const read = await s.send('GET', url(s.orgId), s.people[who]);
      expect(read.statusCode, `GET as ${who}`).toBe(expected[who]);
      expect((await put(s.orgId, off, s.people[who])).statusCode, `PUT as ${who}`).toBe(
        expected[who],
      );
    }
    expect((await s.send('GET', url(s.orgId), 'anonymous')).statusCode).toBe(401);
    expect((await s.send('PUT', url(s.orgId), 'anonymous', off)).statusCode).toBe(401);
    const read = await s.send('GET', url(s.orgId), owner());
    expect(read.json()).toEqual({ ...off, consecutive_failures: 0, last_attempt: null });
    // Each change is in the organization's activity log, by whom, with what it was before (both
    // at one clock reading: their order is not the point).
    const logged = await autoTopUpLog();
    expect(logged).toHaveLength(2);
    for (const by of [s.people.OWNER.id, s.people.ADMIN.id])
      expect(logged).toContainEqual({ by, ...off, previous_enabled: false, currency: 'usd' });
  });

  it('refuses bad settings with the field, and switching on without a default card', async () => {
    const [retired] = await t.ctx.db
      .insert(fundPackages)
      .values({ name: 'Retired', price: 100, credit: 100, enabled: false })
      .returning();
    const cases: [object, string][] = [
      [{ enabled: true, threshold: null, fund_package_id: starter.id }, 'threshold'],
      [{ enabled: true, threshold: 500, fund_package_id: null }, 'fund_package_id'],
      [{ enabled: true, threshold: 0, fund_package_id: starter.id }, 'threshold'],
      [{ enabled: true, threshold: 1.5, fund_package_id: starter.id }, 'threshold'],
      [{ enabled: 'yes', threshold: 500, fund_package_id: starter.id }, 'enabled'],
      [{ enabled: true, threshold: 500, fund_package_id: 'x' }, 'fund_package_id'],
      [{ enabled: true, threshold: 500, fund_package_id: crypto.randomUUID() }, 'fund_package_id'],
      [{ enabled: false, threshold: 500, fund_package_id: retired!.id }, 'fund_package_id'],
      [{ enabled: false, threshold: null, fund_package_id: null, extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await put(s.orgId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
    for (const method of ['GET', 'PUT'] as const) {
      const res = await s.send(method, url('not-an-id'), owner(), {
        enabled: false,
        threshold: null,
        fund_package_id: null,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0].field).toBe('orgId');
    }
    // No card yet: the message says where to choose one, and nothing changed.
    const noCard = await put(s.orgId, {
      enabled: true,
      threshold: 500,
      fund_package_id: starter.id,
    });
    expect(noCard.statusCode).toBe(409);
    expect(noCard.json().code).toBe(ErrorCode.NO_PAYMENT_METHOD);
    expect(noCard.json().message).toMatch(/default card.*Cards/);
    expect((await accountOf(s.orgId)).auto_top_up_enabled).toBe(false);
    expect(await autoTopUpLog(), 'a refused change is not logged').toHaveLength(2);
  });

  it('a charge crossing the threshold asks for one top-up, which the worker pays and credits', async () => {
    const { orgId } = await organization(GOOD);
    expect((await s.send('GET', url(orgId), s.people.ADMIN)).json()).toMatchObject({
      enabled: true,
      threshold: starter.credit - 10,
      fund_package_id: starter.id,
      last_attempt: null,
    });
    // 5000 → 4975 crosses 4990; 4975 → 4950 does not.
    expect((await charge(orgId)).statusCode).toBe(201);
    expect((await charge(orgId)).statusCode).toBe(201);
    const [asked, ...more] = await topUpsOf(orgId);
    expect(more).toEqual([]);
    expect(asked).toMatchObject({
      status: 'PENDING',
      amount: starter.price,
      credit: starter.credit,
      fund_package_id: starter.id,
    });

    expect(await runAutoTopUps(t.ctx)).toBe(1);
    const [paid] = await topUpsOf(orgId);
    expect(paid).toMatchObject({ status: 'SUCCEEDED', lease_until: null });
    expect(paid!.settled_at).toEqual(t.clock.now());
    const [invoice] = await t.ctx.db
      .select()
      .from(invoices)
      .where(eq(invoices.id, paid!.invoice_id!));
    expect(invoice).toMatchObject({ kind: 'TOP_UP', status: 'PAID', amount: starter.price });
    expect(invoice!.description).toMatch(/^Automatic top-up/);
    const entries = await topUpEntriesOf(orgId);
    expect(entries.at(-1)).toMatchObject({
      amount: starter.credit,
      invoice_id: invoice!.id,
      source: 'payment',
      created_by: null,
    });
    expect((await accountOf(orgId)).available_balance).toBe(2 * starter.credit - 50);
    expect(await ledgerSum(orgId)).toBe((await accountOf(orgId)).available_balance);
    expect((await s.send('GET', url(orgId), owner())).json().last_attempt).toMatchObject({
      id: paid!.id,
      status: 'SUCCEEDED',
      failure_reason: null,
    });
    // Well above the threshold again: a charge asks for nothing, and nothing is left to pay.
    expect((await charge(orgId)).statusCode).toBe(201);
    expect(await topUpsOf(orgId)).toHaveLength(1);
    expect(await runAutoTopUps(t.ctx)).toBe(0);
  });

  it('wakes the worker at the charge’s commit: paid within moments, not at the next tick', async () => {
    const { orgId } = await organization(GOOD);
    const job = autoTopUpJob(t.ctx);
    let listening!: () => void;
    const ready = new Promise<void>((resolve) => (listening = resolve));
    let runs = 0;
    let inFlight = 0;
    // The first kick is the LISTEN in place; the job's own tick (60 s) never comes in this test.
    const running = startJob({
      ...job,
      wake: (kick) =>
        job.wake!(() => {
          listening();
          kick();
        }),
      run: async (signal) => {
        inFlight++;
        try {
          return await job.run(signal);
        } finally {
          inFlight--;
          runs++;
        }
      },
    });
    try {
      await ready;
      // Idle before the charge: only its NOTIFY can start the run that pays it.
      await vi.waitFor(() => expect(runs > 0 && inFlight === 0).toBe(true), { interval: 5 });
      expect((await charge(orgId)).statusCode).toBe(201);
      await vi.waitFor(async () => expect((await topUpsOf(orgId))[0]?.status).toBe('SUCCEEDED'), {
        timeout: 3_000,
        interval: 20,
      });
    } finally {
      await running.stop();
    }
  });

  it('a declined top-up tells the OWNERs and ADMINs; the third in a row switches it off', async () => {
    const { orgId, name } = await organization(DECLINING);
    const crossAndDecline = async () => {
      const res = await charge(orgId);
      expect(res.statusCode).toBe(201);
      expect(await runAutoTopUps(t.ctx)).toBe(1);
      // Not retried by itself: only the next crossing asks again.
      expect(await runAutoTopUps(t.ctx)).toBe(0);
      // Back above the threshold, so the next charge crosses it again.
      const refund = await s.send(
        'POST',
        `/v1/organizations/${orgId}/balance/history/${res.json().entry.id}/refund/`,
        owner(),
      );
      expect(refund.statusCode).toBe(201);
    };

    await crossAndDecline();
    const [failed] = await topUpsOf(orgId);
    expect(failed).toMatchObject({
      status: 'FAILED',
      failure_reason: CHARGE_FAILURE_MESSAGES.declined,
      invoice_id: null,
    });
    for (const who of ['OWNER', 'ADMIN'] as const) {
      const [notice, ...others] = await billingNotices(orgId, s.people[who].id);
      expect(others).toEqual([]);
      expect(notice!.meta).toEqual({
        kind: 'auto_top_up_failed',
        path: `/ps/organization-settings/${orgId}/billing/cards`,
      });
      expect(notice!.extra_message).toContain(CHARGE_FAILURE_MESSAGES.declined);
      const mail = await t.mailTo(s.people[who].email);
      expect(mail.subject).toBe(`An automatic top-up of ${name} was declined`);
      expect(mail.text).toContain(`/ps/organization-settings/${orgId}/billing/fund-packages`);
    }
    expect(await billingNotices(orgId, s.people.STAFF.id)).toEqual([]);
    expect(t.mailbox.to(s.people.STAFF.email).filter((m) => m.subject.includes(name))).toEqual([]);
    expect(await accountOf(orgId)).toMatchObject({
      auto_top_up_enabled: true,
      auto_top_up_failures: 1,
    });

    await crossAndDecline();
    await crossAndDecline();
    expect(await accountOf(orgId)).toMatchObject({
      auto_top_up_enabled: false,
      auto_top_up_failures: AUTO_TOP_UP_MAX_FAILURES,
    });
    for (const who of ['OWNER', 'ADMIN'] as const) {
      const kinds = (await billingNotices(orgId, s.people[who].id)).map((n) => n.meta.kind);
      expect(kinds.sort()).toEqual([
        'auto_top_up_disabled',
        'auto_top_up_failed',
        'auto_top_up_failed',
      ]);
      const mail = await t.mailTo(s.people[who].email);
      expect(mail.subject).toBe(`Auto top-up of ${name} was switched off`);
      expect(mail.text).toContain('switch auto top-up on again');
    }
    // Off: a crossing asks for nothing. Switched on again, the count of declines starts afresh.
    await charge(orgId);
    expect(await topUpsOf(orgId)).toHaveLength(AUTO_TOP_UP_MAX_FAILURES);
    const on = await put(orgId, { enabled: true, threshold: 100, fund_package_id: starter.id });
    expect(on.json()).toMatchObject({ enabled: true, consecutive_failures: 0 });
    expect(on.json().last_attempt).toMatchObject({ status: 'FAILED' });
    expect(await ledgerSum(orgId)).toBe((await accountOf(orgId)).available_balance);
  });

  it('with no default card left, the top-up fails and says to choose one', async () => {
    const { orgId } = await organization(GOOD);
    await t.ctx.db
      .update(subscriptions)
      .set({ default_payment_method_id: null })
      .where(eq(subscriptions.organization_id, orgId));
    expect((await charge(orgId)).statusCode).toBe(201);
    expect(await runAutoTopUps(t.ctx)).toBe(1);
    const [failed] = await topUpsOf(orgId);
    expect(failed!.status).toBe('FAILED');
    expect(failed!.failure_reason).toMatch(/no default card.*Cards/);
    expect(await billingNotices(orgId, s.people.ADMIN.id)).toHaveLength(1);
    expect((await accountOf(orgId)).auto_top_up_failures).toBe(1);
  });

  it('20 charges at once crossing the threshold once make exactly one top-up', async () => {
    // 5000 - 20 × 25 = 4500: the threshold 4800 is crossed by one of them, whichever it is.
    const { orgId } = await organization(GOOD, 4_800);
    const answers = await Promise.all(Array.from({ length: 20 }, () => charge(orgId)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(201));
    expect((await topUpsOf(orgId)).map((r) => r.status)).toEqual(['PENDING']);
    expect(await runAutoTopUps(t.ctx)).toBe(1);
    expect((await topUpsOf(orgId)).map((r) => r.status)).toEqual(['SUCCEEDED']);
    expect((await accountOf(orgId)).available_balance).toBe(2 * starter.credit - 500);
    expect(await ledgerSum(orgId)).toBe((await accountOf(orgId)).available_balance);
  });

  it('two instances running the worker at once make one gateway charge and one credit', async () => {
    const { orgId } = await organization(GOOD);
    const other = await startAnotherInstance(t);
    const original = t.ctx.payments;
    // One gateway behind both instances, as in production.
    const gateway = new ChargeRecorder();
    t.ctx.payments = gateway;
    other.app.ctx.payments = gateway;
    try {
      expect((await charge(orgId)).statusCode).toBe(201);
      const ran = await Promise.all([runAutoTopUps(t.ctx), runAutoTopUps(other.app.ctx)]);
      expect(ran.sort()).toEqual([0, 1]);
      const [row] = await topUpsOf(orgId);
      expect(gateway.calls.map((c) => c.idempotencyKey)).toEqual([`auto-top-up:${row!.id}`]);
      // The package bought at the hosted page, and the automatic one.
      expect(await topUpEntriesOf(orgId)).toHaveLength(2);

      // A worker whose lease ran out mid-charge: another claims the top-up and pays it with the
      // same key (the gateway's replay); the first one's outcome then finds it settled.
      // 9975 → 4950 crosses 4990 again.
      expect((await charge(orgId, 201)).statusCode).toBe(201);
      const slow = (await claimDueAutoTopUp(t.ctx, t.clock.now()))!;
      expect(await claimDueAutoTopUp(other.app.ctx, t.clock.now())).toBeNull();
      t.clock.advance(AUTO_TOP_UP_LEASE_MS + 1);
      const fast = (await claimDueAutoTopUp(other.app.ctx, t.clock.now()))!;
      expect(fast.id).toBe(slow.id);
      expect(await attemptAutoTopUp(other.app.ctx, fast)).toBe('paid');
      expect(await attemptAutoTopUp(t.ctx, slow)).toBe('stale');
      // Asked twice, with one key: one charge at the gateway, credited once.
      expect(gateway.calls.map((c) => c.idempotencyKey)).toEqual([
        `auto-top-up:${row!.id}`,
        `auto-top-up:${slow.id}`,
        `auto-top-up:${slow.id}`,
      ]);
      expect(await topUpEntriesOf(orgId)).toHaveLength(3);
      expect(await ledgerSum(orgId)).toBe((await accountOf(orgId)).available_balance);
    } finally {
      t.ctx.payments = original;
      await other.close();
    }
  });

  it('through Stripe: an answer lost is asked again with the same key, one charge', async () => {
    const fake = await startStripeFake({ secretKey: 'sk_test_x', webhookSecret: 'whsec_test' });
    fake.now = () => t.clock.now().getTime();
    const original = t.ctx.payments;
    // The SDK does not retry by itself here, so the lost answer reaches the worker.
    t.ctx.payments = new StripeGateway({
      secretKey: 'sk_test_x',
      webhookSecret: 'whsec_test',
      apiBase: fake.url,
      clock: t.clock,
      maxNetworkRetries: 0,
    });
    try {
      const org = await createOrganization(t.ctx.db, { ownerId: owner().id });
      // A card kept at Stripe's page, the organization's first (its default), as a browser would.
      const page = await t.app.inject({
        method: 'POST',
        url: `/v1/organizations/${org.id}/payment-methods/checkout/`,
        headers: { ...bearer(owner().token), 'idempotency-key': newKey() },
      });
      expect(page.statusCode).toBe(201);
      const [kept] = fake.pay(page.json().url.split('/').pop(), GOOD);
      const delivered = await t.app.inject({
        method: 'POST',
        url: '/v1/billing/webhooks/stripe/',
        headers: { 'content-type': 'application/json', 'stripe-signature': kept!.signature },
        payload: kept!.body,
      });
      expect(delivered.statusCode).toBe(200);
      const [card] = await t.ctx.db
        .select()
        .from(paymentMethods)
        .where(eq(paymentMethods.organization_id, org.id));
      const on = await put(org.id, {
        enabled: true,
        threshold: 1_000,
        fund_package_id: starter.id,
      });
      expect(on.statusCode, on.body).toBe(200);
      await adjustBalance(t.ctx.db, org.id, 1_000, 'Goodwill credit');
      expect((await charge(org.id)).statusCode).toBe(201);

      // Stripe takes the money, then answers 500: unknown, so asked again later, not declined.
      fake.dropAnswers('/v1/payment_intents', 1, 'auto-top-up:');
      expect(await runAutoTopUps(t.ctx)).toBe(1);
      const [waiting] = await topUpsOf(org.id);
      expect(waiting).toMatchObject({ status: 'PENDING', lease_until: null });
      expect(waiting!.next_attempt_at.getTime()).toBe(
        t.clock.now().getTime() + AUTO_TOP_UP_UNKNOWN_RETRY_MS,
      );
      expect(await runAutoTopUps(t.ctx)).toBe(0);
      t.clock.advance(AUTO_TOP_UP_UNKNOWN_RETRY_MS);
      expect(await runAutoTopUps(t.ctx)).toBe(1);

      const calls = fake.requestsTo('POST', '/v1/payment_intents');
      expect(calls.map((c) => [c.status, c.idempotencyKey])).toEqual([
        [500, `auto-top-up:${waiting!.id}`],
        [200, `auto-top-up:${waiting!.id}`],
      ]);
      const intents = [...fake.paymentIntents.values()].filter(
        (p) => p.payment_method === card!.gateway_ref,
      );
      expect(intents).toHaveLength(1);
      expect(intents[0]).toMatchObject({ amount: starter.price, off_session: true });
      const [paid] = await topUpsOf(org.id);
      expect(paid!.status).toBe('SUCCEEDED');
      const [invoice] = await t.ctx.db
        .select()
        .from(invoices)
        .where(eq(invoices.id, paid!.invoice_id!));
      expect(invoice!.gateway_ref).toBe(intents[0]!.id);
      expect((await accountOf(org.id)).available_balance).toBe(1_000 - 25 + starter.credit);
    } finally {
      t.ctx.payments = original;
      await fake.close();
    }
  });
});
