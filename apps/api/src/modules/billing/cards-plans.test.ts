import { ErrorCode } from '@portolan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';
import { paymentMethods, subscriptions } from '../../db/schema/index.ts';
import { addOrganizationMember, createOrganization } from '../../seed/factories.ts';
import { observeStatements } from '../../../test/support/statements.ts';
import { payWith } from './test-flow.ts';

/** Plans, the caller's subscriptions, and an organization's cards. */
describe('plans, subscriptions and cards', () => {
  let t: TestApp;
  let s: TenantScene;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
  });
  afterAll(() => t.close());

  it('GET /v1/plans/{type}/ and /v1/plans/service/config/{app}/ for anyone signed in', async () => {
    const one = await s.send('GET', '/v1/plans/STANDARD/', s.people.CLIENT);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({
      type: 'STANDARD',
      price: 2900,
      trial_days: 14,
      self_serve: true,
    });
    expect((await s.send('GET', '/v1/plans/GOLD/', s.people.CLIENT)).json().details[0].field).toBe(
      'type',
    );
    expect((await s.send('GET', '/v1/plans/STANDARD/', 'anonymous')).statusCode).toBe(401);
    // The specification writes this path without the trailing slash: both forms answer alike.
    const bare = await s.send('GET', '/v1/plans/STANDARD', s.people.CLIENT);
    expect(bare.statusCode).toBe(200);
    expect(bare.json()).toEqual(one.json());
    const list = await s.send('GET', '/v1/plans/service/config/transit/', s.people.STAFF);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ count: 4, next: null, previous: null });
    expect(list.json().results.map((p: { type: string }) => p.type)).toEqual([
      'STANDARD',
      'PROFESSIONAL',
      'BUSINESS',
      'CUSTOM',
    ]);
    const page2 = await s.send(
      'GET',
      '/v1/plans/service/config/transit/?page=2&limit=3',
      s.people.STAFF,
    );
    expect(page2.json()).toMatchObject({ count: 4, previous: 1, results: [{ type: 'CUSTOM' }] });
    expect((await s.send('GET', '/v1/plans/service/config/nope/', s.people.STAFF)).statusCode).toBe(
      400,
    );
    expect((await s.send('GET', '/v1/plans/service/config/transit/', 'anonymous')).statusCode).toBe(
      401,
    );
  });

  it('GET /v1/me/organizations/and/subscriptions/{app}/: every accepted membership, by name', async () => {
    const me = await s.person();
    const zed = await createOrganization(t.ctx.db, { ownerId: me.id, name: 'zed works' });
    const alpha = await createOrganization(t.ctx.db, {
      ownerId: s.people.OWNER.id,
      name: 'Alpha',
      plan: null,
    });
    await addOrganizationMember(t.ctx.db, {
      organizationId: alpha.id,
      userId: me.id,
      role: 'STAFF',
    });
    const pending = await createOrganization(t.ctx.db, {
      ownerId: s.people.OWNER.id,
      name: 'Beta',
    });
    await addOrganizationMember(t.ctx.db, {
      organizationId: pending.id,
      userId: me.id,
      role: 'ADMIN',
      status: 'PENDING',
    });
    const res = await s.send('GET', '/v1/me/organizations/and/subscriptions/transit/', me);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(2);
    expect(body.results[0]).toEqual({
      organization: { id: alpha.id, name: 'Alpha', role: { key: 'STAFF', name: 'Staff' } },
      subscription: null,
      limits: { max_workspaces: null, max_internal_users: null, max_external_users: null },
      usage: { clients: 0, internal_users: 2, external_users: 0 },
    });
    expect(body.results[1]).toMatchObject({
      organization: { id: zed.id, role: { key: 'OWNER' } },
      subscription: { status: 'ACTIVE', plan: { type: 'CUSTOM' }, is_active: true },
      limits: { max_workspaces: -1 },
      usage: { clients: 0, internal_users: 1, external_users: 0 },
    });
    const paged = await s.send(
      'GET',
      '/v1/me/organizations/and/subscriptions/transit/?limit=1&page=2',
      me,
    );
    expect(paged.json()).toMatchObject({
      count: 2,
      previous: 1,
      next: null,
      results: [{ organization: { id: zed.id } }],
    });
    const past = await s.send('GET', '/v1/me/organizations/and/subscriptions/transit/?page=9', me);
    expect(past.json()).toMatchObject({ count: 2, results: [] });
    expect(
      (await s.send('GET', '/v1/me/organizations/and/subscriptions/transit/?limit=0', me))
        .statusCode,
    ).toBe(400);
    expect(
      (await s.send('GET', '/v1/me/organizations/and/subscriptions/transit/', 'anonymous'))
        .statusCode,
    ).toBe(401);
  });

  it('lists subscriptions in a fixed number of statements whatever the page size', async () => {
    const me = await s.person();
    const url = '/v1/me/organizations/and/subscriptions/transit/';
    const log = observeStatements(t.ctx.database);
    const counts: number[] = [];
    try {
      for (const n of [1, 6]) {
        while ((await s.send('GET', url, me)).json().count < n)
          await createOrganization(t.ctx.db, { ownerId: me.id });
        log.reset();
        expect((await s.send('GET', url, me)).json().results).toHaveLength(n);
        counts.push(log.statements.length);
      }
    } finally {
      log.restore();
    }
    expect(counts[1]).toBe(counts[0]);
  });

  describe('cards', () => {
    let orgId: string;
    let first: string;
    let second: string;
    const path = (org = orgId) => `/v1/organizations/${org}/payment-methods/`;
    const modification = (org = orgId) => `${path(org)}modification/`;

    beforeAll(async () => {
      orgId = (await createOrganization(t.ctx.db, { ownerId: s.people.OWNER.id, plan: null })).id;
      for (const role of ['ADMIN', 'STAFF', 'CLIENT'] as const)
        await addOrganizationMember(t.ctx.db, {
          organizationId: orgId,
          userId: s.people[role].id,
          role,
        });
      await payWith(t, s.people.OWNER, orgId, '5555555555554444');
      const opened = await t.app.inject({
        method: 'POST',
        url: `${path()}checkout/`,
        headers: {
          authorization: `Bearer ${s.people.ADMIN.token}`,
          'idempotency-key': 'second-card',
        },
      });
      const { submitCard, cardForm } = await import('./test-flow.ts');
      await submitCard(t, opened.json().url, cardForm('378282246310005', { cvc: '1234' }));
      const rows = await t.ctx.db
        .select()
        .from(paymentMethods)
        .where(eq(paymentMethods.organization_id, orgId));
      first = rows.find((r) => r.brand === 'mastercard')!.id;
      second = rows.find((r) => r.brand === 'amex')!.id;
    });

    it('lists the cards with the default for OWNER and ADMIN; 403 STAFF, CLIENT; 404 stranger; 401', async () => {
      for (const who of [s.people.OWNER, s.people.ADMIN]) {
        const res = await s.send('GET', path(), who);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          default_payment_method: first,
          results: [
            {
              id: first,
              brand: 'mastercard',
              last4: '4444',
              exp_month: 12,
              exp_year: 2039,
              is_default: true,
            },
            {
              id: second,
              brand: 'amex',
              last4: '0005',
              exp_month: 12,
              exp_year: 2039,
              is_default: false,
            },
          ],
        });
      }
      expect((await s.send('GET', path(), s.people.STAFF)).statusCode).toBe(403);
      expect((await s.send('GET', path(), s.people.CLIENT)).statusCode).toBe(403);
      expect((await s.send('GET', path(), s.people.STRANGER)).statusCode).toBe(404);
      expect((await s.send('GET', path(), 'anonymous')).statusCode).toBe(401);
      for (const method of ['POST', 'DELETE'] as const) {
        const body = { payment_method_id: second };
        expect((await s.send(method, modification(), s.people.STAFF, body)).statusCode).toBe(403);
        expect((await s.send(method, modification(), s.people.STRANGER, body)).statusCode).toBe(
          404,
        );
        expect((await s.send(method, modification(), 'anonymous', body)).statusCode).toBe(401);
      }
      const anonymous = await t.app.inject({
        method: 'POST',
        url: `${path()}checkout/`,
        headers: { 'idempotency-key': 'k' },
      });
      expect(anonymous.statusCode).toBe(401);
      const staff = await s.send('POST', `${path()}checkout/`, s.people.STAFF);
      expect(staff.statusCode).toBe(403);
      const noKey = await s.send('POST', `${path()}checkout/`, s.people.OWNER);
      expect(noKey.statusCode).toBe(400);
      expect(noKey.json().details[0].field).toBe('Idempotency-Key');
    });

    it('refuses to remove the default card of a renewing subscription (409), then allows it', async () => {
      const refused = await s.send('DELETE', modification(), s.people.OWNER, {
        payment_method_id: first,
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().code).toBe(ErrorCode.DEFAULT_CARD_IN_USE);
      const chosen = await s.send('POST', modification(), s.people.ADMIN, {
        payment_method_id: second,
      });
      expect(chosen.statusCode).toBe(200);
      expect(chosen.json().default_payment_method).toBe(second);
      const removed = await s.send('DELETE', modification(), s.people.OWNER, {
        payment_method_id: first,
      });
      expect(removed.statusCode).toBe(200);
      expect(removed.json().results.map((c: { id: string }) => c.id)).toEqual([second]);
      const again = await s.send('DELETE', modification(), s.people.OWNER, {
        payment_method_id: first,
      });
      expect(again.statusCode).toBe(404);
      await t.ctx.db
        .update(subscriptions)
        .set({ cancel_at_period_end: true })
        .where(eq(subscriptions.organization_id, orgId));
      const last = await s.send('DELETE', modification(), s.people.OWNER, {
        payment_method_id: second,
      });
      expect(last.statusCode).toBe(200);
      expect(last.json()).toEqual({ default_payment_method: null, results: [] });
    });

    it('answers 400 for a bad id, 404 for another organization’s card, 409 without a subscription', async () => {
      const bad = await s.send('POST', modification(), s.people.OWNER, { payment_method_id: 'x' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0].field).toBe('payment_method_id');
      const [foreign] = await t.ctx.db
        .insert(paymentMethods)
        .values({
          organization_id: s.otherOrgId,
          gateway_ref: 'pm_sandbox_ok_abc',
          brand: 'visa',
          last4: '1111',
          exp_month: 1,
          exp_year: 2040,
        })
        .returning();
      for (const method of ['POST', 'DELETE'] as const) {
        const res = await s.send(method, modification(), s.people.OWNER, {
          payment_method_id: foreign!.id,
        });
        expect(res.statusCode).toBe(404);
      }
      const bare = (await createOrganization(t.ctx.db, { ownerId: s.people.OWNER.id, plan: null }))
        .id;
      const [card] = await t.ctx.db
        .insert(paymentMethods)
        .values({
          organization_id: bare,
          gateway_ref: 'pm_sandbox_ok_def',
          brand: 'visa',
          last4: '1111',
          exp_month: 1,
          exp_year: 2040,
        })
        .returning();
      const none = await s.send('POST', modification(bare), s.people.OWNER, {
        payment_method_id: card!.id,
      });
      expect(none.statusCode).toBe(409);
      expect(none.json().code).toBe(ErrorCode.NOT_SUBSCRIBED);
    });
  });
});
