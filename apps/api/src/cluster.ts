// The supervisor of `npm start` on PostgreSQL: one server process per core (WEB_CONCURRENCY), all
// listening on the one port: each process accepts connections itself from the one listening
// socket (SCHED_NONE, see superviseWorkers).
// Instances share nothing in memory that matters: sessions are cached with invalidation through
// the database, rate limits, jobs and notifications live in it (docs/decisions/0011-scale-out.md).
import cluster, { type Worker } from 'node:cluster';
import type { AppConfig } from './config.ts';

/** A process that ends sooner than this after its start counts as failing to start. */
const EARLY_EXIT_MS = 10_000;
/** This many early exits in a row: the configuration or the port is wrong; give up. */
const MAX_EARLY_EXITS = 5;
/** After a signal, the processes get this long to finish their requests and jobs. */
const SHUTDOWN_GRACE_MS = 12_000;

const log = (level: 'info' | 'warn' | 'error', msg: string, extra: object = {}) => {
  const line = JSON.stringify({ level, time: Date.now(), pid: process.pid, msg, ...extra });
  (level === 'info' ? process.stdout : process.stderr).write(`${line}\n`);
};

export function superviseWorkers(config: AppConfig): void {
  // Node's default on Linux (round-robin) has the supervisor accept each connection and pass it to
  // a process; one passed to a process in the instant it died stayed open in the supervisor,
  // unanswered, for as long as the client waited (issue 18 item 7). Processes that accept for
  // themselves leave nothing behind: a connection the dead process held is reset by the kernel,
  // one still waiting in the socket's queue is accepted by another process.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  const started = new Map<number, number>();
  let earlyExits = 0;
  let closing = false;

  const fork = () => {
    const worker = cluster.fork();
    started.set(worker.id, Date.now());
  };

  cluster.on('exit', (worker: Worker, code, signal) => {
    const lived = Date.now() - (started.get(worker.id) ?? 0);
    started.delete(worker.id);
    if (closing) {
      if (started.size === 0) process.exit(0);
      return;
    }
    earlyExits = lived < EARLY_EXIT_MS ? earlyExits + 1 : 0;
    if (earlyExits >= MAX_EARLY_EXITS) {
      log('error', 'server processes keep ending at start; stopping', { code, signal });
      closing = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
      setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
      if (started.size === 0) process.exit(1);
      return;
    }
    // A crash takes one process of several: the others keep serving while it is replaced.
    log('warn', 'a server process ended; starting another', { code, signal, lived });
    setTimeout(fork, Math.min(5_000, 200 * 2 ** earlyExits));
  });

  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    log('info', 'shutting down', { signal, processes: started.size });
    // Each process closes gracefully (server.ts); a terminal's Ctrl-C reaches them already.
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    if (started.size === 0) process.exit(0);
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  log('info', `starting ${config.workers} server processes on port ${config.port}`);
  for (let i = 0; i < config.workers; i++) fork();
}
