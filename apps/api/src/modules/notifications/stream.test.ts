// engine-parity: LISTEN/NOTIFY and the bell stream on each engine
import { NOTIFICATION_STREAMS_PER_USER } from '@portolan/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../../test/support/app.ts';
import { testEngine } from '../../../test/support/database.ts';
import { observeStatements } from '../../../test/support/statements.ts';
import { createTenantScene, type Person, type TenantScene } from '../../../test/support/tenants.ts';
import { hours } from '../../lib/clock.ts';
import { LISTENER_APPLICATION_NAME } from '../../db/listen.ts';
import { createNotification } from './create.ts';
import { openBellStream, type BellStream } from './test-stream.ts';

const HEARTBEAT_MS = 150;
const REQUEST_TIMEOUT_MS = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The bell's event stream on one instance, over real HTTP, on the engine of the running project
 * (PGlite delivers NOTIFY in process; PostgreSQL through the instance's own LISTEN connection).
 */
describe(`GET /v1/user/notification/stream/ (${testEngine})`, () => {
  let t: TestApp;
  let s: TenantScene;
  let base: string;
  const open: BellStream[] = [];

  const stream = async (who: Person, headers: Record<string, string> = {}) => {
    const bell = await openBellStream(base, who.token, headers);
    open.push(bell);
    return bell;
  };
  /** A notification for `to`, committed in a transaction of its own, as the modules make them. */
  const notify = (to: Person) =>
    t.ctx.db.transaction((tx) =>
      createNotification(tx, { type: 'WARNING', recipientId: to.id, organizationId: s.orgId }),
    );

  beforeAll(async () => {
    t = await createTestApp({
      NOTIFICATION_HEARTBEAT_MS: String(HEARTBEAT_MS),
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    });
    s = await createTenantScene(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address() as { port: number };
    base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    for (const bell of open) bell.close();
    // fetch's connection pool may hold a connection it opened for parallel requests and never
    // used; a closing server waits for such a one (closing streams is tested below, on its own).
    t?.app.server.closeAllConnections();
    await t?.close();
  });

  it('opens with the unseen count, as an event stream nothing may buffer or compress', async () => {
    const me = await s.person();
    await notify(me);
    await notify(me);
    const bell = await stream(me, { 'accept-encoding': 'br, gzip' });
    expect(bell.status).toBe(200);
    expect(bell.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(bell.headers.get('x-accel-buffering')).toBe('no');
    expect(bell.headers.get('cache-control')).toMatch(/no-cache.*no-transform/);
    expect(bell.headers.get('content-encoding')).toBeNull();
    // The security headers of every answer are there too.
    expect(bell.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await bell.countAfter(0)).count).toBe(2);
    expect(bell.events[0]).toMatchObject({ event: 'notification', data: '{"count":2}' });
  });

  it('pushes the new count within 2 seconds of a notification’s commit, and when one is marked seen', async () => {
    const me = await s.person();
    const bell = await stream(me);
    await bell.countAfter(0);
    const committed = performance.now();
    const id = await notify(me);
    const pushed = await bell.countAfter(1);
    expect(pushed.count).toBe(1);
    const delay = pushed.at - committed;
    expect(delay).toBeLessThan(2_000);
    console.info(
      `bell pushed ${delay.toFixed(1)} ms after the commit (${testEngine}, one instance)`,
    );

    const seen = await t.app.inject({
      method: 'PUT',
      url: `/v1/user/notification/${id}/is-seen/`,
      headers: bearer(me.token),
    });
    expect(seen.statusCode).toBe(200);
    expect((await bell.countAfter(2)).count).toBe(0);
  });

  it('never sends one user’s counts to another user’s stream', async () => {
    const x = await s.person();
    const y = await s.person();
    const xBell = await stream(x);
    const yBell = await stream(y);
    await Promise.all([xBell.countAfter(0), yBell.countAfter(0)]);
    for (let i = 0; i < 3; i++) await notify(y);
    await yBell.waitForCount(3);
    // X's own notification arrives, and nothing of Y's came before it.
    await notify(x);
    await xBell.waitForCount(1);
    await sleep(100);
    expect(xBell.counts).toEqual([0, 1]);
  });

  it('sends nothing for a transaction that rolls back', async () => {
    const me = await s.person();
    const bell = await stream(me);
    await bell.countAfter(0);
    await expect(
      t.ctx.db.transaction(async (tx) => {
        await createNotification(tx, { type: 'WARNING', recipientId: me.id });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await sleep(300);
    expect(bell.counts).toEqual([0]);
    await notify(me);
    expect((await bell.countAfter(1)).count).toBe(1);
  });

  it('counts once per notified user, however many of their streams are open', async () => {
    const me = await s.person();
    const bells = await Promise.all(Array.from({ length: 5 }, () => stream(me)));
    await Promise.all(bells.map((b) => b.countAfter(0)));
    const log = observeStatements(t.ctx.database);
    try {
      await notify(me);
      await Promise.all(bells.map((b) => b.countAfter(1)));
      const counts = log.statements.filter((q) => /count\(\*\)/i.test(q) && /group by/i.test(q));
      expect(counts).toHaveLength(1);
    } finally {
      log.restore();
    }
  });

  it('ends up with the right count after a burst of notifications made at once', async () => {
    const me = await s.person();
    const bell = await stream(me);
    await bell.countAfter(0);
    await Promise.all(Array.from({ length: 25 }, () => notify(me)));
    await bell.waitForCount(25, 5_000);
    await sleep(200);
    expect(bell.counts.at(-1)).toBe(25);
    // Counts never go back: each one was read after the one before.
    expect([...bell.counts].sort((a, b) => a - b)).toEqual(bell.counts);
  });

  it('stays open past the request timeout, with a heartbeat comment every period', async () => {
    const me = await s.person();
    const bell = await stream(me);
    await bell.countAfter(0);
    await sleep(REQUEST_TIMEOUT_MS * 4);
    expect(bell.isEnded).toBe(false);
    expect(bell.heartbeats).toBeGreaterThanOrEqual(3);
    await notify(me);
    expect((await bell.countAfter(1)).count).toBe(1);
  });

  it('ends within a heartbeat of a sign-out', async () => {
    const me = await s.person();
    const bell = await stream(me);
    await bell.countAfter(0);
    const out = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/logout/',
      headers: bearer(me.token),
    });
    expect(out.statusCode).toBeLessThan(300);
    await Promise.race([bell.ended, sleep(HEARTBEAT_MS * 4)]);
    expect(bell.isEnded).toBe(true);
  });

  it('ends within a heartbeat of its token’s expiry', async () => {
    const me = await s.person();
    const bell = await stream(me);
    await bell.countAfter(0);
    await sleep(HEARTBEAT_MS * 2);
    expect(bell.isEnded).toBe(false);
    t.clock.advance(hours(13));
    try {
      await Promise.race([bell.ended, sleep(HEARTBEAT_MS * 4)]);
      expect(bell.isEnded).toBe(true);
    } finally {
      t.clock.advance(-hours(13));
    }
  });

  it(`holds at most ${NOTIFICATION_STREAMS_PER_USER} streams per user; a closed one frees its place`, async () => {
    const me = await s.person();
    const other = await s.person();
    // Opened at once: the limit holds in a race too.
    const first = await Promise.all(
      Array.from({ length: NOTIFICATION_STREAMS_PER_USER + 3 }, () => stream(me)),
    );
    const statuses = first.map((b) => b.status).sort();
    expect(statuses.filter((st) => st === 200)).toHaveLength(NOTIFICATION_STREAMS_PER_USER);
    expect(statuses.filter((st) => st === 429)).toHaveLength(3);
    const refused = await t.app.inject({
      method: 'GET',
      url: '/v1/user/notification/stream/',
      headers: bearer(me.token),
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    // Another user is not concerned.
    expect((await stream(other)).status).toBe(200);

    for (const bell of first) bell.close();
    await sleep(200);
    const again = await Promise.all(
      Array.from({ length: NOTIFICATION_STREAMS_PER_USER }, () => stream(me)),
    );
    expect(again.map((b) => b.status)).toEqual(Array(NOTIFICATION_STREAMS_PER_USER).fill(200));
    for (const bell of again) bell.close();
  });

  it('is no HEAD route (its answer would hold a connection with no body)', async () => {
    const me = await s.person();
    const res = await t.app.inject({
      method: 'HEAD',
      url: '/v1/user/notification/stream/',
      headers: bearer(me.token),
    });
    expect(res.statusCode).toBe(404);
  });

  it.runIf(testEngine === 'postgres')(
    'listens again after its connection is terminated, and sends the count it missed',
    async () => {
      const me = await s.person();
      const bell = await stream(me);
      await bell.countAfter(0);
      const name = `${LISTENER_APPLICATION_NAME}:${process.pid}`;
      const listener = async () => {
        const result = await t.ctx.db.execute<{ pid: number }>(
          sql`select pid from pg_stat_activity
               where application_name = ${name} and datname = current_database()`,
        );
        return (result as unknown as { rows: { pid: number }[] }).rows.map((r) => r.pid);
      };
      const [before] = await listener();
      expect(before).toBeGreaterThan(0);
      await t.ctx.db.execute(sql`select pg_terminate_backend(${before})`);
      // Once it is gone, a notification nobody here hears: only the catch-up can tell the bell.
      while ((await listener()).length > 0) await sleep(5);
      const missed = await t.ctx.db.transaction(async (tx) => {
        await createNotification(tx, { type: 'WARNING', recipientId: me.id });
        return (await listener()).length === 0;
      });
      expect((await bell.countAfter(1, 10_000)).count).toBe(1);
      const [after] = await listener();
      expect(after).toBeGreaterThan(0);
      expect(after).not.toBe(before);
      expect(missed).toBe(true);
      // And it hears the next one as usual.
      await notify(me);
      expect((await bell.countAfter(2)).count).toBe(2);
    },
  );
});

describe('streams when the server closes', () => {
  it('ends every open stream, so the server can close', async () => {
    const t = await createTestApp();
    try {
      const s = await createTenantScene(t);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      // One after the other: parallel fetches may leave a spare connection the server waits for.
      const bells = [
        await openBellStream(`http://127.0.0.1:${port}`, s.people.OWNER.token),
        await openBellStream(`http://127.0.0.1:${port}`, s.people.STAFF.token),
      ];
      await Promise.all(bells.map((b) => b.countAfter(0)));
      const started = performance.now();
      await t.app.close();
      const ms = performance.now() - started;
      await Promise.all(bells.map((b) => b.ended));
      console.info(`closed with two open streams in ${ms.toFixed(0)} ms`);
      expect(ms).toBeLessThan(1_000);
    } finally {
      await t.close();
    }
  });
});
