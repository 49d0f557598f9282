// What the measuring scripts share (bench, bench:export, lighthouse): a free loopback port, and
// the bench CLI of the API (apps/api/src/seed/bench-cli.ts) that seeds and makes databases.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { API_DIR } from './paths.ts';
import { ensureServerBuild, SERVER_BUNDLE, SERVER_NODE_OPTIONS } from './server-build.ts';

const BENCH_CLI = path.join(API_DIR, 'src', 'seed', 'bench-cli.ts');

/** A port of 127.0.0.1 nobody listens on (for the server the script starts). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

/** Runs the bench CLI of the API (or `script`) and returns the JSON of its last line of output. */
export function benchCli<T>(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  script: string = BENCH_CLI,
): T {
  const out = execFileSync(process.execPath, [script, ...args], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16 * 1024 * 1024,
  });
  const last = out.trim().split('\n').at(-1);
  return (last ? JSON.parse(last) : undefined) as T;
}

/** A running API server (apps/api/src/server.ts, as `npm start` runs it) on a loopback port. */
export interface ApiServer {
  base: string;
  /** The process started (with several workers, their primary). */
  pid: number;
  /** When it was spawned (performance.now()). */
  startedAt: number;
  /** Stops it (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts the API server as `npm start` does (the bundle, bundled first when stale, with the same
 * Node options) with `env` on a free port; resolves once it answers its health check.
 */
export async function startApiServer(env: NodeJS.ProcessEnv): Promise<ApiServer> {
  if (!(await ensureServerBuild((line) => console.log(`  (${line})`)))) {
    throw new Error('the server could not be bundled');
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const startedAt = performance.now();
  const child = spawn(process.execPath, [...SERVER_NODE_OPTIONS, SERVER_BUNDLE], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.on('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  try {
    for (let i = 0; ; i++) {
      const up = await fetch(`${base}/v1/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (i > 300 || child.exitCode !== null) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { base, pid: child.pid!, startedAt, stop };
}

export interface BenchServer<S> extends Omit<ApiServer, 'stop'> {
  dataDir: string;
  /** The environment the server runs with (DATABASE_URL, JWT_SECRET, ...), to start another. */
  env: NodeJS.ProcessEnv;
  /** What `seed` returned. */
  seeded: S;
}

/**
 * A real server on a fresh database for one measurement: a temporary DATA_DIR, on PostgreSQL a
 * database made on `adminUrl`'s server (else the embedded PGlite), `seed` run against it (with the
 * server's environment) before the server starts, then `run` once the server answers its health
 * check. Everything is stopped and removed afterwards, whatever happened.
 */
export async function withBenchServer<S>(
  engine: 'pglite' | 'postgres',
  adminUrl: string | undefined,
  options: {
    env?: NodeJS.ProcessEnv;
    seed: (env: NodeJS.ProcessEnv) => S;
    run: (server: BenchServer<S>) => Promise<void>;
    /** On PostgreSQL, a database of the caller's to use and leave in place (BENCH_KEEP). */
    database?: { name: string; url: string };
    /** The heading printed (the engine's name unless given). */
    title?: string;
  },
): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portolan-bench-'));
  const database =
    engine === 'postgres'
      ? (options.database ??
        benchCli<{ name: string; url: string }>(['create-database', adminUrl!]))
      : undefined;
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: database?.url ?? '',
    LOG_LEVEL: 'warn',
    SMTP_URL: '',
    ...options.env,
  };
  let server: ApiServer | undefined;
  try {
    console.log(
      `\n${options.title ?? (engine === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded)')}`,
    );
    const seeding = performance.now();
    const seeded = options.seed(env);
    console.log(`  (seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s)`);
    server = await startApiServer(env);
    const { stop: _stop, ...running } = server;
    await options.run({ ...running, dataDir, env, seeded });
  } finally {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (database && !options.database) benchCli(['drop-database', adminUrl!, database.name]);
  }
}
