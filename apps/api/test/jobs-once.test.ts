// engine-parity: branches on the engine; twenty or more requests at once
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { invoices, mailOutbox, subscriptions } from '../src/db/schema/index.ts';
import { startJob, type RunningJob } from '../src/lib/jobs.ts';
import { enqueueMail } from '../src/lib/mail/outbox.ts';
import { startRenewalJob } from '../src/modules/billing/renewal.ts';
import { createOrganization, createUser } from '../src/seed/factories.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { testEngine } from './support/database.ts';
import { addCard, recordCharges, replaceSubscription } from './support/charge-recorder.ts';

/**
 * Two instances on one database run their jobs at the same time, and each piece of work is done
 * once: every queued e-mail sent by one of the two woken outbox workers (each instance has its
 * own SMTP double, so who sent what is known), every due subscription renewed and charged by one
 * of the two renewal jobs (each with its own gateway double). Runs on both engines; on PostgreSQL
 * the workers claim on connections of their own, at once.
 */
describe('jobs of two instances on one database', () => {
  let a: TestApp;
  let b: TestApp;
  const outboxJobs: RunningJob[] = [];

  /** The instance's mail outbox job, started in a runner as a serving instance starts it. */
  async function startOutbox(t: TestApp) {
    outboxJobs.push(startJob(t.ctx.outbox.job, t.app.log));
    await t.ctx.outbox.listening(2_000);
  }

  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp({}, { database: a.ctx.database });
  });
  afterAll(async () => {
    await Promise.all(outboxJobs.map((job) => job.stop()));
    await b?.close();
    await a?.close();
  });

  it('sends each of 40 queued e-mails once, between the two workers its NOTIFY woke', async () => {
    await Promise.all([startOutbox(a), startOutbox(b)]);
    const addresses = Array.from({ length: 40 }, (_, i) => `once.${i}.${Date.now()}@example.com`);
    // Queued as a module queues (one transaction), and no worker kicked: only the NOTIFY wakes them.
    await a.ctx.db.transaction(async (tx) => {
      for (const to of addresses) {
        await enqueueMail(tx, a.clock, { to, subject: 'Once', text: 'Once', html: '<p>Once</p>' });
      }
    });
    const received = () => [...a.mailbox.messages, ...b.mailbox.messages];
    await vi.waitFor(() => expect(received().length).toBeGreaterThanOrEqual(40), {
      timeout: 10_000,
      interval: 50,
    });
    // Let a duplicate, if a row were claimed twice, arrive too.
    await Promise.all([a.ctx.outbox.drain(), b.ctx.outbox.drain()]);
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect(received()).toHaveLength(40);
    expect(
      received()
        .flatMap((m) => m.to)
        .sort(),
    ).toEqual([...addresses].sort());
    // Both instances took part.
    expect(a.mailbox.messages.length).toBeGreaterThan(0);
    expect(b.mailbox.messages.length).toBeGreaterThan(0);
    const rows = await a.ctx.db
      .select()
      .from(mailOutbox)
      .where(inArray(mailOutbox.to_address, addresses));
    expect(rows.map((r) => [r.status, r.attempts])).toEqual(rows.map(() => ['sent', 1]));
  });

  it('renews and charges each of 20 due subscriptions once, between the two renewal jobs', async () => {
    const periodStart = new Date('2031-02-28T12:00:00.000Z');
    const periodEnd = new Date('2031-03-31T12:00:00.000Z');
    const subs = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const owner = await createUser(a.ctx.db, { password: null });
        const org = await createOrganization(a.ctx.db, { ownerId: owner.id, plan: null });
        const card = await addCard(a, org.id);
        return replaceSubscription(a, {
          organizationId: org.id,
          plan: 'STANDARD',
          status: 'ACTIVE',
          periodStart,
          expiresIn: periodEnd,
          subscriberId: owner.id,
          defaultPaymentMethodId: card.id,
        });
      }),
    );
    const gateways = [recordCharges(a), recordCharges(b)];
    a.clock.set(periodEnd);
    b.clock.set(periodEnd);
    const jobs = [
      startRenewalJob(a.ctx, { intervalMs: 10 }),
      startRenewalJob(b.ctx, { intervalMs: 10 }),
    ];
    const ids = subs.map((s) => s.id);
    const renewed = async () =>
      (await a.ctx.db.select().from(subscriptions).where(inArray(subscriptions.id, ids))).filter(
        (s) => s.current_period_start?.getTime() === periodEnd.getTime(),
      );
    try {
      await vi.waitFor(async () => expect(await renewed()).toHaveLength(20), {
        timeout: 10_000,
        interval: 50,
      });
    } finally {
      await Promise.all(jobs.map((job) => job.stop()));
    }

    for (const id of ids) {
      const charges = gateways.flatMap((g) => g.callsFor(id));
      expect(charges).toHaveLength(1);
      const billed = await a.ctx.db.select().from(invoices).where(eq(invoices.subscription_id, id));
      expect(billed.map((i) => [i.kind, i.status])).toEqual([['RENEWAL', 'PAID']]);
    }
    // On PostgreSQL both jobs took part (PGlite runs one transaction at a time, and may give
    // every claim to the job that asked first).
    if (testEngine === 'postgres') expect(gateways.every((g) => g.calls.length > 0)).toBe(true);
  });
});
