import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  addCard,
  recordCharges,
  replaceSubscription,
  type ChargeRecorder,
} from '../../../test/support/charge-recorder.ts';
import { invoices, subscriptions } from '../../db/schema/index.ts';
import { days } from '../../lib/clock.ts';
import { createOrganization, createUser } from '../../seed/factories.ts';
import { addPeriod, runRenewals, startRenewalJob } from './renewal.ts';

/**
 * The renewal job: a period's end charges the next one; failures retry at +1, +3 and +7 days and
 * then end the subscription; an unsubscription ends it at the period's end. Runs on both engines.
 */
describe('renewals', () => {
  let t: TestApp;
  let gateway: ChargeRecorder;

  beforeAll(async () => {
    t = await createTestApp();
    gateway = recordCharges(t);
  });
  afterAll(() => t.close());

  const periodEnd = new Date('2031-03-31T12:00:00.000Z');
  const periodStart = new Date('2031-02-28T12:00:00.000Z');

  async function subscribed(fields: { card?: boolean; status?: 'TRIALING' | 'ACTIVE' } = {}) {
    const owner = await createUser(t.ctx.db);
    const org = await createOrganization(t.ctx.db, { ownerId: owner.id, plan: null });
    const card = fields.card === false ? null : await addCard(t, org.id);
    return replaceSubscription(t, {
      organizationId: org.id,
      plan: 'STANDARD',
      status: fields.status ?? 'ACTIVE',
      periodStart,
      expiresIn: periodEnd,
      subscriberId: owner.id,
      defaultPaymentMethodId: card?.id ?? null,
      limits: { max_workspaces: 1 },
    });
  }

  const read = async (id: string) =>
    (await t.ctx.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
  const invoicesOf = (id: string) =>
    t.ctx.db.select().from(invoices).where(eq(invoices.subscription_id, id));
  const at = (offsetMs: number) => new Date(periodEnd.getTime() + offsetMs);

  it('adds a calendar month, clamping the day', () => {
    expect(addPeriod(new Date('2031-01-31T00:00:00Z'), 'month').toISOString()).toBe(
      '2031-02-28T00:00:00.000Z',
    );
    expect(addPeriod(new Date('2032-02-29T00:00:00Z'), 'year').toISOString()).toBe(
      '2033-02-28T00:00:00.000Z',
    );
  });

  it('does nothing before the period ends', async () => {
    const sub = await subscribed();
    await runRenewals(t.ctx, at(-1));
    expect(await read(sub.id)).toMatchObject({ status: 'ACTIVE', retry_count: 0 });
    expect(gateway.callsFor(sub.id)).toHaveLength(0);
  });

  it('charges the card, extends the period by a month and records a paid invoice', async () => {
    const sub = await subscribed();
    await t.ctx.db.update(subscriptions).set({ credit: 900 }).where(eq(subscriptions.id, sub.id));
    await runRenewals(t.ctx, at(0));
    const after = await read(sub.id);
    expect(after).toMatchObject({ status: 'ACTIVE', is_active: true, retry_count: 0, credit: 0 });
    expect(after.current_period_start?.toISOString()).toBe(periodEnd.toISOString());
    expect(after.expired_in?.toISOString()).toBe('2031-04-30T12:00:00.000Z');
    // The plan's limits come back with a payment.
    expect(after.limits.max_workspaces).toBe(3);
    const charges = gateway.callsFor(sub.id);
    expect(charges).toHaveLength(1);
    expect(charges[0]!.amount).toBe(2900 - 900);
    const [invoice] = await invoicesOf(sub.id);
    expect(invoice).toMatchObject({ kind: 'RENEWAL', status: 'PAID', amount: 2000 });
    expect(invoice!.gateway_ref).toMatch(/^ch_test_/);
    expect(invoice!.lines).toEqual([
      { description: 'Standard plan (03/31/2031 – 04/30/2031)', amount: 2900 },
      { description: 'Applied balance', amount: -900 },
    ]);
    // Handled once: a second run at the same time charges nothing more.
    await runRenewals(t.ctx, at(0));
    expect(gateway.callsFor(sub.id)).toHaveLength(1);
  });

  it('retries a failed renewal at +1, +3 and +7 days, then expires the subscription', async () => {
    const sub = await subscribed();
    gateway.failWith = 'declined';
    try {
      await runRenewals(t.ctx, at(0));
      let row = await read(sub.id);
      expect(row).toMatchObject({ status: 'PAST_DUE', is_active: true, retry_count: 1 });
      expect(row.next_retry_at?.toISOString()).toBe(at(days(1)).toISOString());

      // Not yet due: nothing happens.
      await runRenewals(t.ctx, at(days(1) - 1));
      expect(gateway.callsFor(sub.id)).toHaveLength(1);

      await runRenewals(t.ctx, at(days(1)));
      row = await read(sub.id);
      expect(row).toMatchObject({ status: 'PAST_DUE', is_active: true, retry_count: 2 });
      expect(row.next_retry_at?.toISOString()).toBe(at(days(3)).toISOString());

      await runRenewals(t.ctx, at(days(3)));
      row = await read(sub.id);
      expect(row).toMatchObject({ status: 'PAST_DUE', is_active: true, retry_count: 3 });
      expect(row.next_retry_at?.toISOString()).toBe(at(days(7)).toISOString());

      await runRenewals(t.ctx, at(days(7)));
      row = await read(sub.id);
      expect(row).toMatchObject({ status: 'EXPIRED', is_active: false, next_retry_at: null });
      // The period never moved: retries charge the period that began at the old end.
      expect(row.expired_in?.toISOString()).toBe(periodEnd.toISOString());

      const charges = gateway.callsFor(sub.id);
      expect(charges).toHaveLength(4);
      // Each attempt has a key of its own, so the gateway never answers an old failure.
      expect(new Set(charges.map((c) => c.idempotencyKey)).size).toBe(4);
      const failed = await invoicesOf(sub.id);
      expect(failed).toHaveLength(4);
      expect(failed.every((i) => i.status === 'FAILED' && i.gateway_ref === null)).toBe(true);

      await runRenewals(t.ctx, at(days(30)));
      expect(gateway.callsFor(sub.id)).toHaveLength(4);
    } finally {
      gateway.failWith = null;
    }
  });

  it('a retry that succeeds starts the new period at the old end', async () => {
    const sub = await subscribed();
    gateway.failWith = 'insufficient_funds';
    await runRenewals(t.ctx, at(0));
    gateway.failWith = null;
    await runRenewals(t.ctx, at(days(1)));
    const row = await read(sub.id);
    expect(row).toMatchObject({ status: 'ACTIVE', retry_count: 0, next_retry_at: null });
    expect(row.current_period_start?.toISOString()).toBe(periodEnd.toISOString());
    expect(row.expired_in?.toISOString()).toBe('2031-04-30T12:00:00.000Z');
    const kinds = (await invoicesOf(sub.id)).map((i) => i.status).sort();
    expect(kinds).toEqual(['FAILED', 'PAID']);
  });

  it('ends an unsubscribed subscription at its period end without charging', async () => {
    const sub = await subscribed();
    await t.ctx.db
      .update(subscriptions)
      .set({ cancel_at_period_end: true, canceled_at: periodStart })
      .where(eq(subscriptions.id, sub.id));
    await runRenewals(t.ctx, at(-1));
    expect((await read(sub.id)).status).toBe('ACTIVE');
    await runRenewals(t.ctx, at(0));
    expect(await read(sub.id)).toMatchObject({ status: 'CANCELED', is_active: false });
    expect(gateway.callsFor(sub.id)).toHaveLength(0);
    expect(await invoicesOf(sub.id)).toHaveLength(0);
  });

  it('a trial without a card goes past due, then expires', async () => {
    const sub = await subscribed({ card: false, status: 'TRIALING' });
    await runRenewals(t.ctx, at(0));
    expect(await read(sub.id)).toMatchObject({
      status: 'PAST_DUE',
      is_active: true,
      retry_count: 1,
    });
    for (const d of [1, 3, 7]) await runRenewals(t.ctx, at(days(d)));
    expect(await read(sub.id)).toMatchObject({ status: 'EXPIRED', is_active: false });
    expect(gateway.callsFor(sub.id)).toHaveLength(0);
  });

  it('two runs in parallel charge each due subscription once', async () => {
    const subs = await Promise.all(Array.from({ length: 5 }, () => subscribed()));
    await Promise.all([runRenewals(t.ctx, at(0)), runRenewals(t.ctx, at(0))]);
    for (const sub of subs) {
      expect(gateway.callsFor(sub.id)).toHaveLength(1);
      expect(await read(sub.id)).toMatchObject({ status: 'ACTIVE' });
      expect((await read(sub.id)).expired_in?.toISOString()).toBe('2031-04-30T12:00:00.000Z');
      expect(await invoicesOf(sub.id)).toHaveLength(1);
    }
  });

  it('the job renews on its own at the clock’s time until stopped', async () => {
    const sub = await subscribed();
    t.clock.set(at(0));
    const job = startRenewalJob(t.ctx, { intervalMs: 20 });
    try {
      await vi.waitFor(
        async () => expect((await read(sub.id)).current_period_start).toEqual(periodEnd),
        {
          timeout: 10_000,
        },
      );
    } finally {
      await job.stop();
    }
    expect(gateway.callsFor(sub.id)).toHaveLength(1);
  });
});
