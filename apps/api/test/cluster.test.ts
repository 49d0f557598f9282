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

  it('ends every process on SIGTERM, with exit code 0', async () => {
    const pids = await serverPids();
    expect(await server.stop()).toBe(0);
    await until('every process has ended', async () => pids.every((pid) => !alive(pid)), 15_000);
  }, 30_000);
});
