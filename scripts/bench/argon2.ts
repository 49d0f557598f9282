// Raw argon2id verifications per second at our parameters, the ceiling of sign-in: `concurrency`
// verifications in flight spread over `processes` processes (as wrk's connections are spread over
// the server's workers), each with libuv's default thread pool, as the server has.
import { fork } from 'node:child_process';
import path from 'node:path';

export async function argon2VerificationsPerSecond(options: {
  processes: number;
  concurrency: number;
  durationMs: number;
}): Promise<number> {
  const workers = Array.from({ length: options.processes }, () =>
    fork(path.join(import.meta.dirname, 'argon2-worker.ts'), { stdio: 'inherit' }),
  );
  try {
    await Promise.all(workers.map((w) => new Promise((resolve) => w.once('message', resolve))));
    const started = performance.now();
    const counts = await Promise.all(
      workers.map((w, i) => {
        const answered = new Promise<number>((resolve, reject) => {
          w.once('message', (m: { done: number }) => resolve(m.done));
          w.once('exit', (code) => code && reject(new Error(`argon2 worker exited ${code}`)));
        });
        // The remainder goes to the first ones: 20 over 3 processes is 7, 7, 6.
        const share =
          Math.floor(options.concurrency / options.processes) +
          (i < options.concurrency % options.processes ? 1 : 0);
        w.send({ concurrency: share, durationMs: options.durationMs });
        return answered;
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return counts.reduce((a, b) => a + b, 0) / seconds;
  } finally {
    for (const w of workers) if (w.exitCode === null) w.kill();
  }
}
