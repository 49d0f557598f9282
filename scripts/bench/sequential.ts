// Latency of requests sent one after another (no concurrency): what one user waits.
export function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
  return { p50: at(0.5), p95: at(0.95) };
}

/** `n` calls of `fn`, one after another; p50 and p95 in ms. */
export async function sequentially(n: number, fn: () => Promise<void>) {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return percentiles(samples);
}
