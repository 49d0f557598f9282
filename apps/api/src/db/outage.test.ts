// engine-parity: a database outage and recovery, on each driver
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/support/app.ts';
import { testEngine } from '../../test/support/database.ts';
import { extractCode, Mailbox } from '../../test/support/mailbox.ts';
import { findPostgresBin, PgCluster } from '../../test/support/pg-cluster.ts';
import { startServerProcess, type ServerProcess } from '../../test/support/server-process.ts';
import { isDatabaseUnavailable } from '../lib/database-errors.ts';
import { openPostgres } from './client.ts';

/**
 * Database outages against a real server process on a PostgreSQL cluster this test starts, kills,
 * stops, freezes and restarts itself (docs/decisions/0006-database-outages-and-timeouts.md).
 *
 * It needs no TEST_DATABASE_URL and does not depend on the engine of the running project, so it
 * runs in the `api (pglite)` project only: exactly once per `npm test`. It is skipped, saying so,
 * only where no PostgreSQL binaries (initdb, pg_ctl) are installed.
 */
const bin = findPostgresBin();
const runHere = testEngine === 'pglite';
if (runHere && !bin) {
  console.warn(
    'database outage test skipped: no PostgreSQL binaries (initdb, pg_ctl) under ' +
      '/usr/lib/postgresql/*/bin or on PATH',
  );
}

const PASSWORD = 'Correct horse battery 42';

type PidRows = { rows: { pid: number }[] };

interface Answer {
  status: number;
  body: { code?: string; message?: string; [k: string]: unknown };
  ms: number;
}

