// `npm run bench:export`: the audit export of a million activities (issue 11: the server's memory
// grows by less than 100 MB). Seeds the bench tenant's organization with BENCH_EXPORT_ROWS
// activities (1,000,000 by default) into a fresh database, starts the real server, signs in,
// then downloads GET /v1/organizations/{id}/activities/export/?format=csv (and jsonl) while
// sampling the server's resident memory (VmRSS of /proc/<pid>/status) every 50 ms. Prints rows,
// bytes, time, rows per second, and the memory before and at its peak. On PostgreSQL when
// BENCH_DATABASE_URL or TEST_DATABASE_URL names a server (a database made and dropped here),
// else on the embedded PGlite. A measurement, not a test.
import fs from 'node:fs';
import { benchCli, withBenchServer } from './lib/bench.ts';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const TARGET_MB = 100;

/** Resident memory of a process, MB. */
function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
}

async function download(base: string, url: string, token: string, pid: number) {
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  const started = performance.now();
  const res = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssMb(pid));
  return { before, peak, bytes, lines, seconds, count: Number(res.headers.get('x-export-count')) };
}

async function bench(engine: 'pglite' | 'postgres', adminUrl?: string) {
  await withBenchServer(engine, adminUrl, {
    seed: (env) =>
      benchCli<{ email: string; password: string; organizationId: string }>(
        ['seed-activities', String(ROWS)],
        env,
      ),
    run: async ({ base, pid, seeded: tenant }) => {
      console.log(`  (${ROWS.toLocaleString('en-US')} activities)`);
      const login = (await fetch(`${base}/v1/rest-auth/app/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: tenant.email, password: tenant.password }),
      }).then((r) => r.json())) as { token: string };
      for (const format of ['csv', 'jsonl'] as const) {
        const url = `/v1/organizations/${tenant.organizationId}/activities/export/?format=${format}`;
        const r = await download(base, url, login.token, pid);
        const rows = format === 'csv' ? r.lines - 1 : r.lines;
        const growth = r.peak - r.before;
        console.log(
          `  ${format.padEnd(5)} ${rows.toLocaleString('en-US')} rows (X-Export-Count ${r.count.toLocaleString('en-US')}), ` +
            `${(r.bytes / 1024 / 1024).toFixed(0)} MB in ${r.seconds.toFixed(1)} s ` +
            `(${Math.round(rows / r.seconds).toLocaleString('en-US')} rows/s); server memory ` +
            `${r.before.toFixed(0)} MB before, ${r.peak.toFixed(0)} MB at peak: +${growth.toFixed(0)} MB ` +
            `(target under ${TARGET_MB} MB: ${growth < TARGET_MB ? 'met' : 'NOT met'})`,
        );
      }
    },
  });
}

const adminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
if (adminUrl) await bench('postgres', adminUrl);
if (!adminUrl || process.env.BENCH_EXPORT_PGLITE === '1') await bench('pglite');
