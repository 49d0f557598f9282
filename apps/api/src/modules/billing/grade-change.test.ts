// engine-parity: twenty or more requests at once
import { ErrorCode, type PlanType } from '@portolan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  addCard,
  recordCharges,
  type ChargeRecorder,
} from '../../../test/support/charge-recorder.ts';
import { createTenantScene, type Person, type TenantScene } from '../../../test/support/tenants.ts';
import { invoices, subscriptions } from '../../db/schema/index.ts';
import {
  addOrganizationMember,
  createClient,
  createOrganization,
  createSubscription,
} from '../../seed/factories.ts';

/**
 * Plan changes: the prorated preview, the change with its charge (once, whatever the replays and
 * races), a downgrade's credit, and who may. Runs on both engines.
 */
describe('grade changes', () => {
  let t: TestApp;
  let s: TenantScene;
  let gateway: ChargeRecorder;

  // A 30-day period, a third of it gone: two thirds of each price are prorated.
  const START = new Date('2031-05-01T00:00:00.000Z');
  const NOW = new Date('2031-05-11T00:00:00.000Z');
  const END = new Date('2031-05-31T00:00:00.000Z');
  const DATES = '05/11/2031 – 05/31/2031';

  beforeAll(async () => {
    t = await createTestApp();
    // Before anyone signs in: tokens are checked against this clock.
    t.clock.set(NOW);
    gateway = recordCharges(t);
    s = await createTenantScene(t);
  });
  afterAll(() => t.close());

  async function subscribedOrg(
    plan: PlanType,
    fields: { card?: boolean; status?: 'TRIALING' | 'ACTIVE' | 'EXPIRED'; credit?: number } = {},
  ) {
    const owner = await s.person();
    const org = await createOrganization(t.ctx.db, { ownerId: owner.id, plan: null });
    const card = fields.card === false ? null : await addCard(t, org.id);
    const sub = await createSubscription(t.ctx.db, {
      organizationId: org.id,
      plan,
      status: fields.status ?? 'ACTIVE',
      periodStart: START,
      expiresIn: END,
      subscriberId: owner.id,
      defaultPaymentMethodId: card?.id ?? null,
    });
    if (fields.credit)
      await t.ctx.db
        .update(subscriptions)
        .set({ credit: fields.credit })
        .where(eq(subscriptions.id, sub.id));
    return { owner, orgId: org.id, sub };
  }

  const preview = (who: Person, orgId: string, body: unknown) =>
    s.send('POST', `/v1/organizations/${orgId}/grade-changes/preview/`, who, body);
  const checkout = (who: Person, orgId: string, body: unknown, key?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/organizations/${orgId}/grade-changes/checkout/`,
      headers: { ...bearer(who.token), ...(key !== undefined && { 'idempotency-key': key }) },
      payload: body as object,
    });
  const read = async (id: string) =>
    (await t.ctx.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
  const invoicesOf = (id: string) =>
    t.ctx.db.select().from(invoices).where(eq(invoices.subscription_id, id));

  it('answers OWNER and ADMIN; STAFF and CLIENT 403; outsiders 404; anonymous 401', async () => {
    const body = { plan: 'PROFESSIONAL' };
    for (const role of ['OWNER', 'ADMIN'] as const)
      expect((await preview(s.people[role], s.orgId, body)).statusCode).toBe(200);
    for (const role of ['STAFF', 'CLIENT'] as const) {
      const res = await preview(s.people[role], s.orgId, body);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe(ErrorCode.PERMISSION_DENIED);
      const change = await checkout(s.people[role], s.orgId, body, `k-${role}`);
      expect(change.statusCode).toBe(403);
    }
    expect((await preview(s.people.STRANGER, s.orgId, body)).statusCode).toBe(404);
    expect((await checkout(s.people.STRANGER, s.orgId, body, 'k-s')).statusCode).toBe(404);
    expect(
      (
        await s.send(
          'POST',
          `/v1/organizations/${s.orgId}/grade-changes/preview/`,
          'anonymous',
          body,
        )
      ).statusCode,
    ).toBe(401);
  });

  it('previews an upgrade with prorated lines, the credit applied, and writes nothing', async () => {
    const { owner, orgId, sub } = await subscribedOrg('STANDARD', { credit: 1000 });
    const res = await preview(owner, orgId, { plan: 'PROFESSIONAL' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.change).toBe('UPGRADE');
    expect(body.plan.type).toBe('PROFESSIONAL');
    expect(body.invoice).toEqual({
      lines: [
        { description: `Unused time on Standard (${DATES})`, amount: -1933 },
        { description: `Remaining time on Professional (${DATES})`, amount: 5267 },
      ],
      subtotal: 3334,
      discounts: 0,
      applied_balance: 1000,
      total: 2334,
      currency: 'usd',
      next_payment_date: END.toISOString(),
    });
    const after = await read(sub.id);
    expect(after).toMatchObject({ plan_id: sub.plan_id, credit: 1000, amount: 2900 });
    expect(await invoicesOf(sub.id)).toHaveLength(0);
  });

  it('previews a downgrade: nothing to pay, a warning where the organization is over the limits', async () => {
    const { owner, orgId } = await subscribedOrg('PROFESSIONAL');
    for (let i = 0; i < 4; i++) await createClient(t.ctx.db, { organizationId: orgId });
    const res = await preview(owner, orgId, { plan: 'STANDARD' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.change).toBe('DOWNGRADE');
    expect(body.invoice).toMatchObject({ subtotal: -3334, applied_balance: 0, total: 0 });
    expect(body.resource_comparison).toEqual({
      clients: { current: 4, intent: 3, is_warned: true },
      internal_users: { current: 1, intent: 5, is_warned: false },
      external_users: { current: 0, intent: 10, is_warned: false },
    });
  });

  it('previews a trial change as a full first period starting now', async () => {
    const { owner, orgId } = await subscribedOrg('STANDARD', { status: 'TRIALING' });
    const body = (await preview(owner, orgId, { plan: 'BUSINESS' })).json();
    expect(body.invoice).toEqual({
      lines: [{ description: 'Business plan (05/11/2031 – 06/11/2031)', amount: 19900 }],
      subtotal: 19900,
      discounts: 0,
      applied_balance: 0,
      total: 19900,
      currency: 'usd',
      next_payment_date: '2031-06-11T00:00:00.000Z',
    });
    // Unlimited limits compare as null and never warn.
    expect(body.resource_comparison.clients).toEqual({
      current: 0,
      intent: null,
      is_warned: false,
    });
  });

  it('refuses a change without a running subscription, to CUSTOM, or to the same plan', async () => {
    const expired = await subscribedOrg('STANDARD', { status: 'EXPIRED' });
    const none = await s.person();
    const noneOrg = await createOrganization(t.ctx.db, { ownerId: none.id, plan: null });
    const active = await subscribedOrg('STANDARD');
    const cases = [
      [expired.owner, expired.orgId, 'PROFESSIONAL', ErrorCode.NOT_SUBSCRIBED],
      [none, noneOrg.id, 'PROFESSIONAL', ErrorCode.NOT_SUBSCRIBED],
      [active.owner, active.orgId, 'CUSTOM', ErrorCode.PLAN_NOT_SELF_SERVE],
      [active.owner, active.orgId, 'STANDARD', ErrorCode.SAME_PLAN],
    ] as const;
    for (const [who, orgId, plan, code] of cases) {
      for (const res of [
        await preview(who, orgId, { plan }),
        await checkout(who, orgId, { plan }, `refuse-${plan}-${code}`),
      ]) {
        expect(res.statusCode).toBe(409);
        expect(res.json().code).toBe(code);
      }
    }
  });

  it('refuses bad input naming the field', async () => {
    const { owner, orgId } = await subscribedOrg('STANDARD');
    for (const body of [{ plan: 'GOLD' }, {}, { plan: 'PROFESSIONAL', extra: 1 }]) {
      const res = await preview(owner, orgId, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe(ErrorCode.VALIDATION_ERROR);
      expect(res.json().details.length).toBeGreaterThan(0);
    }
    const missing = await checkout(owner, orgId, { plan: 'PROFESSIONAL' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details).toEqual([
      expect.objectContaining({ field: expect.stringMatching(/idempotency-key/i) }),
    ]);
    expect(gateway.calls).toHaveLength(0);
  });

  it('upgrades: charges the prorated total once, changes the limits, and a replay charges nothing', async () => {
    const { owner, orgId, sub } = await subscribedOrg('STANDARD');
    const first = await checkout(owner, orgId, { plan: 'PROFESSIONAL' }, 'up-1');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      status: 'ACTIVE',
      amount: 7900,
      plan: { type: 'PROFESSIONAL' },
      expired_in: END.toISOString(),
    });
    const replay = await checkout(owner, orgId, { plan: 'PROFESSIONAL' }, 'up-1');
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(first.json());
    const charges = gateway.callsFor(sub.id);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({
      amount: 3334,
      idempotencyKey: expect.stringMatching(new RegExp(`^grade:${sub.id}:[0-9a-f]{64}$`)),
    });
    const after = await read(sub.id);
    expect(after.limits).toEqual({
      max_workspaces: 10,
      max_internal_users: 25,
      max_external_users: 50,
    });
    const [invoice] = await invoicesOf(sub.id);
    expect(invoice).toMatchObject({ kind: 'UPGRADE', status: 'PAID', amount: 3334 });
    expect(invoice!.gateway_ref).toMatch(/^ch_test_/);
  });

  it('keeps the gateway’s key per caller: another member’s change with the same key is charged', async () => {
    const { owner, orgId, sub } = await subscribedOrg('STANDARD');
    const admin = await s.person();
    await addOrganizationMember(t.ctx.db, {
      organizationId: orgId,
      userId: admin.id,
      role: 'ADMIN',
    });
    expect((await checkout(owner, orgId, { plan: 'PROFESSIONAL' }, 'shared')).statusCode).toBe(200);
    const second = await checkout(admin, orgId, { plan: 'BUSINESS' }, 'shared');
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ plan: { type: 'BUSINESS' } });
    const charges = gateway.callsFor(sub.id);
    expect(charges).toHaveLength(2);
    expect(charges[0]!.idempotencyKey).not.toBe(charges[1]!.idempotencyKey);
    const paid = (await invoicesOf(sub.id)).map((i) => i.gateway_ref);
    expect(paid).toHaveLength(2);
    expect(new Set(paid).size).toBe(2);
  });

  it('downgrades without charging and keeps the unused time as credit', async () => {
    const { owner, orgId, sub } = await subscribedOrg('PROFESSIONAL');
    const res = await checkout(owner, orgId, { plan: 'STANDARD' }, 'down-1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ amount: 2900, plan: { type: 'STANDARD' } });
    expect(gateway.callsFor(sub.id)).toHaveLength(0);
    expect(await read(sub.id)).toMatchObject({ credit: 3334, amount: 2900 });
    const [invoice] = await invoicesOf(sub.id);
    expect(invoice).toMatchObject({
      kind: 'DOWNGRADE',
      status: 'PAID',
      amount: 0,
      gateway_ref: null,
    });
    // The credit pays the next upgrade first.
    const up = (await preview(owner, orgId, { plan: 'PROFESSIONAL' })).json();
    expect(up.invoice).toMatchObject({ subtotal: 3334, applied_balance: 3334, total: 0 });
  });

  it('a trial change pays a full period and becomes ACTIVE with a fresh period', async () => {
    const { owner, orgId, sub } = await subscribedOrg('STANDARD', { status: 'TRIALING' });
    const res = await checkout(owner, orgId, { plan: 'PROFESSIONAL' }, 'trial-1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'ACTIVE',
      current_period_start: NOW.toISOString(),
      expired_in: '2031-06-11T00:00:00.000Z',
    });
    expect(gateway.callsFor(sub.id).map((c) => c.amount)).toEqual([7900]);
  });

  it('without a card 409; a declined card 402 and nothing changes', async () => {
    const noCard = await subscribedOrg('STANDARD', { card: false });
    const res = await checkout(noCard.owner, noCard.orgId, { plan: 'BUSINESS' }, 'nc-1');
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe(ErrorCode.NO_PAYMENT_METHOD);

    const declined = await subscribedOrg('STANDARD');
    gateway.failWith = 'declined';
    try {
      const failed = await checkout(declined.owner, declined.orgId, { plan: 'BUSINESS' }, 'dc-1');
      expect(failed.statusCode).toBe(402);
      expect(failed.json()).toMatchObject({
        code: ErrorCode.PAYMENT_FAILED,
        message: 'Your card was declined. Try another card.',
      });
    } finally {
      gateway.failWith = null;
    }
    expect(await read(declined.sub.id)).toMatchObject({
      plan_id: declined.sub.plan_id,
      amount: 2900,
    });
    expect(await invoicesOf(declined.sub.id)).toHaveLength(0);
    // The gateway keeps its answer per key (as Stripe does, declines included): the same key
    // gets the decline again; a new attempt takes a new key.
    const same = await checkout(declined.owner, declined.orgId, { plan: 'BUSINESS' }, 'dc-1');
    expect(same.statusCode).toBe(402);
    const retry = await checkout(declined.owner, declined.orgId, { plan: 'BUSINESS' }, 'dc-2');
    expect(retry.statusCode).toBe(200);
  });

  it('fifty parallel upgrades with different keys: one charge, SAME_PLAN for the rest', async () => {
    const { owner, orgId, sub } = await subscribedOrg('STANDARD');
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        checkout(owner, orgId, { plan: 'BUSINESS' }, `race-${i}`),
      ),
    );
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, ...Array(49).fill(409)]);
    for (const r of answers.filter((a) => a.statusCode === 409))
      expect(r.json().code).toBe(ErrorCode.SAME_PLAN);
    expect(gateway.callsFor(sub.id)).toHaveLength(1);
    expect(await invoicesOf(sub.id)).toHaveLength(1);
  });
});
