// engine-parity: LISTEN/NOTIFY between instances
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from '../../../test/support/database.ts';
import { findPostgresBin, PgCluster } from '../../../test/support/pg-cluster.ts';
import { startServerProcess, type ServerProcess } from '../../../test/support/server-process.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import type { App } from '../../context.ts';
import { openPostgres, type Database } from '../../db/client.ts';
import { LISTENER_APPLICATION_NAME } from '../../db/listen.ts';
import { createOrganization, createUser, FACTORY_PASSWORD } from '../../seed/factories.ts';
import { createNotification } from './create.ts';
import { openBellStream, type BellStream } from './test-stream.ts';

/**
 * Two server instances on one PostgreSQL (a cluster this test starts, restarts and whose
 * connections it terminates): instance A runs in this process (its own pool and listener, so a
 * notification can be made through its context as the modules make them, or through its HTTP API
 * by inviting someone), instance B is the real server.ts in a child process. Runs once, in the `api (pglite)` project, like db/outage.test.ts;
 * skipped (saying so) where no PostgreSQL binaries are installed.
 */
const bin = findPostgresBin();
const runHere = testEngine === 'pglite';
if (runHere && !bin) console.warn('bell instances test skipped: no PostgreSQL binaries');

const HEARTBEAT_MS = 400;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Person {
  id: string;
  email: string;
  token: string;
}

