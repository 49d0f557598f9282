import { webhookDeliveryPageSchema, webhookEndpointSchema } from '@portolan/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  startAnotherInstance,
  type AnotherInstance,
} from '../../../test/support/another-instance.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';
import { loadConfig } from '../../config.ts';
import { webhookEndpoints } from '../../db/schema/index.ts';
import { days, hours } from '../../lib/clock.ts';
import { FACTORY_PASSWORD } from '../../seed/factories.ts';
import { addEndpoint, emit, startReceiver, type Receiver } from './test-scene.ts';
import { isForbiddenAddress } from './targets.ts';
import { webhookWorker } from './worker.ts';

/**
 * Issue 21 item 2, what keeps webhooks safe: private, loopback and link-local targets refused at
 * creation when written out and at delivery time after resolution (unless
 * WEBHOOK_ALLOW_PRIVATE_TARGETS); an endpoint failing for 5 days switched off and its
 * organization's OWNERs e-mailed; the retry schedule's configuration. Instance A allows private
 * targets (it reaches the local receiver), instance B on the same database does not.
 */
describe('webhook safety', () => {
  let a: TestApp;
  let b: AnotherInstance;
  let s: TenantScene;
  let receiver: Receiver;

  beforeAll(async () => {
    const flags = { WEBHOOK_RETRY_SCHEDULE: '5s,1h,1d,1d,1d,1d,1d,1d,1d' };
    a = await createTestApp({ ...flags, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    b = await startAnotherInstance(a, flags);
    s = await createTenantScene(a);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await receiver?.close();
  });

  const viaB = (method: 'POST' | 'PATCH', url: string, payload: object) =>
    b.app.inject({ method, url, headers: bearer(s.people.OWNER.token), payload });
  const endpointCount = async () =>
    (
      await a.ctx.db
        .select({ n: count() })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.organization_id, s.orgId))
    )[0]!.n;

  it('classifies addresses: private, loopback, link-local, unique-local, multicast, unspecified', () => {
    const forbidden = [
      '127.0.0.1',
      '127.255.0.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'fe80::1%eth0',
      'fd00::1',
      'fc00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:a9fe:a9fe',
      '::127.0.0.1',
      '64:ff9b::10.0.0.1',
      'not an address',
    ];
    const allowed = [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '93.184.216.34',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::8.8.8.8',
    ];
    expect(forbidden.filter((ip) => !isForbiddenAddress(ip))).toEqual([]);
    expect(allowed.filter((ip) => isForbiddenAddress(ip))).toEqual([]);
  });

  it('refuses an endpoint on a private address written in its URL: 400 naming url, nothing written', async () => {
    const before = await endpointCount();
    for (const url of [
      'http://127.0.0.1:8080/hooks',
      'https://10.0.0.5/hooks',
      'http://192.168.1.20/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]:3000/',
      'http://[fd12::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://0.0.0.0/',
      'http://0x7f.1/',
      'http://2130706433/',
    ]) {
      const res = await viaB('POST', `/v1/organizations/${s.orgId}/webhooks/`, {
        url,
        events: ['member.added'],
      });
      expect([url, res.statusCode]).toEqual([url, 400]);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'url' }] });
    }
    expect(await endpointCount()).toBe(before);
    // A change to such a URL alike; with WEBHOOK_ALLOW_PRIVATE_TARGETS (instance A) it is taken.
    const endpoint = await addEndpoint(s, 'http://10.0.0.5/hooks');
    const changed = await viaB('PATCH', `/v1/organizations/${s.orgId}/webhooks/${endpoint.id}/`, {
      url: 'http://127.0.0.1/',
    });
    expect(changed.statusCode).toBe(400);
    expect(changed.json()).toMatchObject({ details: [{ field: 'url' }] });
    await a.ctx.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
  });

  it('refuses a private target at delivery time, after resolution: a failed attempt, nothing sent', async () => {
    // Made where private targets are allowed (A), or named (B takes a name at creation).
    const literal = await addEndpoint(s, receiver.url);
    const named = await viaB('POST', `/v1/organizations/${s.orgId}/webhooks/`, {
      url: `http://localhost:${receiver.port}/hooks`,
      events: ['member.added'],
    });
    expect(named.statusCode).toBe(201);
    await emit(a, s.orgId, 'member.added', 'member:ssrf');

    expect(await webhookWorker(b.app.ctx).drain()).toBe(2);
    expect(receiver.received).toHaveLength(0);
    for (const [id, reason] of [
      [literal.id, /^Refused: 127\.0\.0\.1 is a private, loopback or link-local address/],
      [named.json().id as string, /^Refused: localhost resolves to (127\.0\.0\.1|::1), a private/],
    ] as const) {
      const res = await s.send(
        'GET',
        `/v1/organizations/${s.orgId}/webhooks/${id}/deliveries/`,
        s.people.OWNER,
      );
      const [delivery] = webhookDeliveryPageSchema.parse(res.json()).results;
      expect(delivery).toMatchObject({ status: 'pending', attempt_count: 1 });
      expect(delivery!.attempts).toEqual([
        expect.objectContaining({
          status_code: null,
          response_excerpt: '',
          error: expect.stringMatching(reason),
        }),
      ]);
    }
    // Instance A, allowed, delivers it at its next attempt.
    a.clock.advance(5_000);
    await webhookWorker(a.ctx).drain();
    expect(receiver.received.length).toBeGreaterThanOrEqual(1);
    await a.ctx.db.delete(webhookEndpoints).where(eq(webhookEndpoints.organization_id, s.orgId));
  });

  it('switches off an endpoint failing for 5 days and e-mails the organization’s OWNERs', async () => {
    receiver.received.length = 0;
    receiver.answer(() => 500);
    const endpoint = await addEndpoint(s, receiver.url);
    const worker = webhookWorker(a.ctx);
    const start = a.clock.now();
    await emit(a, s.orgId, 'member.added', 'member:down');
    expect(await worker.drain()).toBe(1);
    const row = async () =>
      (
        await a.ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id))
      )[0]!;
    expect((await row()).failing_since).toEqual(start);

    // Retries at 5 s, 1 h and then daily: the one 5 days after the first failure switches it off.
    for (const wait of [5_000, hours(1), days(1), days(1), days(1), days(1)]) {
      a.clock.advance(wait);
      expect(await worker.drain()).toBe(1);
      expect((await row()).enabled).toBe(true);
    }
    a.clock.advance(days(1));
    expect(await worker.drain()).toBe(1);
    const off = await row();
    expect(off).toMatchObject({ enabled: false, failing_since: start });
    expect(off.disabled_reason).toMatch(/failed for 5 days/);
    const mail = await a.mailTo(s.people.OWNER.email);
    expect(mail.subject).toMatch(/was switched off/);
    expect(mail.text).toContain(receiver.url);
    expect(mail.text).toContain(`/ps/organization-settings/${s.orgId}/webhooks`);
    expect(a.mailbox.to(s.people.ADMIN.email)).toHaveLength(0);

    // Switched off, its deliveries wait; switched on again, they go and its failures are forgotten.
    a.clock.advance(days(2));
    expect(await worker.drain()).toBe(0);
    receiver.answer(() => 200);
    const login = await a.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/app/login/',
      payload: { email: s.people.ADMIN.email, password: FACTORY_PASSWORD },
      remoteAddress: '10.88.0.1',
    });
    const on = await a.app.inject({
      method: 'PATCH',
      url: `/v1/organizations/${s.orgId}/webhooks/${endpoint.id}/`,
      headers: bearer(login.json().token),
      payload: { enabled: true },
    });
    expect(on.statusCode).toBe(200);
    expect(webhookEndpointSchema.parse(on.json())).toMatchObject({
      enabled: true,
      disabled_reason: null,
      failing_since: null,
    });
    // (Switching it on woke the worker already; the drain waits for that run.)
    await worker.drain();
    expect(receiver.received.at(-1)?.body).toContain('member.added');
    expect(await row()).toMatchObject({ enabled: true, failing_since: null });
  });

  it('reads WEBHOOK_RETRY_SCHEDULE at start-up: the default covers 3 days, a bad value names it', () => {
    const schedule = loadConfig({}).webhooks.retryScheduleMs;
    expect(schedule.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(days(3));
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '10s, 2m,1d' }).webhooks.retryScheduleMs).toEqual([
      10_000,
      120_000,
      days(1),
    ]);
    for (const bad of ['5 minutes', '0s', '5s,,1m', '30d', '-5s']) {
      expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: bad })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    }
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'maybe' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_TARGETS/,
    );
  });
});
