import { describe, expect, it, vi } from 'vitest';
import { startJob } from './jobs.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the periodic runner', () => {
  it('never overlaps a job with itself, and a kick during a run runs it once more after', async () => {
    let active = 0;
    let most = 0;
    let runs = 0;
    const job = startJob({
      name: 'slow',
      everyMs: 60_000,
      run: async () => {
        runs++;
        active++;
        most = Math.max(most, active);
        await sleep(50);
        active--;
      },
    });
    await sleep(10);
    job.kick();
    job.kick();
    await vi.waitFor(() => expect(runs).toBe(2), { timeout: 2_000, interval: 10 });
    await sleep(100);
    await job.stop();
    expect(runs).toBe(2);
    expect(most).toBe(1);
  });

  it('runs again after its pause, logs a failure and tries again', async () => {
    const errors: unknown[] = [];
    const log = {
      error: (fields: unknown, message: string) => errors.push([fields, message]),
      info: () => undefined,
    };
    let runs = 0;
    const job = startJob(
      {
        name: 'flaky',
        everyMs: 5,
        run: async () => {
          runs++;
          if (runs === 1) throw new Error('database down');
        },
      },
      log as never,
    );
    await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(3), { timeout: 2_000 });
    await job.stop();
    const after = runs;
    await sleep(50);
    expect(runs).toBe(after);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject([{ failedRuns: 1 }, 'flaky run failed']);
  });

  it('stops: aborts the run in progress and waits for it, and listens to its wake-up no more', async () => {
    let aborted = false;
    let wake: (() => void) | null = null;
    const job = startJob({
      name: 'long',
      everyMs: 60_000,
      wake: (kick) => {
        wake = kick;
        return () => {
          wake = null;
        };
      },
      run: (signal) =>
        new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve();
          }),
        ),
    });
    await sleep(10);
    expect(wake).not.toBeNull();
    await job.stop();
    expect(aborted).toBe(true);
    expect(wake).toBeNull();
  });

  it('runs next when the plan of a run says: later, or only when kicked; after a failure, its retry delay', async () => {
    const starts: number[] = [];
    const plans: (number | null | Error)[] = [30, null, new Error('database down'), null];
    const infos: unknown[] = [];
    const log = {
      error: () => undefined,
      info: (_: unknown, message: string) => infos.push(message),
    };
    const job = startJob(
      {
        name: 'planned',
        everyMs: 60_000,
        retryAfterFailureMs: 20,
        run: async () => {
          starts.push(performance.now());
          const plan = plans.shift();
          if (plan instanceof Error) throw plan;
          return { nextInMs: plan ?? null };
        },
      },
      log as never,
    );
    // The first run asks for the next in 30 ms; the second for none: it waits for a kick.
    await vi.waitFor(() => expect(starts).toHaveLength(2), { timeout: 2_000, interval: 5 });
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(25);
    await sleep(100);
    expect(starts).toHaveLength(2);
    // Kicked: the third run fails, and the fourth comes after the retry delay, not everyMs.
    job.kick();
    await vi.waitFor(() => expect(starts).toHaveLength(4), { timeout: 2_000, interval: 5 });
    expect(starts[3]! - starts[2]!).toBeGreaterThanOrEqual(15);
    expect(infos).toEqual(['planned running again']);
    await job.stop();
  });
});