describe.runIf(runHere && bin)('the bell across two server instances on one PostgreSQL', () => {
  let cluster: PgCluster;
  let database: Database;
  let a: App;
  let aBase: string;
  let b: ServerProcess;
  const dirs: string[] = [];
  const open: BellStream[] = [];
  const delays: number[] = [];

  const jwtSecret = crypto.randomBytes(32).toString('hex');
  const env = (dataDir: string) => ({
    DATABASE_URL: cluster.url(),
    DATA_DIR: dataDir,
    JWT_SECRET: jwtSecret,
    NOTIFICATION_HEARTBEAT_MS: String(HEARTBEAT_MS),
  });
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portolan-bell-'));
    dirs.push(dir);
    return dir;
  };

  async function admin<T>(body: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: cluster.url() });
    await client.connect();
    try {
      return await body(client);
    } finally {
      await client.end();
    }
  }

  /** The backend pids of an instance's listener (named after its process). */
  const listenerOf = (pid: number) =>
    admin(async (c) => {
      const { rows } = await c.query<{ pid: number }>(
        'select pid from pg_stat_activity where application_name = $1',
        [`${LISTENER_APPLICATION_NAME}:${pid}`],
      );
      return rows.map((r) => r.pid);
    });

  async function until(ms: number, what: string, check: () => Promise<boolean>) {
    const started = performance.now();
    while (!(await check().catch(() => false))) {
      if (performance.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
      await sleep(50);
    }
    return performance.now() - started;
  }

  /** A user signed in through B (its token works on A: one database, one secret). */
  async function person(): Promise<Person> {
    const user = await createUser(database.db);
    const res = await fetch(`${b.base}/v1/rest-auth/app/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: FACTORY_PASSWORD }),
    });
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };
    return { id: user.id, email: user.email, token };
  }

  const stream = async (base: string, who: Person) => {
    const bell = await openBellStream(base, who.token);
    open.push(bell);
    expect(bell.status).toBe(200);
    await bell.countAfter(0, 5_000);
    return bell;
  };

  /** A notification made through A: in a transaction of A's own pool, as the modules make them. */
  const notifyThroughA = (to: Person) =>
    a.ctx.db.transaction((tx) => createNotification(tx, { type: 'WARNING', recipientId: to.id }));

  beforeAll(async () => {
    cluster = await PgCluster.create(bin!);
    database = openPostgres(cluster.url(), { log: { warn: () => {} } });
    await database.migrate();
    a = await buildApp(loadConfig({ ...env(tempDir()), LOG_LEVEL: 'silent' }), { database });
    await a.listen({ port: 0, host: '127.0.0.1' });
    aBase = `http://127.0.0.1:${(a.server.address() as { port: number }).port}`;

    b = await startServerProcess({ ...env(tempDir()), LOG_LEVEL: 'info' });
    await until(30_000, 'B answers', async () => (await fetch(`${b.base}/v1/health`)).ok);
    await until(5_000, 'B listens', async () => (await listenerOf(b.pid)).length === 1);
  }, 60_000);

  afterAll(async () => {
    for (const bell of open) bell.close();
    await b?.stop();
    a?.server.closeAllConnections();
    await a?.close();
    await database?.close();
    await cluster?.destroy();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    if (delays.length) {
      const sorted = [...delays].sort((x, y) => x - y);
      console.info(
        `A → stream on B (ms): ${sorted.map((d) => d.toFixed(1)).join(', ')}; max ${sorted.at(-1)!.toFixed(1)}`,
      );
    }
  });

  it('a notification made through A reaches a stream connected to B in under 2 seconds', async () => {
    const me = await person();
    const bell = await stream(b.base, me);
    for (let n = 1; n <= 5; n++) {
      const committed = performance.now();
      await notifyThroughA(me);
      const pushed = await bell.countAfter(n);
      expect(pushed.count).toBe(n);
      delays.push(pushed.at - committed);
    }
    expect(Math.max(...delays)).toBeLessThan(2_000);
  });

  it('an invitation made through A’s API reaches the invitee’s stream on B; declining it through B lowers it', async () => {
    const owner = await person();
    const org = await createOrganization(database.db, { ownerId: owner.id });
    const invitee = await person();
    const bell = await stream(b.base, invitee);
    const asked = performance.now();
    const invited = await fetch(`${aBase}/v1/organizations/${org.id}/users/invitation/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: invitee.email }),
    });
    expect(invited.status).toBe(201);
    const pushed = await bell.countAfter(1);
    expect(pushed.count).toBe(1);
    // From the request to A (not the commit) to the event on B: an upper bound.
    console.info(`invitation through A → stream on B: ${(pushed.at - asked).toFixed(1)} ms`);
    expect(pushed.at - asked).toBeLessThan(2_000);

    const auth = { authorization: `Bearer ${invitee.token}` };
    const list = await fetch(`${b.base}/v1/user/notification/`, { headers: auth });
    const [offer] = ((await list.json()) as { results: { id: string; type: string }[] }).results;
    expect(offer).toMatchObject({ type: 'INVITATION' });
    const declined = await fetch(`${b.base}/v1/user/notification/${offer!.id}/is-seen/decline/`, {
      method: 'PUT',
      headers: auth,
    });
    expect(declined.status).toBe(200);
    expect((await bell.countAfter(2)).count).toBe(0);
  });

  it('marking seen through B reaches a stream connected to A', async () => {
    const me = await person();
    const id = await notifyThroughA(me);
    const bell = await stream(aBase, me);
    expect(bell.counts).toEqual([1]);
    const res = await fetch(`${b.base}/v1/user/notification/${id}/is-seen/`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${me.token}` },
    });
    expect(res.status).toBe(200);
    expect((await bell.countAfter(1)).count).toBe(0);
  });

  it('a stream of user X never receives user Y’s counts', async () => {
    const x = await person();
    const y = await person();
    const xBell = await stream(b.base, x);
    const yBell = await stream(b.base, y);
    for (let i = 0; i < 3; i++) await notifyThroughA(y);
    await yBell.waitForCount(3);
    await notifyThroughA(x);
    await xBell.waitForCount(1);
    await sleep(200);
    expect(xBell.counts).toEqual([0, 1]);
  });

  it('a transaction rolled back on A sends nothing to B', async () => {
    const me = await person();
    const bell = await stream(b.base, me);
    await expect(
      a.ctx.db.transaction(async (tx) => {
        await createNotification(tx, { type: 'WARNING', recipientId: me.id });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await sleep(500);
    expect(bell.counts).toEqual([0]);
  });

  it('B listens again after its listener’s backend is terminated, and sends the count it missed', async () => {
    const me = await person();
    const bell = await stream(b.base, me);
    const [before] = await listenerOf(b.pid);
    expect(before).toBeGreaterThan(0);
    await admin((c) => c.query('select pg_terminate_backend($1)', [before]));
    await until(2_000, 'the old listener gone', async () => (await listenerOf(b.pid)).length === 0);
    // Made while B listens nowhere (checked in the same transaction): only B's catch-up can
    // bring it to the stream.
    const unheard = await a.ctx.db.transaction(async (tx) => {
      await createNotification(tx, { type: 'WARNING', recipientId: me.id });
      return (await listenerOf(b.pid)).length === 0;
    });
    expect(unheard).toBe(true);
    expect((await bell.countAfter(1, 10_000)).count).toBe(1);
    const [after] = await listenerOf(b.pid);
    expect(after).toBeGreaterThan(0);
    expect(after).not.toBe(before);
    await notifyThroughA(me);
    expect((await bell.countAfter(2)).count).toBe(2);
    expect(b.output).toContain('notification listener lost its connection');
  });

  it('a database restart: streams stay open, B listens again and tells them the count', async () => {
    const me = await person();
    const bell = await stream(b.base, me);
    await notifyThroughA(me);
    await bell.countAfter(1);

    await cluster.stop('fast');
    // Several heartbeats without a database: the session cannot be checked, the stream stays.
    await sleep(HEARTBEAT_MS * 3);
    expect(bell.isEnded).toBe(false);
    await cluster.start();
    const restarted = performance.now();

    // Listening again, B sends every open stream its count, with no new notification.
    const caughtUp = await bell.countAfter(2, 15_000);
    expect(caughtUp.count).toBe(1);
    console.info(`B listened again ${(caughtUp.at - restarted).toFixed(0)} ms after the restart`);
    expect(await listenerOf(b.pid)).toHaveLength(1);
    // A works again too, and its notifications reach B as before.
    await until(5_000, 'A writes again', async () => (await notifyThroughA(me), true));
    expect(await bell.waitForCount(2, 2_000)).toBeGreaterThan(0);
    expect(b.alive()).toBe(true);
  }, 60_000);
});
