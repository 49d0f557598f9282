// engine-parity: twenty or more requests at once
import { ErrorCode } from '@portolan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  recordCharges,
  replaceSubscription,
  type ChargeRecorder,
} from '../../../test/support/charge-recorder.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';
import { subscriptions } from '../../db/schema/index.ts';
import { createOrganization } from '../../seed/factories.ts';
import { runRenewals } from './renewal.ts';

/**
 * Unsubscribing (GET …/unsubscription/): only the subscriber, once, even when two race; the
 * subscription then ends at its period's end instead of renewing. Runs on both engines.
 */
describe('unsubscription', () => {
  let t: TestApp;
  let s: TenantScene;
  let gateway: ChargeRecorder;

  beforeAll(async () => {
    t = await createTestApp();
    gateway = recordCharges(t);
    s = await createTenantScene(t);
  });
  afterAll(() => t.close());

  const url = (orgId: string) => `/v1/organizations/${orgId}/unsubscription/`;
  const read = async (id: string) =>
    (await t.ctx.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;

  /** The scene's organization on STANDARD, subscribed by its OWNER (or ADMIN). */
  const standard = (subscriberId: string, status: 'ACTIVE' | 'EXPIRED' = 'ACTIVE') =>
    replaceSubscription(t, {
      organizationId: s.orgId,
      plan: 'STANDARD',
      status,
      isActive: status === 'ACTIVE',
      periodStart: t.clock.now(),
      expiresIn: new Date(t.clock.now().getTime() + 30 * 86_400_000),
      subscriberId,
    });

  it('STAFF and CLIENT 403; an outsider 404; an ADMIN who did not subscribe 403 NOT_SUBSCRIBER', async () => {
    const sub = await standard(s.people.OWNER.id);
    for (const role of ['STAFF', 'CLIENT'] as const) {
      const res = await s.send('GET', url(s.orgId), s.people[role]);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe(ErrorCode.PERMISSION_DENIED);
    }
    expect((await s.send('GET', url(s.orgId), s.people.STRANGER)).statusCode).toBe(404);
    expect((await s.send('GET', url(s.orgId), 'anonymous')).statusCode).toBe(401);
    const admin = await s.send('GET', url(s.orgId), s.people.ADMIN);
    expect(admin.statusCode).toBe(403);
    expect(admin.json().code).toBe(ErrorCode.NOT_SUBSCRIBER);
    expect((await read(sub.id)).cancel_at_period_end).toBe(false);
  });

  it('the subscriber cancels at the period end; a second time is 409 ALREADY_CANCELED', async () => {
    const sub = await standard(s.people.ADMIN.id);
    const res = await s.send('GET', url(s.orgId), s.people.ADMIN);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: sub.id,
      status: 'ACTIVE',
      is_active: true,
      cancel_at_period_end: true,
      expired_in: sub.expired_in!.toISOString(),
    });
    expect((await read(sub.id)).canceled_at?.toISOString()).toBe(t.clock.now().toISOString());
    const again = await s.send('GET', url(s.orgId), s.people.ADMIN);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe(ErrorCode.ALREADY_CANCELED);

    // At the period's end the renewal job ends it, charging nothing.
    await runRenewals(t.ctx, sub.expired_in!);
    expect(await read(sub.id)).toMatchObject({ status: 'CANCELED', is_active: false });
    expect(gateway.callsFor(sub.id)).toHaveLength(0);
    const after = await s.send('GET', url(s.orgId), s.people.ADMIN);
    expect(after.statusCode).toBe(409);
    expect(after.json().code).toBe(ErrorCode.NOT_SUBSCRIBED);
  });

  it('409 NOT_SUBSCRIBED without a subscription or with an ended one', async () => {
    await standard(s.people.OWNER.id, 'EXPIRED');
    const ended = await s.send('GET', url(s.orgId), s.people.OWNER);
    expect(ended.statusCode).toBe(409);
    expect(ended.json().code).toBe(ErrorCode.NOT_SUBSCRIBED);

    const owner = await s.person();
    const org = await createOrganization(t.ctx.db, { ownerId: owner.id, plan: null });
    const none = await s.send('GET', url(org.id), owner);
    expect(none.statusCode).toBe(409);
    expect(none.json().code).toBe(ErrorCode.NOT_SUBSCRIBED);
  });

  it('fifty at once: one 200, 49 × 409', async () => {
    const sub = await standard(s.people.OWNER.id);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => s.send('GET', url(s.orgId), s.people.OWNER)),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, ...Array(49).fill(409)]);
    expect(answers.find((r) => r.statusCode === 409)!.json().code).toBe(ErrorCode.ALREADY_CANCELED);
    expect((await read(sub.id)).cancel_at_period_end).toBe(true);
  });
});