describe.runIf(runHere && bin)('database outages (a real server on a cluster of its own)', () => {
  let cluster: PgCluster;
  let mailbox: Mailbox;
  let server: ServerProcess;
  let dataDir: string;
  const frozen: number[] = [];

  async function call(method: string, url: string, body?: unknown, token?: string) {
    const started = performance.now();
    const res = await fetch(`${server.base}${url}`, {
      method,
      headers: {
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(token && { authorization: `Bearer ${token}` }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    const answer: Answer = {
      status: res.status,
      body: text ? JSON.parse(text) : {},
      ms: performance.now() - started,
    };
    return answer;
  }

  const register = (email: string) =>
    call('POST', '/v1/rest-auth/registration/', {
      email,
      password1: PASSWORD,
      password2: PASSWORD,
      first_name: 'Out',
      last_name: 'Age',
    });

  /** Polls until `check` passes; returns how long it took. */
  async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
    const started = performance.now();
    for (;;) {
      if (await check().catch(() => false)) return performance.now() - started;
      if (performance.now() - started > ms) throw new Error(`not within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function admin<T>(body: (c: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: cluster.url() });
    await client.connect();
    try {
      return await body(client);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    cluster = await PgCluster.create(bin!);
    mailbox = new Mailbox();
    const smtpUrl = await mailbox.start();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portolan-outage-'));
    server = await startServerProcess({
      DATABASE_URL: cluster.url(),
      DATA_DIR: dataDir,
      JWT_SECRET: crypto.randomBytes(32).toString('hex'),
      SMTP_URL: smtpUrl,
      LOG_LEVEL: 'info',
      // Short, so the frozen-database phase stays short (the default is 5 s).
      DATABASE_STATEMENT_TIMEOUT_MS: '1000',
    });
    await within(30_000, async () => (await call('GET', '/v1/health')).status === 200);
  });

  afterAll(async () => {
    if (frozen.length) cluster?.thaw(frozen);
    await server?.stop();
    await mailbox?.stop();
    await cluster?.destroy();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('never leaks a pooled client: a transaction whose connection dies or hangs', async () => {
    const problems: unknown[] = [];
    const onProblem = (err: unknown) => problems.push(err);
    process.on('uncaughtException', onProblem);
    const warnings: string[] = [];
    // One connection only: a client that is not given back shows at once.
    const database = openPostgres(cluster.url(), {
      max: 1,
      statementTimeoutMs: 300,
      log: { warn: (_obj, msg) => warnings.push(msg) },
    });
    const { db } = database;
    const backendPid = async () =>
      Number(
        ((await db.execute(sql`select pg_backend_pid() as pid`)) as unknown as PidRows).rows[0]!
          .pid,
      );
    try {
      // The connection is terminated in the middle of a transaction (while checked out).
      await expect(
        db.transaction(async (tx) => {
          await tx.execute(sql`select pg_terminate_backend(pg_backend_pid())`);
        }),
      ).rejects.toSatisfy(isDatabaseUnavailable);
      expect(await backendPid()).toBeGreaterThan(0);

      // The server stops answering just as a transaction begins: `begin` times out.
      const pid = await backendPid();
      process.kill(pid, 'SIGSTOP');
      try {
        await expect(db.transaction(async (tx) => tx.execute(sql`select 1`))).rejects.toSatisfy(
          isDatabaseUnavailable,
        );
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      // The pool's one slot is free again, on a new connection.
      expect(await backendPid()).not.toBe(pid);
      await new Promise((r) => setTimeout(r, 50));
      expect(problems).toEqual([]);
      expect(warnings).toContain('database: connection lost');
    } finally {
      process.off('uncaughtException', onProblem);
      // pool.end() waits for every client: bounded, so a leaked one fails the test, not hangs it.
      await Promise.race([database.close(), new Promise((r) => setTimeout(r, 2_000))]);
    }
  });

  it('keeps serving through killed connections, a stopped and a frozen database', async () => {
    const report: Record<string, number> = {};
    try {
      // --- healthy: sign up, activate, sign in ----------------------------------------------
      const email = `outage.${Date.now()}@example.com`;
      const reg = await register(email);
      expect(reg.status).toBe(201);
      await within(10_000, async () => mailbox.to(email).length === 1);
      const code = extractCode(mailbox.last(email)!.text);
      const act = await call(
        'PATCH',
        '/v1/rest-auth/registration/activation/',
        { code },
        String(reg.body.token),
      );
      expect(act.status).toBe(200);
      const login = await call('POST', '/v1/rest-auth/app/login/', { email, password: PASSWORD });
      expect(login.status).toBe(200);
      const token = String(login.body.token);
      expect((await call('GET', '/v1/rest-auth/user/', undefined, token)).status).toBe(200);

      // --- (a) every connection of the app terminated by an administrator --------------------
      const killed = await admin(async (c) => {
        const r = await c.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
            where backend_type = 'client backend' and pid <> pg_backend_pid()`,
        );
        return r.rowCount ?? 0;
      });
      expect(killed).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 300));
      expect(server.alive()).toBe(true);
      report.afterTerminateMs = await within(5_000, async () => {
        const me = await call('GET', '/v1/rest-auth/user/', undefined, token);
        return me.status === 200;
      });
      expect((await register(`after.kill.${Date.now()}@example.com`)).status).toBe(201);
      expect(server.alive()).toBe(true);

      // --- (b) the database stopped ----------------------------------------------------------
      // A message due in a few seconds, still pending when the database goes down: it must be
      // delivered once the database is back.
      const pendingTo = `pending.${Date.now()}@example.com`;
      await admin((c) =>
        c.query(
          `insert into mail_outbox (to_address, subject, text_body, html_body, next_attempt_at)
           values ($1, 'Queued before the outage', 'hello', '<p>hello</p>', now() + interval '4 seconds')`,
          [pendingTo],
        ),
      );
      const queuedAt = performance.now();
      await cluster.stop('fast');
      await new Promise((r) => setTimeout(r, 300));
      expect(server.alive()).toBe(true);

      const down = [
        await call('GET', '/v1/health'),
        await call('GET', '/v1/rest-auth/user/', undefined, token),
        await call('POST', '/v1/rest-auth/app/login/', { email, password: PASSWORD }),
        await register(`during.${Date.now()}@example.com`),
      ];
      for (const answer of down) {
        expect(answer.status).toBe(503);
        expect(answer.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
        expect(typeof answer.body.message).toBe('string');
        expect(answer.ms).toBeLessThan(2_000);
      }
      report.stoppedMaxAnswerMs = Math.max(...down.map((a) => a.ms));
      // What does not need the database keeps working.
      expect((await call('GET', '/v1/config')).status).toBe(200);

      // Stay down until the pending message is due, and a few worker ticks more.
      const wait = 4_000 + 2_500 - (performance.now() - queuedAt);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      expect(mailbox.to(pendingTo)).toHaveLength(0);
      expect(server.alive()).toBe(true);

      await cluster.start();
      const restarted = performance.now();
      report.recoverAfterStopMs = await within(5_000, async () => {
        return (await call('GET', '/v1/health')).status === 200;
      });
      expect((await call('GET', '/v1/rest-auth/user/', undefined, token)).status).toBe(200);
      const after = `after.stop.${Date.now()}@example.com`;
      expect((await register(after)).status).toBe(201);
      await within(5_000, async () => mailbox.to(after).length === 1);
      await within(8_000, async () => mailbox.to(pendingTo).length === 1);
      report.pendingMailAfterRestartMs = performance.now() - restarted;

      // --- (c) the database frozen: connections open, nothing answers -----------------------
      frozen.push(...cluster.freeze());
      const health = await call('GET', '/v1/health');
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(health.ms).toBeLessThan(2_000);
      report.frozenHealthMs = health.ms;
      // Requests give up after the connect timeout (2 s) or the client-side query timeout
      // (statement timeout + 1 s = 2 s here); several at once, so several pooled clients time out.
      const stuck = await Promise.all([
        call('GET', '/v1/rest-auth/user/', undefined, token),
        call('GET', '/v1/rest-auth/user/', undefined, token),
        call('POST', '/v1/rest-auth/app/login/', { email, password: PASSWORD }),
        register(`frozen.${Date.now()}@example.com`),
      ]);
      for (const answer of stuck) {
        expect(answer.status).toBe(503);
        expect(answer.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
        expect(answer.ms).toBeLessThan(4_000);
      }
      report.frozenMaxAnswerMs = Math.max(...stuck.map((a) => a.ms));
      expect(server.alive()).toBe(true);

      cluster.thaw(frozen.splice(0));
      const thawed = performance.now();
      await within(5_000, async () => {
        const [h, me] = await Promise.all([
          call('GET', '/v1/health'),
          call('GET', '/v1/rest-auth/user/', undefined, token),
        ]);
        return h.status === 200 && me.status === 200;
      });
      report.recoverAfterFreezeMs = performance.now() - thawed;
      const last = `after.freeze.${Date.now()}@example.com`;
      expect((await register(last)).status).toBe(201);
      await within(5_000, async () => mailbox.to(last).length === 1);

      // Never an unhandled error, and the process is still the one we started.
      expect(server.alive()).toBe(true);
      expect(server.output).not.toMatch(/Unhandled 'error' event|ERR_UNHANDLED|uncaughtException/);
      expect(server.output).toContain('database: connection lost');
      console.info('database outage timings (ms):', report);
    } catch (err) {
      console.error(`server output:\n${server.output}\n--- postgres log:\n${cluster.log()}`);
      throw err;
    }

    expect(await server.stop()).toBe(0);
  }, 90_000);
});

