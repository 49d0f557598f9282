import { spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from './pg-cluster.ts';

const SERVER_TS = path.resolve(import.meta.dirname, '../../src/server.ts');

/** The real server (src/server.ts) in a child process of the test, on a free port of 127.0.0.1. */
export interface ServerProcess {
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  readonly pid: number;
  /** Everything it wrote to stdout and stderr so far. */
  readonly output: string;
  /** Still the process we started: not exited, not killed. */
  alive(): boolean;
  /** SIGTERM (a graceful shutdown), then its exit code; at once if it has ended already. */
  stop(): Promise<number | null>;
  /** SIGKILL: a crash, nothing finished or cleaned up; resolves when it is gone. */
  crash(): Promise<void>;
}

/** Starts it with `env` over the test's own environment; wait for it to answer before use. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_TS], {
    // One process unless the test asks for more: on PostgreSQL server.ts would otherwise run one
    // per core under a supervisor (cluster.ts), and tests look at "the" server's pid.
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', WEB_CONCURRENCY: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    get output() {
      return output;
    },
    alive,
    async stop() {
      if (alive()) child.kill('SIGTERM');
      return exited;
    },
    async crash() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
  };
}
