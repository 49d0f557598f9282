import type { FastifyBaseLogger } from 'fastify';
import { exportDepsFor, runDataExports, type JobContext } from './job.ts';

/** How often an instance looks for exports to build (a request wakes its own at once). */
export const DATA_EXPORT_INTERVAL_MS = 5_000;

export interface DataExportJob {
  /** Run now (an export was just asked for), or right after the run in progress. */
  kick(): void;
  /** Stops: a build in progress is aborted and handed back for the next start. */
  stop(): Promise<void>;
}

/** The running job of each app, so its routes can wake it. */
const jobs = new WeakMap<object, DataExportJob>();

/** Wakes the app's job, when it runs one (tests run the job by hand). */
export function wakeDataExportJob(ctx: object): void {
  jobs.get(ctx)?.kick();
}

/**
 * Runs runDataExports every `intervalMs` until stopped (app close). Like the other jobs, a run
 * that fails (the database is down) is logged and tried again at the next tick.
 */
export function startDataExportJob(
  ctx: JobContext,
  options: { log?: FastifyBaseLogger; intervalMs?: number } = {},
): DataExportJob {
  const intervalMs = options.intervalMs ?? DATA_EXPORT_INTERVAL_MS;
  const abort = new AbortController();
  const deps = { ...exportDepsFor(ctx.config), log: options.log, signal: abort.signal };
  let running: Promise<unknown> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let failedRuns = 0;

  const run = () => {
    if (abort.signal.aborted) return;
    if (running) {
      again = true;
      return;
    }
    running = runDataExports(ctx, deps)
      .then(() => {
        failedRuns = 0;
      })
      .catch((err) => {
        // One line at the start of an outage and then one every ~5 minutes, not one per tick.
        if (failedRuns++ % 60 === 0)
          options.log?.error({ err, failedRuns }, 'data export run failed');
      })
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  };
  const tick = () => {
    run();
    if (!abort.signal.aborted) timer = setTimeout(tick, intervalMs);
  };
  timer = setTimeout(tick, 0);

  const job: DataExportJob = {
    kick: run,
    async stop() {
      abort.abort();
      if (timer) clearTimeout(timer);
      jobs.delete(ctx);
      await running;
    },
  };
  jobs.set(ctx, job);
  return job;
}
