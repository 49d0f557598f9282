// engine-parity: twenty or more requests at once
import { ErrorCode } from '@portolan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';
import {
  checkouts,
  idempotencyKeys,
  invoices,
  paymentMethods,
  subscriptions,
} from '../../db/schema/index.ts';
import { IDEMPOTENCY_LEASE_MS } from './idempotency.ts';
import { newKey, payWith, postCheckout, submitCard, cardForm } from './test-flow.ts';

/**
 * POST /v1/organizations/{orgId}/checkout/ and GET …/checkout/{id}/ (opening a hosted page,
 * rules, access, idempotency), and the sandbox's hosted page up to the subscription it starts.
 */
describe('subscription checkout', () => {
  let t: TestApp;
  let s: TenantScene;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    // The scene's organization starts without a subscription here.
    await t.ctx.db.delete(subscriptions).where(eq(subscriptions.organization_id, s.orgId));
  });
  afterAll(() => t.close());

  const checkoutsOf = (orgId: string) =>
    t.ctx.db.select().from(checkouts).where(eq(checkouts.organization_id, orgId));

  it('opens a hosted page for OWNER and ADMIN: 201, a checkout row, the sandbox url', async () => {
    for (const who of [s.people.OWNER, s.people.ADMIN]) {
      const res = await postCheckout(t, who, s.orgId, 'STANDARD');
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({ status: 'OPEN', kind: 'SUBSCRIPTION', failure_message: null });
      expect(body.url).toMatch(/^\/v1\/billing\/sandbox\/checkout\/cs_sandbox_[0-9a-f]{24}\/$/);
      const [row] = await t.ctx.db.select().from(checkouts).where(eq(checkouts.id, body.id));
      expect(row).toMatchObject({ amount: 2900, created_by: who.id, status: 'OPEN' });
      expect(row!.expires_at.getTime() - t.clock.now().getTime()).toBe(3_600_000);
      const read = await s.send('GET', `/v1/organizations/${s.orgId}/checkout/${body.id}/`, who);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(body);
    }
  });

  it('answers 401 anonymous, 403 STAFF and CLIENT, 404 to a stranger; nothing written', async () => {
    const before = (await checkoutsOf(s.orgId)).length;
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/v1/organizations/${s.orgId}/checkout/`,
      headers: { 'idempotency-key': newKey() },
      payload: { plan: 'STANDARD' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await postCheckout(t, s.people.STAFF, s.orgId, 'STANDARD')).statusCode).toBe(403);
    expect((await postCheckout(t, s.people.CLIENT, s.orgId, 'STANDARD')).statusCode).toBe(403);
    expect((await postCheckout(t, s.people.STRANGER, s.orgId, 'STANDARD')).statusCode).toBe(404);
    expect((await checkoutsOf(s.orgId)).length).toBe(before);
    const [one] = await checkoutsOf(s.orgId);
    const url = `/v1/organizations/${s.orgId}/checkout/${one!.id}/`;
    expect((await s.send('GET', url, 'anonymous')).statusCode).toBe(401);
    expect((await s.send('GET', url, s.people.STAFF)).statusCode).toBe(403);
    expect((await s.send('GET', url, s.people.STRANGER)).statusCode).toBe(404);
    const otherOrgs = `/v1/organizations/${s.otherOrgId}/checkout/${one!.id}/`;
    expect((await s.send('GET', otherOrgs, s.people.STRANGER)).statusCode).toBe(404);
  });

  it('answers 400 naming the field for a bad plan or a missing or bad Idempotency-Key', async () => {
    const before = (await checkoutsOf(s.orgId)).length;
    const badPlan = await postCheckout(t, s.people.OWNER, s.orgId, 'GOLD');
    expect(badPlan.statusCode).toBe(400);
    expect(badPlan.json().details[0].field).toBe('plan');
    for (const key of [null, '', 'has space', 'x'.repeat(256)]) {
      const res = await postCheckout(t, s.people.OWNER, s.orgId, 'STANDARD', key);
      expect(res.statusCode, String(key)).toBe(400);
      expect(res.json().details).toEqual([
        { field: 'Idempotency-Key', message: expect.any(String) },
      ]);
    }
    expect((await checkoutsOf(s.orgId)).length).toBe(before);
  });

  it('refuses CUSTOM (409 PLAN_NOT_SELF_SERVE) and a paying organization (409 ALREADY_SUBSCRIBED)', async () => {
    const custom = await postCheckout(t, s.people.OWNER, s.orgId, 'CUSTOM');
    expect(custom.statusCode).toBe(409);
    expect(custom.json().code).toBe(ErrorCode.PLAN_NOT_SELF_SERVE);
    // The stranger's organization has the factory's active CUSTOM subscription.
    const paying = await postCheckout(t, s.people.STRANGER, s.otherOrgId, 'STANDARD');
    expect(paying.statusCode).toBe(409);
    expect(paying.json().code).toBe(ErrorCode.ALREADY_SUBSCRIBED);
  });

  it('lets a TRIALING organization subscribe', async () => {
    const owner = await s.person();
    const { createOrganization } = await import('../../seed/factories.ts');
    const org = await createOrganization(t.ctx.db, { ownerId: owner.id, plan: null });
    const { createSubscription } = await import('../../seed/factories.ts');
    await createSubscription(t.ctx.db, {
      organizationId: org.id,
      plan: 'STANDARD',
      subscriberId: owner.id,
    });
    await t.ctx.db
      .update(subscriptions)
      .set({ status: 'TRIALING' })
      .where(eq(subscriptions.organization_id, org.id));
    expect((await postCheckout(t, owner, org.id, 'BUSINESS')).statusCode).toBe(201);
  });

  it('replays the first answer for the same key; another request with it is a 409', async () => {
    const key = newKey();
    const first = await postCheckout(t, s.people.OWNER, s.orgId, 'STANDARD', key);
    const again = await postCheckout(t, s.people.OWNER, s.orgId, 'STANDARD', key);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    const other = await postCheckout(t, s.people.OWNER, s.orgId, 'BUSINESS', key);
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe(ErrorCode.IDEMPOTENCY_MISMATCH);
    // The same key of another member is theirs alone.
    const admin = await postCheckout(t, s.people.ADMIN, s.orgId, 'STANDARD', key);
    expect(admin.json().id).not.toBe(first.json().id);
  });

  it('runs 50 parallel identical requests once: one checkout, one gateway call', async () => {
    const spy = vi.spyOn(t.ctx.payments, 'openCheckout');
    const before = (await checkoutsOf(s.orgId)).length;
    const key = newKey();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        postCheckout(t, s.people.OWNER, s.orgId, 'PROFESSIONAL', key),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(50).fill(201));
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    expect((await checkoutsOf(s.orgId)).length).toBe(before + 1);
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });

  it('lets a key go when the call failed, so a retry can succeed', async () => {
    const key = newKey();
    const spy = vi.spyOn(t.ctx.payments, 'openCheckout').mockRejectedValueOnce(new Error('down'));
    const failed = await postCheckout(t, s.people.OWNER, s.orgId, 'STANDARD', key);
    expect(failed.statusCode).toBe(503);
    expect(failed.json().code).toBe(ErrorCode.SERVICE_UNAVAILABLE);
    const retried = await postCheckout(t, s.people.OWNER, s.orgId, 'STANDARD', key);
    expect(retried.statusCode).toBe(201);
    spy.mockRestore();
    const rows = await t.ctx.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(rows).toHaveLength(1);
  });

  it('takes over a key left in progress by a process that died, once its lease is over', async () => {
    const key = newKey();
    const first = await postCheckout(t, s.people.OWNER, s.orgId, 'STANDARD', key);
    expect(first.statusCode).toBe(201);
    // As a process that died while running leaves it: no answer, leased a lease and a bit ago.
    await t.ctx.db
      .update(idempotencyKeys)
      .set({
        status_code: null,
        response: null,
        leased_at: new Date(t.clock.now().getTime() - IDEMPOTENCY_LEASE_MS),
      })
      .where(eq(idempotencyKeys.key, key));
    const taken = await postCheckout(t, s.people.OWNER, s.orgId, 'STANDARD', key);
    expect(taken.statusCode).toBe(201);
    expect(taken.json().id).not.toBe(first.json().id);
    const [row] = await t.ctx.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(row).toMatchObject({ status_code: 201, leased_at: t.clock.now() });
    // From now on the new answer is the key's.
    const replay = await postCheckout(t, s.people.OWNER, s.orgId, 'STANDARD', key);
    expect(replay.json()).toEqual(taken.json());
  });

  it('reads an open checkout past its time as EXPIRED, and its page as closed', async () => {
    const opened = (await postCheckout(t, s.people.OWNER, s.orgId, 'STANDARD')).json();
    t.clock.advance(3_600_001);
    try {
      const read = await s.send(
        'GET',
        `/v1/organizations/${s.orgId}/checkout/${opened.id}/`,
        s.people.OWNER,
      );
      expect(read.json().status).toBe('EXPIRED');
      const page = await t.app.inject({ method: 'GET', url: opened.url });
      expect(page.statusCode).toBe(409);
      expect(page.body).toContain('expired');
      const paid = await submitCard(t, opened.url, cardForm('4242424242424242'));
      expect(paid.statusCode).toBe(409);
    } finally {
      t.clock.advance(-3_600_001);
    }
  });

  it('pays through the hosted page: ACTIVE with the plan’s limits, one invoice, one card', async () => {
    const owner = await s.person();
    const { createOrganization } = await import('../../seed/factories.ts');
    const org = (await createOrganization(t.ctx.db, { ownerId: owner.id, plan: null })).id;
    const { checkout, paid } = await payWith(t, owner, org, '4242 4242 4242 4242');
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(
      `${t.ctx.config.publicUrl}/ps/organization-settings/${org}/billing/subscription?checkout=${checkout.id}`,
    );
    const [sub] = await t.ctx.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.organization_id, org));
    expect(sub).toMatchObject({
      status: 'ACTIVE',
      is_active: true,
      amount: 7900,
      subscriber_id: owner.id,
      limits: { max_workspaces: 10, max_internal_users: 25, max_external_users: 50 },
    });
    const cards = await t.ctx.db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.organization_id, org));
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2039 });
    expect(cards[0]!.gateway_ref).toMatch(/^pm_sandbox_ok_/);
    expect(sub!.default_payment_method_id).toBe(cards[0]!.id);
    const paidInvoices = await t.ctx.db
      .select()
      .from(invoices)
      .where(eq(invoices.organization_id, org));
    expect(paidInvoices).toHaveLength(1);
    expect(paidInvoices[0]).toMatchObject({ kind: 'SUBSCRIPTION', status: 'PAID', amount: 7900 });
    const read = await t.app.inject({
      method: 'GET',
      url: `/v1/organizations/${org}/checkout/${checkout.id}/`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(read.json()).toMatchObject({ status: 'COMPLETE' });
    // A second payment of the same page changes nothing.
    const again = await submitCard(t, checkout.url, cardForm('4242424242424242'));
    expect(again.statusCode).toBe(200);
    expect(
      await t.ctx.db.select().from(invoices).where(eq(invoices.organization_id, org)),
    ).toHaveLength(1);
  });

  it('keeps a declined checkout FAILED with its message, and starts nothing', async () => {
    for (const [number, message] of [
      ['4000000000000002', 'Your card was declined. Try another card.'],
      ['4000000000009995', 'Your card has insufficient funds. Try another card.'],
    ] as const) {
      const owner = await s.person();
      const { createOrganization } = await import('../../seed/factories.ts');
      const org = (await createOrganization(t.ctx.db, { ownerId: owner.id, plan: null })).id;
      const { checkout, paid } = await payWith(t, owner, org, number);
      expect(paid.statusCode).toBe(303);
      expect(paid.headers.location).toBe(checkout.url);
      const page = await t.app.inject({ method: 'GET', url: checkout.url });
      expect(page.body).toContain(message.replace("'", '&#39;'));
      expect(page.body).toContain(`billing/plans?checkout=${checkout.id}`);
      const [row] = await t.ctx.db.select().from(checkouts).where(eq(checkouts.id, checkout.id));
      expect(row).toMatchObject({ status: 'FAILED', failure_message: message });
      expect(
        await t.ctx.db.select().from(subscriptions).where(eq(subscriptions.organization_id, org)),
      ).toEqual([]);
      expect(
        await t.ctx.db.select().from(paymentMethods).where(eq(paymentMethods.organization_id, org)),
      ).toEqual([]);
    }
  });
});
