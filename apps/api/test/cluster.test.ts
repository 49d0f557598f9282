// engine-parity: branches on the engine; twenty or more requests at once
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENER_APPLICATION_NAME } from '../src/db/listen.ts';
import { createPostgresDatabaseCopy, testEngine } from './support/database.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';

/**
 * `npm start` on PostgreSQL: server.ts under WEB_CONCURRENCY=2 runs a supervisor and two server
 * processes on one port. Each process holds one listener connection named after its pid, which is
 * how the test finds them. A process that dies is replaced while the other keeps serving; SIGTERM
 * ends them all.
 */
describe.runIf(testEngine === 'postgres')('the server on every core', () => {
  let copy: Awaited<ReturnType<typeof createPostgresDatabaseCopy>>;
  let server: ServerProcess;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portolan-cluster-'));

  /** The pids of the processes listening on the database (one listener each). */
  async function serverPids(): Promise<number[]> {
    const client = new pg.Client({ connectionString: copy.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        `select application_name as name from pg_stat_activity
          where datname = current_database() and application_name like $1`,
        [`${LISTENER_APPLICATION_NAME}:%`],
      );
      return rows.map((r) => Number(r.name.split(':')[1])).sort((a, b) => a - b);
    } finally {
      await client.end();
    }
  }

  async function until<T>(what: string, check: () => Promise<T | false>, ms = 20_000) {
    const started = performance.now();
    for (;;) {
      const found = await check().catch(() => false as const);
      if (found !== false) return found;
      if (performance.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** A new connection each time: a kept-alive one may belong to the process the test kills. */
  const health = () =>
    new Promise<{ ok: boolean; status: number }>((resolve, reject) => {
      const req = http.get(`${server.base}/v1/health`, { agent: false, timeout: 1_000 }, (res) => {
        res.resume();
        const status = res.statusCode ?? 0;
        resolve({ ok: status >= 200 && status < 300, status });
      });
      req.on('timeout', () => req.destroy(new Error('no answer within 1 s')));
      req.on('error', reject);
    });

  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  beforeAll(async () => {
    copy = await createPostgresDatabaseCopy();
    server = await startServerProcess({
      DATABASE_URL: copy.url,
      DATA_DIR: dataDir,
      JWT_SECRET: crypto.randomBytes(32).toString('hex'),
      WEB_CONCURRENCY: '2',
      LOG_LEVEL: 'warn',
      // Each sign-in of the load below comes from an address of its own (X-Forwarded-For), so
      // the per-address limit never answers them early: each one hashes.
      TRUST_PROXY: 'true',
    });
    await until('the server answers', async () => ((await health()).ok ? true : false));
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await copy?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs two server processes beside the supervisor, and replaces one that dies', async () => {
    const pids = await until('two processes listen', async () => {
      const found = await serverPids();
      return found.length === 2 ? found : false;
    });
    expect(pids).not.toContain(server.pid);
    const [victim, survivor] = pids as [number, number];
    process.kill(victim, 'SIGKILL');
    // The other keeps serving while the replacement starts. (A connection the supervisor handed
    // to the victim in the instant it died is lost, as with any crash: the client retries.)
    let served = 0;
    const replaced = await until('a new process listens', async () => {
      if ((await health().catch(() => ({ ok: false }))).ok) served++;
      const found = await serverPids();
      return found.length === 2 && !found.includes(victim) ? found : false;
    });
    expect(served).toBeGreaterThan(0);
    expect(replaced).toContain(survivor);
    expect(server.alive()).toBe(true);
  }, 60_000);

  /**
   * One request on a connection of its own: resolves with how it ended (an answer, or the
   * connection reset or closed) and when; never rejects.
   */
  const oneRequest = (n: number) =>
    new Promise<{ outcome: string; at: number }>((resolve) => {
      const done = (outcome: string) => resolve({ outcome, at: performance.now() });
      const signIn = n % 2 === 0;
      const req = http.request(
        `${server.base}${signIn ? '/v1/rest-auth/app/login/' : '/v1/health'}`,
        {
          method: signIn ? 'POST' : 'GET',
          agent: false,
          headers: signIn
            ? {
                'content-type': 'application/json',
                'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
              }
            : {},
        },
        (res) => {
          res.resume();
          res.on('end', () => done(String(res.statusCode)));
          res.on('error', (err) => done((err as NodeJS.ErrnoException).code ?? 'error'));
        },
      );
      req.on('error', (err) => done((err as NodeJS.ErrnoException).code ?? 'error'));
      req.end(
        signIn ? JSON.stringify({ email: `load${n}@example.com`, password: 'x' }) : undefined,
      );
    });

  it('answers or resets every request in flight within 5 s when a process is killed', async () => {
    const pids = await until('two processes listen', async () => {
      const found = await serverPids();
      return found.length === 2 ? found : false;
    });
    // 24 clients send request after request (sign-ins that hash, and health checks), each on a
    // new connection, so that connections are being accepted and handed out when one dies.
    let n = 0;
    let stop = false;
    let killedAt = Infinity;
    const ended: { startedAt: number; outcome: string; at: number }[] = [];
    const client = async () => {
      while (!stop) {
        const startedAt = performance.now();
        const result = await oneRequest(n++);
        ended.push({ startedAt, ...result });
      }
    };
    const clients = Array.from({ length: 24 }, client);
    await until('the load runs', async () => (ended.length >= 48 ? true : false));
    process.kill(pids[0]!, 'SIGKILL');
    killedAt = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    stop = true;
    await Promise.race([
      Promise.all(clients),
      new Promise((resolve) => setTimeout(resolve, 20_000)),
    ]);
    const stuck = n - ended.length;
    // How long each request that was in flight at the kill, or began within the second after,
    // took to end after the kill (or after it began).
    const around = ended.filter((r) => r.at >= killedAt && r.startedAt <= killedAt + 1_000);
    const worst = Math.max(...around.map((r) => r.at - Math.max(r.startedAt, killedAt)));
    const outcomes: Record<string, number> = {};
    for (const r of around) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
    console.log(
      `kill -9 of one of 2 processes under load: ${around.length} requests around it, worst ` +
        `${Math.round(worst)} ms to an answer or a reset; outcomes ${JSON.stringify(outcomes)}; ` +
        `${stuck} never ended`,
    );
    expect(stuck).toBe(0);
    expect(worst).toBeLessThan(5_000);
    expect(around.some((r) => r.outcome === '200' || r.outcome === '400')).toBe(true);
  }, 60_000);

  it('ends every process on SIGTERM, with exit code 0', async () => {
    const pids = await serverPids();
    expect(await server.stop()).toBe(0);
    await until('every process has ended', async () => pids.every((pid) => !alive(pid)), 15_000);
  }, 30_000);
});
