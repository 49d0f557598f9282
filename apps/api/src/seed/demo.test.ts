import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, signIn, type TestApp } from '../../test/support/app.ts';
import {
  clientMembers,
  clientModules,
  clients,
  invoices,
  organizationMembers,
  organizations,
  paymentMethods,
  plans,
  subscriptions,
} from '../db/schema/index.ts';
import {
  DEMO_OWNER,
  DEMO_PENDING_WORKSPACE,
  DEMO_STAFF,
  DEMO_WORKSPACES,
  seedDemo,
} from './demo.ts';

describe('demo seed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('creates an owner who can sign in, an organization, two TR workspaces and a STAFF member whose workspace waits for approval, once', async () => {
    expect(await seedDemo(t.ctx.db, 'transit')).toEqual({ created: true });
    expect(await seedDemo(t.ctx.db, 'transit')).toEqual({ created: false });

    const token = await signIn(t, DEMO_OWNER.email, DEMO_OWNER.password);
    expect(await signIn(t, DEMO_STAFF.email, DEMO_STAFF.password)).toBeTruthy();
    const orgs = await t.ctx.db.select().from(organizations);
    expect(orgs).toHaveLength(1);
    const members = await t.ctx.db
      .select()
      .from(organizationMembers)
      .where(eq(organizationMembers.organization_id, orgs[0]!.id));
    expect(members.map((m) => m.role).sort()).toEqual(['OWNER', 'STAFF']);

    // The owner sees the three through the API, the STAFF member's one still pending.
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/organizations/${orgs[0]!.id}/clients/`,
      headers: bearer(token),
    });
    const listed = res.json().results as { name: string; active: boolean }[];
    expect(listed.map((w) => [w.name, w.active]).sort()).toEqual(
      [...DEMO_WORKSPACES.map((name) => [name, true]), [DEMO_PENDING_WORKSPACE, false]].sort(),
    );
    const modules = await t.ctx.db.select().from(clientModules);
    expect(modules).toHaveLength(3);
    expect(modules.filter((m) => m.enabled)).toHaveLength(2);
    expect(await t.ctx.db.select().from(clients)).toHaveLength(3);
    expect(await t.ctx.db.select().from(clientMembers)).toHaveLength(3);
  });

  it('subscribes the organization to PROFESSIONAL, paid with a sandbox card, so billing works at once', async () => {
    const [org] = await t.ctx.db.select().from(organizations);
    const [subscription] = await t.ctx.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.organization_id, org!.id));
    const [plan] = await t.ctx.db.select().from(plans).where(eq(plans.id, subscription!.plan_id));
    expect(plan!.type).toBe('PROFESSIONAL');
    expect(subscription).toMatchObject({ status: 'ACTIVE', is_active: true, amount: plan!.price });
    expect(subscription!.limits).toEqual(plan!.config);
    const cards = await t.ctx.db.select().from(paymentMethods);
    expect(cards.map((c) => [c.brand, c.last4, c.id])).toEqual([
      ['visa', '4242', subscription!.default_payment_method_id],
    ]);
    const paid = await t.ctx.db.select().from(invoices);
    expect(paid.map((i) => [i.kind, i.status, i.amount])).toEqual([
      ['SUBSCRIPTION', 'PAID', plan!.price],
    ]);
  });
});
