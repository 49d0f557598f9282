import type { FastifyBaseLogger } from 'fastify';

/**
 * The one periodic runner (issue 19): modules declare their jobs (`jobs` on their faces: a name,
 * how often, when first, and the work) and this runs each one. A run never overlaps the same
 * job's previous one: the next is timed from its end, and a wake-up during a run (`kick`, a
 * request that has work for it) runs it again right after. A run that fails is logged, once at
 * the start of an outage and then every `logEvery`-th failure, and the next run tries again.
 * Which process runs jobs at all is app.ts's `startWorkers` (every instance: each job claims its
 * rows with FOR UPDATE SKIP LOCKED). A job may also say when it is due next (`JobPlan`): the mail
 * outbox (lib/mail/outbox.ts) sleeps until its earliest retry, or until woken by a NOTIFY.
 */
export interface Job {
  name: string;
  /** The pause between the end of a run and the start of the next. */
  everyMs: number;
  /** The first run, this long after start (0: at once). */
  firstDelayMs?: number;
  /** After a failed run the next comes this much later (default `everyMs`). */
  retryAfterFailureMs?: number;
  /** Failures in a row between two log lines (1: every one). */
  logEvery?: number;
  /**
   * The job's wake-up signal, if it has one: called at start with the job's `kick`, it answers
   * how to stop listening (called at stop, and awaited).
   */
  wake?: (kick: () => void) => () => void | Promise<void>;
  /**
   * One run; `signal` aborts when the job is stopped (app close). A run that answers a JobPlan
   * sets when the next one comes; any other answer means after `everyMs`.
   */
  run(signal: AbortSignal): Promise<unknown>;
}

/** What a run may answer: the next run in `nextInMs`, or (null) only when woken. */
export interface JobPlan {
  nextInMs: number | null;
}

const isPlan = (value: unknown): value is JobPlan =>
  typeof value === 'object' && value !== null && 'nextInMs' in value;

export interface RunningJob {
  /** Run now, or right after the run in progress. */
  kick(): void;
  /** No more runs; waits for the one in progress (aborted through its signal). */
  stop(): Promise<void>;
}

export function startJob(job: Job, log?: FastifyBaseLogger): RunningJob {
  const abort = new AbortController();
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let failedRuns = 0;

  let next: number | null = job.everyMs;

  const schedule = (ms: number | null) => {
    if (abort.signal.aborted) return;
    if (timer) clearTimeout(timer);
    timer = null;
    if (ms === null) return;
    timer = setTimeout(run, ms);
    // The HTTP server keeps the process alive; a waiting job alone should not.
    timer.unref();
  };
  const run = () => {
    if (abort.signal.aborted) return;
    if (running) {
      again = true;
      return;
    }
    if (timer) clearTimeout(timer);
    running = job
      .run(abort.signal)
      .then((answer) => {
        if (failedRuns > 0) log?.info({ failedRuns }, `${job.name} running again`);
        failedRuns = 0;
        next = isPlan(answer) ? answer.nextInMs : job.everyMs;
      })
      .catch((err) => {
        if (failedRuns++ % (job.logEvery ?? 1) === 0)
          log?.error({ err, failedRuns }, `${job.name} run failed`);
        next = job.retryAfterFailureMs ?? job.everyMs;
      })
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        } else schedule(next);
      });
  };
  schedule(job.firstDelayMs ?? 0);
  const unwake = job.wake?.(run);

  return {
    kick: run,
    async stop() {
      abort.abort();
      if (timer) clearTimeout(timer);
      await unwake?.();
      await running;
    },
  };
}

/** Every declared job, started together and stopped together (the app's onReady and onClose). */
export function startJobs(jobs: readonly Job[], log?: FastifyBaseLogger) {
  const running = jobs.map((job) => startJob(job, log));
  return {
    stop: async () => {
      await Promise.all(running.map((job) => job.stop()));
    },
  };
}
