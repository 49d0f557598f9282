// engine-parity: twenty or more requests at once
import { ErrorCode } from '@portolan/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  createTenantScene,
  type OrgPerson,
  type Person,
  type TenantScene,
} from '../../../test/support/tenants.ts';
import { billingAccounts, events, ledgerEntries, notifications } from '../../db/schema/index.ts';
import {
  addClientMember,
  createClient,
  createOrganization,
  FACTORY_PASSWORD,
} from '../../seed/factories.ts';
import { newKey } from './test-flow.ts';
import { adjustBalance } from './wallet-service.ts';

/**
 * Issue 22 items 2 and 3: monthly spend caps of the organization and of a workspace (exact for
 * fifty charges at once, counted per calendar month, net of refunds), low-balance alerts (once
 * per crossing, to the OWNERs and ADMINs, with balance.low), and charges naming a workspace.
 */
describe('spend caps and low-balance alerts', () => {
  let t: TestApp;
  let s: TenantScene;
  let workspaceId: string;
  let otherWorkspaceId: string;
  let strangersWorkspaceId: string;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    const owner = s.people.OWNER;
    workspaceId = (await createClient(t.ctx.db, { organizationId: s.orgId, ownerId: owner.id })).id;
    otherWorkspaceId = (await createClient(t.ctx.db, { organizationId: s.orgId })).id;
    strangersWorkspaceId = (await createClient(t.ctx.db, { organizationId: s.otherOrgId })).id;
    // STAFF and CLIENT work in the workspace: its billing is still not theirs (403, not 404).
    for (const role of ['STAFF', 'CLIENT'] as const)
      await addClientMember(t.ctx.db, { clientId: workspaceId, userId: s.people[role].id, role });
  });
  afterAll(() => t.close());

  const auth = (who: Person) => ({ authorization: `Bearer ${who.token}` });
  const charge = (orgId: string, body: object, who: Person = s.people.OWNER) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/organizations/${orgId}/balance/charges/`,
      headers: { ...auth(who), 'idempotency-key': newKey() },
      payload: body,
    });
  /** SHIPPING_LABEL costs 25 a unit; CUSTOMS_DECLARATION 150 (migration 0008). */
  const label = (clientId?: string) => ({
    service: 'SHIPPING_LABEL',
    quantity: 1,
    ...(clientId && { client_id: clientId }),
  });
  const balanceOf = async (orgId: string) =>
    (
      await t.ctx.db
        .select()
        .from(billingAccounts)
        .where(eq(billingAccounts.organization_id, orgId))
    )[0]!.available_balance;
  const ledgerSum = async (orgId: string) =>
    (
      await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.organization_id, orgId))
    ).reduce((sum, e) => sum + e.amount, 0);
  /** A fresh organization of the owner with `balance` on it. */
  async function fundedOrganization(balance: number) {
    const org = await createOrganization(t.ctx.db, { ownerId: s.people.OWNER.id });
    await adjustBalance(t.ctx.db, org.id, balance, 'Test funds');
    return org.id;
  }

  // ---- the routes: who may, and bad input ---------------------------------------------------

  const ROUTES = [
    ['org cap', () => `/v1/organizations/${s.orgId}/balance/spend-cap/`, { monthly_limit: 1000 }],
    ['workspace cap', () => `/v1/clients/${workspaceId}/spend-cap/`, { monthly_limit: 1000 }],
    ['alerts', () => `/v1/organizations/${s.orgId}/balance/alerts/`, { thresholds: [500] }],
  ] as const;

  it.each(ROUTES)(
    '%s: OWNER and ADMIN read and set; STAFF and CLIENT 403; anonymous 401',
    async (_n, url, body) => {
      const expected: Record<OrgPerson, number> = {
        OWNER: 200,
        ADMIN: 200,
        STAFF: 403,
        CLIENT: 403,
        STRANGER: 404,
      };
      for (const [who, status] of Object.entries(expected)) {
        const person = s.people[who as OrgPerson];
        expect((await s.send('GET', url(), person)).statusCode, `GET ${who}`).toBe(status);
        expect((await s.send('PUT', url(), person, body)).statusCode, `PUT ${who}`).toBe(status);
      }
      expect((await s.send('GET', url(), 'anonymous')).statusCode).toBe(401);
      expect((await s.send('PUT', url(), 'anonymous', body)).statusCode).toBe(401);
    },
  );

  it('another organization’s workspace is not found; bad input names its field and changes nothing', async () => {
    const owner = s.people.OWNER;
    expect(
      (await s.send('GET', `/v1/clients/${strangersWorkspaceId}/spend-cap/`, owner)).statusCode,
    ).toBe(404);
    const capUrl = `/v1/organizations/${s.orgId}/balance/spend-cap/`;
    await s.send('PUT', capUrl, owner, { monthly_limit: 700 });
    for (const [payload, field] of [
      [{ monthly_limit: -1 }, 'monthly_limit'],
      [{ monthly_limit: 1.5 }, 'monthly_limit'],
      [{ monthly_limit: 'lots' }, 'monthly_limit'],
      [{}, 'monthly_limit'],
      [{ monthly_limit: 5, extra: 1 }, 'extra'],
    ] as const) {
      const res = await s.send('PUT', capUrl, owner, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect((await s.send('GET', capUrl, owner)).json().monthly_limit).toBe(700);
    const alertsUrl = `/v1/organizations/${s.orgId}/balance/alerts/`;
    for (const thresholds of [[500, 500], [0], [1, 2, 3, 4, 5, 6], 'many']) {
      const res = await s.send('PUT', alertsUrl, owner, { thresholds });
      expect(res.statusCode, JSON.stringify(thresholds)).toBe(400);
      expect(res.json().details[0].field).toMatch(/^thresholds/);
    }
    const bad = await charge(s.orgId, label(strangersWorkspaceId));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe('client_id');
    await s.send('PUT', capUrl, owner, { monthly_limit: null });
  });

  it('records each change in the activity log, by whom and with the value it replaced; a refused one not', async () => {
    const owner = s.people.OWNER;
    const orgId = await fundedOrganization(1000);
    const clientId = (
      await createClient(t.ctx.db, { organizationId: orgId, ownerId: owner.id, name: 'Quay' })
    ).id;
    const logged = async (action: string) =>
      (await s.send('GET', `/v1/organizations/${orgId}/activities/?action=${action}`, owner))
        .json()
        .results.map((a: { user: { id: string }; object_type: string; data: object }) => ({
          by: a.user.id,
          on: a.object_type,
          ...a.data,
        }));
    const capUrl = `/v1/organizations/${orgId}/balance/spend-cap/`;
    const alertsUrl = `/v1/organizations/${orgId}/balance/alerts/`;
    for (const limit of [900, 400])
      expect((await s.send('PUT', capUrl, owner, { monthly_limit: limit })).statusCode).toBe(200);
    expect(
      (await s.send('PUT', `/v1/clients/${clientId}/spend-cap/`, owner, { monthly_limit: 50 }))
        .statusCode,
    ).toBe(200);
    expect((await s.send('PUT', alertsUrl, owner, { thresholds: [100, 300] })).statusCode).toBe(
      200,
    );
    expect((await s.send('PUT', capUrl, owner, { monthly_limit: -5 })).statusCode).toBe(400);
    expect((await s.send('PUT', alertsUrl, owner, { thresholds: [0] })).statusCode).toBe(400);

    // All at one clock reading: the log's order among them is not the point.
    const caps = await logged('UPDATE_SPEND_CAP');
    expect(caps).toHaveLength(3);
    expect(caps).toEqual(
      expect.arrayContaining([
        {
          by: owner.id,
          on: 'client',
          scope: 'client',
          client_id: clientId,
          client_name: 'Quay',
          monthly_limit: 50,
          previous_monthly_limit: null,
          currency: 'usd',
        },
        {
          by: owner.id,
          on: 'organization',
          scope: 'organization',
          monthly_limit: 400,
          previous_monthly_limit: 900,
          currency: 'usd',
        },
        {
          by: owner.id,
          on: 'organization',
          scope: 'organization',
          monthly_limit: 900,
          previous_monthly_limit: null,
          currency: 'usd',
        },
      ]),
    );
    expect(await logged('UPDATE_BALANCE_ALERTS')).toEqual([
      {
        by: owner.id,
        on: 'organization',
        thresholds: [300, 100],
        previous_thresholds: [],
        currency: 'usd',
      },
    ]);
  });

  // ---- caps ----------------------------------------------------------------------------------

  it('a charge that would pass the organization’s cap is a 402 with the numbers; a refund makes room', async () => {
    const orgId = await fundedOrganization(10_000);
    const owner = s.people.OWNER;
    const capUrl = `/v1/organizations/${orgId}/balance/spend-cap/`;
    const set = await s.send('PUT', capUrl, owner, { monthly_limit: 100 });
    expect(set.json()).toMatchObject({ monthly_limit: 100, spent_this_period: 0, currency: 'usd' });
    const charged = [];
    for (let i = 0; i < 4; i++) charged.push((await charge(orgId, label())).json().entry.id);
    const refused = await charge(orgId, label());
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({
      code: ErrorCode.SPEND_CAP_REACHED,
      details: { scope: 'organization', limit: 100, spent: 100, amount: 25 },
    });
    const now = t.clock.now();
    expect((await s.send('GET', capUrl, owner)).json()).toEqual({
      monthly_limit: 100,
      spent_this_period: 100,
      period_start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
      currency: 'usd',
    });
    // A refund gives its room back.
    await s.send('POST', `/v1/organizations/${orgId}/balance/history/${charged[0]}/refund/`, owner);
    expect((await s.send('GET', capUrl, owner)).json().spent_this_period).toBe(75);
    expect((await charge(orgId, label())).statusCode).toBe(201);
    expect((await charge(orgId, label())).statusCode).toBe(402);
    expect(await ledgerSum(orgId)).toBe(await balanceOf(orgId));
  });

  it('a workspace’s cap holds the charges naming it, and only those', async () => {
    const owner = s.people.OWNER;
    await adjustBalance(t.ctx.db, s.orgId, 5_000, 'Test funds');
    const capUrl = `/v1/clients/${otherWorkspaceId}/spend-cap/`;
    expect((await s.send('PUT', capUrl, owner, { monthly_limit: 50 })).statusCode).toBe(200);
    expect((await charge(s.orgId, label(otherWorkspaceId), s.people.STAFF)).statusCode).toBe(201);
    expect((await charge(s.orgId, label(otherWorkspaceId))).statusCode).toBe(201);
    const refused = await charge(s.orgId, label(otherWorkspaceId));
    expect(refused.statusCode).toBe(402);
    expect(refused.json().details).toEqual({
      scope: 'workspace',
      limit: 50,
      spent: 50,
      amount: 25,
    });
    // Another workspace, and no workspace at all, are not held by it.
    expect((await charge(s.orgId, label(workspaceId))).statusCode).toBe(201);
    expect((await charge(s.orgId, label())).statusCode).toBe(201);
    expect((await s.send('GET', capUrl, owner)).json()).toMatchObject({
      monthly_limit: 50,
      spent_this_period: 50,
    });
    const [entry] = await t.ctx.db
      .select()
      .from(ledgerEntries)
      .where(
        and(eq(ledgerEntries.organization_id, s.orgId), eq(ledgerEntries.client_id, workspaceId)),
      );
    expect(entry).toBeDefined();
    await s.send('PUT', capUrl, owner, { monthly_limit: null });
  });

  it('fifty charges at once against a cap let through exactly what fits, and the ledger sums to the balance', async () => {
    const orgId = await fundedOrganization(100_000);
    const owner = s.people.OWNER;
    const workspace = (await createClient(t.ctx.db, { organizationId: orgId, ownerId: owner.id }))
      .id;
    await s.send('PUT', `/v1/organizations/${orgId}/balance/spend-cap/`, owner, {
      monthly_limit: 500,
    });
    await s.send('PUT', `/v1/clients/${workspace}/spend-cap/`, owner, { monthly_limit: 250 });
    const first = await Promise.all(
      Array.from({ length: 50 }, () => charge(orgId, label(workspace))),
    );
    expect(first.filter((r) => r.statusCode === 201)).toHaveLength(10);
    expect(first.filter((r) => r.statusCode === 402)).toHaveLength(40);
    const second = await Promise.all(Array.from({ length: 50 }, () => charge(orgId, label())));
    expect(second.filter((r) => r.statusCode === 201)).toHaveLength(10);
    expect(second.every((r) => [201, 402].includes(r.statusCode))).toBe(true);
    expect(
      (await s.send('GET', `/v1/organizations/${orgId}/balance/spend-cap/`, owner)).json()
        .spent_this_period,
    ).toBe(500);
    expect(await balanceOf(orgId)).toBe(100_000 - 500);
    expect(await ledgerSum(orgId)).toBe(await balanceOf(orgId));
  });

  // ---- low-balance alerts --------------------------------------------------------------------

  const alertsOf = async (orgId: string) =>
    t.ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.organization_id, orgId), eq(notifications.type, 'BILLING')));
  const lowEvents = (orgId: string) =>
    t.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.organization_id, orgId), eq(events.type, 'balance.low')));

  it('crossing a threshold downwards tells the OWNERs and ADMINs once, and a rise above it arms it again', async () => {
    const orgId = await fundedOrganization(1_200);
    const owner = s.people.OWNER;
    const put = await s.send('PUT', `/v1/organizations/${orgId}/balance/alerts/`, owner, {
      thresholds: [500, 1_000],
    });
    expect(put.json()).toEqual({ thresholds: [1_000, 500], currency: 'usd' });
    const customs = { service: 'CUSTOMS_DECLARATION', quantity: 1 };
    await charge(orgId, customs); // 1050
    expect(await alertsOf(orgId)).toHaveLength(0);
    await charge(orgId, customs); // 900: below 1000
    const first = await alertsOf(orgId);
    expect(first.map((n) => n.recipient_id)).toEqual([owner.id]);
    expect(first[0]!.extra_message).toMatch(/\$9\.00, below your alert threshold of \$10\.00/);
    expect(first[0]!.meta).toEqual({
      kind: 'balance_low',
      path: `/ps/organization-settings/${orgId}/billing/fund-packages`,
    });
    const mail = await t.mailTo(owner.email);
    expect(mail.subject).toMatch(/is low$/);
    expect(mail.text).toContain(`/ps/organization-settings/${orgId}/billing/fund-packages`);
    expect((await lowEvents(orgId)).map((e) => e.data)).toEqual([
      { threshold: 1_000, available_balance: 900, currency: 'usd' },
    ]);
    await charge(orgId, customs); // 750: still below, no new alert
    expect(await alertsOf(orgId)).toHaveLength(1);
    // A top-up lifts it above 1000; the next crossing alerts again.
    await adjustBalance(t.ctx.db, orgId, 500, 'Test funds'); // 1250
    await charge(orgId, customs); // 1100
    await charge(orgId, customs); // 950
    expect(await alertsOf(orgId)).toHaveLength(2);
    expect(await lowEvents(orgId)).toHaveLength(2);
  });

  it('twenty charges at once crossing a threshold alert once; the ADMINs hear too, STAFF not', async () => {
    const owner = s.people.OWNER;
    const orgId = await fundedOrganization(1_000);
    await s.send('PUT', `/v1/organizations/${orgId}/balance/alerts/`, owner, { thresholds: [600] });
    const responses = await Promise.all(Array.from({ length: 20 }, () => charge(orgId, label())));
    expect(responses.every((r) => r.statusCode === 201)).toBe(true);
    expect(await alertsOf(orgId)).toHaveLength(1);
    expect(await lowEvents(orgId)).toHaveLength(1);
    expect(await balanceOf(orgId)).toBe(500);
    // The scene's organization: its ADMIN is told, its STAFF and CLIENT are not.
    await s.send('PUT', `/v1/organizations/${s.orgId}/balance/alerts/`, owner, {
      thresholds: [(await balanceOf(s.orgId)) - 1],
    });
    await charge(s.orgId, label());
    const told = (await alertsOf(s.orgId)).map((n) => n.recipient_id).sort();
    expect(told).toEqual([owner.id, s.people.ADMIN.id].sort());
    await s.send('PUT', `/v1/organizations/${s.orgId}/balance/alerts/`, owner, { thresholds: [] });
  });

  // Last: it moves the clock on a month, past the scene's tokens (a new one is signed in).
  it('next month starts from nothing, and a refund of last month’s charge leaves it alone', async () => {
    const orgId = await fundedOrganization(10_000);
    const capUrl = `/v1/organizations/${orgId}/balance/spend-cap/`;
    await s.send('PUT', capUrl, s.people.OWNER, { monthly_limit: 50 });
    const earlier = (await charge(orgId, label())).json().entry.id;
    await charge(orgId, label());
    expect((await charge(orgId, label())).statusCode).toBe(402);
    const now = t.clock.now();
    t.clock.set(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 0, 0, 1)));
    const login = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/app/login/',
      payload: { email: s.people.OWNER.email, password: FACTORY_PASSWORD },
      remoteAddress: '10.99.0.1',
    });
    const owner = { ...s.people.OWNER, token: login.json().token as string };
    expect((await s.send('GET', capUrl, owner)).json()).toMatchObject({
      spent_this_period: 0,
      period_start: new Date(
        Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1),
      ).toISOString(),
    });
    await s.send('POST', `/v1/organizations/${orgId}/balance/history/${earlier}/refund/`, owner);
    expect((await s.send('GET', capUrl, owner)).json().spent_this_period).toBe(0);
    expect((await charge(orgId, label(), owner)).statusCode).toBe(201);
    expect((await charge(orgId, label(), owner)).statusCode).toBe(201);
    expect((await charge(orgId, label(), owner)).statusCode).toBe(402);
    expect(await ledgerSum(orgId)).toBe(await balanceOf(orgId));
  });
});
