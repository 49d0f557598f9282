import type { FastifyBaseLogger } from 'fastify';
import { startJob, type Job, type RunningJob } from '../../lib/jobs.ts';
import { exportDepsFor, runDataExports, type JobContext } from './job.ts';

/** How often an instance looks for exports to build (a request wakes its own at once). */
export const DATA_EXPORT_INTERVAL_MS = 5_000;

/** The wake-up of each app's running job, so its routes can wake it. */
const wakers = new WeakMap<object, () => void>();

/** Wakes the app's job, when it runs one (tests run the job by hand). */
export function wakeDataExportJob(ctx: object): void {
  wakers.get(ctx)?.();
}

/**
 * The data export job, declared for the runner (lib/jobs.ts): runDataExports every few seconds
 * and at once when a request asks for an export. Stopping aborts a build in progress, which is
 * handed back for the next start.
 */
export function dataExportJob(ctx: JobContext, log?: FastifyBaseLogger): Job {
  const deps = { ...exportDepsFor(ctx.config), log };
  return {
    name: 'data export',
    everyMs: DATA_EXPORT_INTERVAL_MS,
    // One line at the start of an outage and then one every ~5 minutes, not one per tick.
    logEvery: 60,
    wake: (kick) => {
      wakers.set(ctx, kick);
      return () => {
        wakers.delete(ctx);
      };
    },
    run: (signal) => runDataExports(ctx, { ...deps, signal }),
  };
}

/** The data export job on its own (tests). */
export function startDataExportJob(
  ctx: JobContext,
  options: { log?: FastifyBaseLogger; intervalMs?: number } = {},
): RunningJob {
  const job = dataExportJob(ctx, options.log);
  return startJob({ ...job, everyMs: options.intervalMs ?? DATA_EXPORT_INTERVAL_MS }, options.log);
}