// The embedded database cannot drop a connection, but its queries can fail: never fatally.
describe.runIf(runHere)('database failures on PGlite', () => {
  it('answer 503 with the error shape and leave the process running', async () => {
    const problems: unknown[] = [];
    const onProblem = (err: unknown) => problems.push(err);
    process.on('uncaughtException', onProblem);
    process.on('unhandledRejection', onProblem);
    const t = await createTestApp();
    try {
      expect((await t.app.inject({ method: 'GET', url: '/v1/health' })).statusCode).toBe(200);
      await t.ctx.database.close();
      const health = await t.app.inject({ method: 'GET', url: '/v1/health' });
      expect(health.statusCode).toBe(503);
      expect(health.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      const reg = await t.app.inject({
        method: 'POST',
        url: '/v1/rest-auth/registration/',
        payload: {
          email: 'closed@example.com',
          password1: PASSWORD,
          password2: PASSWORD,
          first_name: 'A',
          last_name: 'B',
        },
      });
      expect(reg.statusCode).toBe(503);
      expect(reg.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
      // The outbox worker's run fails and is tried again; it does not throw.
      t.ctx.outbox.kick();
      await expect(t.ctx.outbox.drain()).rejects.toThrow();
      await new Promise((r) => setTimeout(r, 50));
      expect(problems).toEqual([]);
    } finally {
      process.off('uncaughtException', onProblem);
      process.off('unhandledRejection', onProblem);
      await t.close();
    }
  });
});
