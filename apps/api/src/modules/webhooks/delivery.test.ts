import { webhookDeliveryPageSchema, type WebhookDelivery } from '@portolan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { observeStatements } from '../../../test/support/statements.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';
import { webhookAttempts, webhookEndpoints } from '../../db/schema/index.ts';
import { addEndpoint, emit, startReceiver, verifiedWith, type Receiver } from './test-scene.ts';
import { webhookWorker, type WebhookWorker } from './worker.ts';

/**
 * Issue 21 item 2: deliveries to a local receiver, signed per the Standard Webhooks spec (checked
 * with the standardwebhooks package), retried on failure with the same webhook-id and the same
 * bytes, recorded attempt by attempt; the retry and test routes; a rotated secret; per-subject
 * order. Time moves by the app's clock; the worker is drained by hand.
 */
describe('webhook deliveries', () => {
  let t: TestApp;
  let s: TenantScene;
  let receiver: Receiver;
  let worker: WebhookWorker;
  let start: Date;

  beforeAll(async () => {
    t = await createTestApp({
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '5s,1m,1h',
    });
    s = await createTenantScene(t);
    receiver = await startReceiver();
    worker = webhookWorker(t.ctx);
    start = t.clock.now();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });
  // Each test with endpoints of its own (the last test's, and their deliveries, go), from the
  // same time: the sessions' tokens (12 hours) stay valid.
  beforeEach(async () => {
    t.clock.set(start);
    await t.ctx.db.delete(webhookEndpoints);
    receiver.received.length = 0;
    receiver.answer(() => 200);
  });

  const deliveries = async (endpointId: string, query = '') => {
    const res = await s.send(
      'GET',
      `/v1/organizations/${s.orgId}/webhooks/${endpointId}/deliveries/${query}`,
      s.people.ADMIN,
    );
    expect(res.statusCode).toBe(200);
    return webhookDeliveryPageSchema.parse(res.json());
  };
  const retry = (deliveryId: string) =>
    s.send(
      'POST',
      `/v1/organizations/${s.orgId}/webhooks/deliveries/${deliveryId}/retry/`,
      s.people.OWNER,
    );

  it('signs each delivery so an independent implementation verifies it', async () => {
    const endpoint = await addEndpoint(s, receiver.url);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const eventId = await emit(t, s.orgId, 'member.added', 'member:sign', { user_id: 'sign' });
    expect(await worker.drain()).toBe(1);

    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request!.id).toBe(eventId);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['user-agent']).toMatch(/^Portolan-Webhooks\//);
    expect(request!.timestamp).toBe(Math.floor(t.clock.now().getTime() / 1000));
    expect(verifiedWith(endpoint.secret, request!)).toEqual({
      type: 'member.added',
      timestamp: expect.any(String),
      data: { user_id: 'sign' },
    });
    // A signature of another secret is no signature.
    expect(() =>
      verifiedWith(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, request!),
    ).toThrow();
  });

  it('retries a failure with the same id and body, then delivers once', async () => {
    const endpoint = await addEndpoint(s, receiver.url);
    let calls = 0;
    receiver.answer(() => (++calls <= 2 ? 500 : 204));
    const eventId = await emit(t, s.orgId, 'member.added', 'member:retry', { n: 1 });

    expect(await worker.drain()).toBe(1);
    // Not due again before the schedule's first wait (5 s).
    t.clock.advance(4_000);
    expect(await worker.drain()).toBe(0);
    t.clock.advance(1_000);
    expect(await worker.drain()).toBe(1);
    t.clock.advance(59_000);
    expect(await worker.drain()).toBe(0);
    t.clock.advance(1_000);
    expect(await worker.drain()).toBe(1);
    t.clock.advance(3_600_000);
    expect(await worker.drain()).toBe(0);

    const got = receiver.received;
    expect(got.map((r) => r.id)).toEqual([eventId, eventId, eventId]);
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    expect(new Set(got.map((r) => r.timestamp)).size).toBe(3);
    for (const request of got) verifiedWith(endpoint.secret, request);

    const [delivery] = (await deliveries(endpoint.id)).results;
    expect(delivery).toMatchObject({
      event_id: eventId,
      event_type: 'member.added',
      status: 'succeeded',
      attempt_count: 3,
      next_attempt_at: null,
    });
    expect(delivery!.attempts.map((a) => [a.status_code, a.response_excerpt, a.error])).toEqual([
      [500, 'receiver says 500', null],
      [500, 'receiver says 500', null],
      [204, '', null],
    ]);
    expect(delivery!.attempts.every((a) => a.duration_ms >= 0)).toBe(true);
  });

  it('fails after the last retry; the retry route makes it due again with its attempts kept', async () => {
    const endpoint = await addEndpoint(s, receiver.url);
    receiver.answer(() => 503);
    await emit(t, s.orgId, 'member.added', 'member:fail');
    for (const wait of [0, 5_000, 60_000, 3_600_000]) {
      t.clock.advance(wait);
      expect(await worker.drain()).toBe(1);
    }
    t.clock.advance(7_200_000);
    expect(await worker.drain()).toBe(0);
    let [delivery] = (await deliveries(endpoint.id)).results;
    expect(delivery).toMatchObject({ status: 'failed', attempt_count: 4, next_attempt_at: null });

    const again = await retry(delivery!.id);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toMatchObject({
      id: delivery!.id,
      status: 'pending',
      attempt_count: 4,
      next_attempt_at: t.clock.now().toISOString(),
    });
    await worker.drain();
    // One more failure past the schedule fails it again at once.
    [delivery] = (await deliveries(endpoint.id)).results;
    expect(delivery).toMatchObject({ status: 'failed', attempt_count: 5 });

    receiver.answer(() => 200);
    expect((await retry(delivery!.id)).statusCode).toBe(202);
    await worker.drain();
    [delivery] = (await deliveries(endpoint.id)).results;
    expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 6 });
    expect(delivery!.attempts.map((a) => [a.attempt, a.status_code])).toEqual([
      [1, 503],
      [2, 503],
      [3, 503],
      [4, 503],
      [5, 503],
      [6, 200],
    ]);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
  });

  it('follows no redirect: a 3xx is a failed attempt', async () => {
    const endpoint = await addEndpoint(s, receiver.url);
    receiver.answer(() => 307);
    await emit(t, s.orgId, 'member.added', 'member:redirect');
    await worker.drain();
    expect(receiver.received).toHaveLength(1);
    const [delivery] = (await deliveries(endpoint.id)).results;
    expect(delivery).toMatchObject({ status: 'pending', attempt_count: 1 });
    expect(delivery!.attempts.map((a) => a.status_code)).toEqual([307]);
  });

  it('sends a test event to the one endpoint asked, recorded in its log', async () => {
    const endpoint = await addEndpoint(s, receiver.url, { events: ['workspace.created'] });
    const other = await addEndpoint(s, `${receiver.url}/other`, { events: ['workspace.created'] });
    const res = await s.send(
      'POST',
      `/v1/organizations/${s.orgId}/webhooks/${endpoint.id}/test/`,
      s.people.ADMIN,
    );
    expect(res.statusCode).toBe(202);
    const { event_id, delivery_id } = res.json() as { event_id: string; delivery_id: string };
    await worker.drain();

    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers.host).toBe(`127.0.0.1:${receiver.port}`);
    expect(receiver.received[0]!.id).toBe(event_id);
    expect(verifiedWith(endpoint.secret, receiver.received[0]!)).toMatchObject({
      type: 'webhook.test',
      data: { endpoint_id: endpoint.id },
    });
    const [delivery] = (await deliveries(endpoint.id)).results;
    expect(delivery).toMatchObject({
      id: delivery_id,
      event_type: 'webhook.test',
      status: 'succeeded',
    });
    expect((await deliveries(other.id)).count).toBe(0);
  });

  it('signs with the previous secret too for a day after a rotation', async () => {
    const endpoint = await addEndpoint(s, receiver.url);
    const rotated = await s.send(
      'POST',
      `/v1/organizations/${s.orgId}/webhooks/${endpoint.id}/rotate-secret/`,
      s.people.OWNER,
    );
    expect(rotated.statusCode).toBe(200);
    const { secret } = rotated.json() as { secret: string };
    expect(secret).not.toBe(endpoint.secret);
    const revealed = await s.send(
      'GET',
      `/v1/organizations/${s.orgId}/webhooks/${endpoint.id}/secret/`,
      s.people.ADMIN,
    );
    expect(revealed.json()).toEqual({ secret });

    await emit(t, s.orgId, 'member.added', 'member:rotate');
    await worker.drain();
    const [both] = receiver.received;
    expect(both!.signatures).toHaveLength(2);
    verifiedWith(secret, both!);
    verifiedWith(endpoint.secret, both!);

    t.clock.advance(24 * 3_600_000 + 1_000);
    await emit(t, s.orgId, 'member.added', 'member:rotate');
    await worker.drain();
    const later = receiver.received[1]!;
    expect(later.signatures).toHaveLength(1);
    verifiedWith(secret, later);
    expect(() => verifiedWith(endpoint.secret, later)).toThrow();
  });

  it('keeps the order of one subject: a later event waits for the earlier one’s success', async () => {
    const endpoint = await addEndpoint(s, receiver.url);
    const first = await emit(t, s.orgId, 'member.added', 'member:ordered', { step: 1 });
    const second = await emit(t, s.orgId, 'member.added', 'member:ordered', { step: 2 });
    const elsewhere = await emit(t, s.orgId, 'member.added', 'member:other', { step: 1 });
    receiver.answer((r) => (r.id === first && receiver.countsById().get(first) === 1 ? 500 : 200));

    await worker.drain();
    expect(receiver.received.map((r) => r.id).sort()).toEqual([first, elsewhere].sort());
    t.clock.advance(5_000);
    await worker.drain();
    expect(receiver.received.map((r) => r.id).slice(2)).toEqual([first, second]);
    const page = await deliveries(endpoint.id);
    expect(page.results.map((d) => d.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  });

  it('lists deliveries newest first, a page at a time, with their attempts', async () => {
    const endpoint = await addEndpoint(s, receiver.url);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await emit(t, s.orgId, 'member.added', `member:page${i}`));
      t.clock.advance(1_000);
    }
    await worker.drain();
    const first = await deliveries(endpoint.id, '?limit=2');
    expect(first).toMatchObject({ count: 5, next: 2, previous: null });
    expect(first.results.map((d: WebhookDelivery) => d.event_id)).toEqual([ids[4], ids[3]]);
    const last = await deliveries(endpoint.id, '?limit=2&page=3');
    expect(last.results.map((d) => d.event_id)).toEqual([ids[0]]);
    expect(last.results[0]!.attempts).toHaveLength(1);
    const recorded = await t.ctx.db
      .select()
      .from(webhookAttempts)
      .where(eq(webhookAttempts.delivery_id, last.results[0]!.id));
    expect(recorded).toHaveLength(1);

    // A page costs the same statements whatever its size: the attempts come in one query.
    const log = observeStatements(t.ctx.database);
    try {
      await deliveries(endpoint.id, '?limit=1');
      const one = log.statements.length;
      log.reset();
      await deliveries(endpoint.id, '?limit=5');
      expect(log.statements.length).toBe(one);
    } finally {
      log.restore();
    }
  });
});
