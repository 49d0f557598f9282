// engine-parity: two instances claim deliveries with FOR UPDATE SKIP LOCKED and leases (locking)
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  startAnotherInstance,
  type AnotherInstance,
} from '../../../test/support/another-instance.ts';
import { testEngine } from '../../../test/support/database.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.ts';
import { startJob } from '../../lib/jobs.ts';
import { recordEvent } from '../events/index.ts';
import { addEndpoint, emit, startReceiver, verifiedWith, type Receiver } from './test-scene.ts';
import { WEBHOOK_LEASE_MS, webhookWorker, type WebhookWorker } from './worker.ts';

const FLAGS = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_SCHEDULE: '5s,1m' };

/**
 * Issue 21 item 2 across instances: two instances on one database, both delivering, make each
 * attempt once (counted at the receiver); an instance that claimed a delivery and died loses no
 * event (its lease runs out, the other instance delivers it). Runs on both engines.
 */
describe('webhook deliveries of two instances', () => {
  let a: TestApp;
  let b: AnotherInstance;
  let s: TenantScene;
  let receiver: Receiver;
  let workerA: WebhookWorker;
  let workerB: WebhookWorker;
  let endpoint: { id: string; secret: string };

  beforeAll(async () => {
    a = await createTestApp(FLAGS);
    b = await startAnotherInstance(a, FLAGS);
    s = await createTenantScene(a);
    receiver = await startReceiver();
    workerA = webhookWorker(a.ctx);
    workerB = webhookWorker(b.app.ctx);
    endpoint = await addEndpoint(s, receiver.url, { events: ['member.added', 'module.enabled'] });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await receiver?.close();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.answer(() => 200);
  });

  const attemptsOf = async (eventIds: string[]) =>
    a.ctx.db
      .select({ attempt: webhookAttempts.attempt, status: webhookAttempts.status_code })
      .from(webhookAttempts)
      .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.delivery_id))
      .where(inArray(webhookDeliveries.event_id, eventIds));

  it('makes each attempt of 40 events once between the two, retries included', async () => {
    // Every event's first attempt fails: its retry must be made once too.
    receiver.answer((r) => (receiver.countsById().get(r.id) === 1 ? 500 : 200));
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      // Twenty subjects of two events each: the second of a subject waits for the first.
      ids.push(await emit(a, s.orgId, 'member.added', `member:${i % 20}`, { i }));
    }
    const made = { a: 0, b: 0 };
    const drains = async () => {
      const [byA, byB] = await Promise.all([workerA.drain(), workerB.drain()]);
      made.a += byA;
      made.b += byB;
      return byA + byB;
    };
    expect(await drains()).toBe(20);
    a.clock.advance(5_000);
    expect(await drains()).toBe(40);
    a.clock.advance(5_000);
    expect(await drains()).toBe(20);
    a.clock.advance(3_600_000);
    expect(await drains()).toBe(0);

    expect(receiver.received).toHaveLength(80);
    expect([...receiver.countsById().values()]).toEqual(ids.map(() => 2));
    for (const request of receiver.received.slice(0, 5)) verifiedWith(endpoint.secret, request);
    const attempts = await attemptsOf(ids);
    expect(attempts).toHaveLength(80);
    const delivered = await a.ctx.db
      .select({ status: webhookDeliveries.status, attempts: webhookDeliveries.attempts })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.event_id, ids));
    expect(delivered).toEqual(ids.map(() => ({ status: 'succeeded', attempts: 2 })));
    // On PostgreSQL both took part (PGlite runs one statement at a time: one may take all).
    if (testEngine === 'postgres') expect(made.a > 0 && made.b > 0).toBe(true);
  });

  it('wakes both running workers on the NOTIFY of new deliveries, each event sent once', async () => {
    const jobs = [startJob(workerA.job, a.app.log), startJob(workerB.job, b.app.log)];
    try {
      const ids: string[] = [];
      // Recorded in one transaction, as a change records its events; nobody kicks the workers.
      await a.ctx.db.transaction(async (tx) => {
        for (let i = 0; i < 30; i++) {
          ids.push(
            await recordEvent(tx, {
              organizationId: s.orgId,
              type: 'module.enabled',
              subject: `workspace:${i}`,
              data: { i },
              at: a.clock.now(),
            }),
          );
        }
      });
      await vi.waitFor(() => expect(receiver.received.length).toBeGreaterThanOrEqual(30), {
        timeout: 10_000,
        interval: 50,
      });
      // A duplicate, if an attempt were made twice, would arrive meanwhile.
      await Promise.all([workerA.drain(), workerB.drain()]);
      expect(receiver.received).toHaveLength(30);
      expect([...receiver.countsById().keys()].sort()).toEqual([...ids].sort());
      expect(await attemptsOf(ids)).toHaveLength(30);
    } finally {
      await Promise.all(jobs.map((job) => job.stop()));
    }
  });

  it('loses no event when an instance dies holding a claim: the lease runs out', async () => {
    const eventId = await emit(a, s.orgId, 'member.added', 'member:dies', { dies: true });
    // Instance A claims it and dies before sending (its claim is never finished).
    const [claimed] = await workerA.claim();
    expect(claimed?.event.id).toBe(eventId);
    // Within the lease nobody else takes it.
    a.clock.advance(WEBHOOK_LEASE_MS - 1_000);
    expect(await workerB.drain()).toBe(0);
    expect(receiver.received).toHaveLength(0);
    // Past it, instance B delivers it.
    a.clock.advance(2_000);
    expect(await workerB.drain()).toBe(1);
    expect(receiver.received.map((r) => r.id)).toEqual([eventId]);
    expect(await workerA.drain()).toBe(0);
    const [delivery] = await a.ctx.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.event_id, eventId));
    // The lost attempt counts (it may have reached the receiver), and leaves a gap in the log.
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2, claimed_until: null });
    expect(await attemptsOf([eventId])).toEqual([{ attempt: 2, status: 200 }]);
    const [row] = await a.ctx.db
      .select({ failing_since: webhookEndpoints.failing_since })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint.id));
    expect(row?.failing_since).toBeNull();
  });
});
