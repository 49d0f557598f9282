// engine-parity: twenty or more requests at once
import { ErrorCode } from '@portolan/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type Person, type TenantScene } from '../../../test/support/tenants.ts';
import {
  activities,
  billingAccounts,
  checkouts,
  fundPackages,
  invoices,
  paymentMethods,
} from '../../db/schema/index.ts';
import { cardForm, newKey, payWith, submitCard, unsubscribedOrganization } from './test-flow.ts';

/**
 * A fund package bought with a saved card (POST …/balance/top-ups/, issue 18): charged at once,
 * once per Idempotency-Key, credited with an invoice like a paid checkout; and the billing changes
 * the activity log now shows (subscribed, plan changed, unsubscribed, funds added).
 */
describe('top-ups with a saved card, and billing in the activity log', () => {
  let t: TestApp;
  let s: TenantScene;
  let pkg: { id: string; price: number; credit: number };
  let good: string;
  let declining: string;

  const org = (orgId: string, rest: string) => `/v1/organizations/${orgId}${rest}`;
  const topUp = (who: Person | 'anonymous', orgId: string, body: object, key = newKey()) =>
    t.app.inject({
      method: 'POST',
      url: org(orgId, '/balance/top-ups/'),
      headers: {
        ...(who !== 'anonymous' && { authorization: `Bearer ${who.token}` }),
        ...(key && { 'idempotency-key': key }),
      },
      payload: body,
    });
  const balanceOf = async (orgId: string) =>
    (
      await t.ctx.db
        .select()
        .from(billingAccounts)
        .where(eq(billingAccounts.organization_id, orgId))
    )[0]?.available_balance ?? 0;
  const activitiesOf = (orgId: string, action: string) =>
    t.ctx.db
      .select()
      .from(activities)
      .where(and(eq(activities.organization_id, orgId), eq(activities.action, action)));

  /** Saves a card by buying a package at the hosted page with `number`; answers its id. */
  async function savedCard(who: Person, orgId: string, number: string): Promise<string> {
    const before = await t.ctx.db.select().from(paymentMethods);
    const opened = await t.app.inject({
      method: 'POST',
      url: org(orgId, '/balance/checkout/'),
      headers: { authorization: `Bearer ${who.token}`, 'idempotency-key': newKey() },
      payload: { fund_package_id: pkg.id },
    });
    expect(opened.statusCode).toBe(201);
    await submitCard(t, opened.json().url, cardForm(number));
    const after = await t.ctx.db.select().from(paymentMethods);
    const added = after.find((c) => !before.some((b) => b.id === c.id));
    return added!.id;
  }

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    const sorted = (await t.ctx.db.select().from(fundPackages)).sort(
      (a, b) => a.sort_order - b.sort_order,
    );
    pkg = sorted[0]!;
    good = await savedCard(s.people.OWNER, s.orgId, '4242424242424242');
    // Fine at the hosted page, declined when charged later.
    declining = await savedCard(s.people.OWNER, s.orgId, '4000000000000341');
  });
  afterAll(() => t.close());

  it('charges the saved card, credits the package with an invoice, once per Idempotency-Key', async () => {
    const before = await balanceOf(s.orgId);
    const invoicesBefore = (
      await t.ctx.db.select().from(invoices).where(eq(invoices.organization_id, s.orgId))
    ).length;
    const key = newKey();
    const body = { fund_package_id: pkg.id, payment_method_id: good };
    const res = await topUp(s.people.OWNER, s.orgId, body, key);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ type: 'top-up', amount: pkg.credit, source: 'payment' });
    expect(await balanceOf(s.orgId)).toBe(before + pkg.credit);
    const made = (
      await t.ctx.db.select().from(invoices).where(eq(invoices.organization_id, s.orgId))
    ).slice(invoicesBefore);
    expect(made).toEqual([
      expect.objectContaining({ kind: 'TOP_UP', status: 'PAID', amount: pkg.price }),
    ]);
    expect(res.json().reference).toMatch(/\S/);

    // The same request again (a double click, a retry): the first answer, nothing charged.
    const again = await topUp(s.people.OWNER, s.orgId, body, key);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(res.json());
    expect(await balanceOf(s.orgId)).toBe(before + pkg.credit);
    // The key for another request is refused.
    const other = await topUp(
      s.people.OWNER,
      s.orgId,
      { ...body, payment_method_id: declining },
      key,
    );
    expect(other.statusCode).toBe(409);

    const recorded = await activitiesOf(s.orgId, 'TOP_UP_BALANCE');
    expect(recorded.filter((a) => a.user_id === s.people.OWNER.id).length).toBeGreaterThanOrEqual(
      3,
    );
    expect(recorded.at(-1)!.data).toMatchObject({ credit: pkg.credit, amount: pkg.price });
  });

  it('fifty at once with one Idempotency-Key credit once; with fifty keys, fifty times exactly', async () => {
    const key = newKey();
    const before = await balanceOf(s.orgId);
    const same = await Promise.all(
      Array.from({ length: 50 }, () =>
        topUp(s.people.OWNER, s.orgId, { fund_package_id: pkg.id, payment_method_id: good }, key),
      ),
    );
    // One request does the work; the others replay its answer or are told it is in progress.
    expect(same.filter((a) => a.statusCode >= 500)).toEqual([]);
    const ids = new Set(same.filter((a) => a.statusCode === 201).map((a) => a.json().id));
    expect(ids.size).toBe(1);
    expect(await balanceOf(s.orgId)).toBe(before + pkg.credit);

    const many = await Promise.all(
      Array.from({ length: 50 }, () =>
        topUp(s.people.OWNER, s.orgId, { fund_package_id: pkg.id, payment_method_id: good }),
      ),
    );
    expect(many.map((a) => a.statusCode)).toEqual(Array(50).fill(201));
    expect(await balanceOf(s.orgId)).toBe(before + 51 * pkg.credit);
  });

  it('answers OWNER and ADMIN; 403 STAFF and CLIENT; 404 another organization; 401 anonymous', async () => {
    const body = { fund_package_id: pkg.id, payment_method_id: good };
    const expected: [Person | 'anonymous', number][] = [
      [s.people.OWNER, 201],
      [s.people.ADMIN, 201],
      [s.people.STAFF, 403],
      [s.people.CLIENT, 403],
      [s.people.STRANGER, 404],
      ['anonymous', 401],
    ];
    for (const [i, [who, status]] of expected.entries()) {
      const before = await balanceOf(s.orgId);
      const res = await topUp(who, s.orgId, body);
      expect({ i, status: res.statusCode }).toEqual({ i, status });
      expect(await balanceOf(s.orgId)).toBe(before + (status === 201 ? pkg.credit : 0));
    }
  });

  it('refuses a declined card (402), another organization’s card and bad input (400), leaving nothing', async () => {
    const before = await balanceOf(s.orgId);
    const rows = async () => ({
      checkouts: (await t.ctx.db.select().from(checkouts)).length,
      invoices: (await t.ctx.db.select().from(invoices)).length,
    });
    const counted = await rows();
    const declined = await topUp(s.people.OWNER, s.orgId, {
      fund_package_id: pkg.id,
      payment_method_id: declining,
    });
    expect(declined.statusCode).toBe(402);
    expect(declined.json().code).toBe(ErrorCode.PAYMENT_FAILED);

    const strangerOrg = await unsubscribedOrganization(t, s.people.STRANGER);
    const theirs = await savedCard(s.people.STRANGER, strangerOrg, '4242424242424242');
    const counted2 = await rows();
    const foreign = await topUp(s.people.OWNER, s.orgId, {
      fund_package_id: pkg.id,
      payment_method_id: theirs,
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().details).toEqual([
      expect.objectContaining({ field: 'payment_method_id' }),
    ]);
    const noPackage = await topUp(s.people.OWNER, s.orgId, {
      fund_package_id: crypto.randomUUID(),
      payment_method_id: good,
    });
    expect(noPackage.json().details).toEqual([
      expect.objectContaining({ field: 'fund_package_id' }),
    ]);
    const noKey = await topUp(
      s.people.OWNER,
      s.orgId,
      { fund_package_id: pkg.id, payment_method_id: good },
      '',
    );
    expect(noKey.statusCode).toBe(400);
    expect(await balanceOf(s.orgId)).toBe(before);
    expect(await rows()).toEqual(counted2);
    expect(counted2.checkouts - counted.checkouts).toBe(1); // the stranger's own hosted checkout
  });

  it('records a subscription started, its plan changed and its cancellation in the activity log', async () => {
    const owner = s.people.OWNER;
    const orgId = await unsubscribedOrganization(t, owner);
    const { paid } = await payWith(t, owner, orgId, '4242424242424242', 'PROFESSIONAL');
    expect(paid.statusCode).toBeLessThan(400);
    expect(await activitiesOf(orgId, 'SUBSCRIBE')).toEqual([
      expect.objectContaining({
        user_id: owner.id,
        object_type: 'organization',
        object_id: orgId,
        data: expect.objectContaining({ plan: 'PROFESSIONAL' }),
      }),
    ]);

    const changed = await t.app.inject({
      method: 'POST',
      url: org(orgId, '/grade-changes/checkout/'),
      headers: { authorization: `Bearer ${owner.token}`, 'idempotency-key': newKey() },
      payload: { plan: 'STANDARD' },
    });
    expect(changed.statusCode).toBe(200);
    expect(await activitiesOf(orgId, 'CHANGE_PLAN')).toEqual([
      expect.objectContaining({
        user_id: owner.id,
        data: expect.objectContaining({
          change: 'DOWNGRADE',
          from: 'PROFESSIONAL',
          plan: 'STANDARD',
        }),
      }),
    ]);

    const cancelled = await t.app.inject({
      method: 'GET',
      url: org(orgId, '/unsubscription/'),
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(cancelled.statusCode).toBe(200);
    expect(await activitiesOf(orgId, 'UNSUBSCRIBE')).toEqual([
      expect.objectContaining({
        user_id: owner.id,
        data: expect.objectContaining({ plan: 'STANDARD' }),
      }),
    ]);
  });
});
