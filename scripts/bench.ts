// `npm run bench`: latency of the hot API paths on a real server (fresh DATA_DIR, loopback only),
// on embedded PGlite and, when BENCH_DATABASE_URL or TEST_DATABASE_URL names a PostgreSQL server,
// again on a fresh database there (created and dropped by the bench). For each engine it seeds
// one user in 250 organizations of 10 workspaces each (apps/api/src/seed/bench.ts), starts the
// server, registers and activates one account (reading the code from the .eml copy), then times
// sequential requests (p50/p95 in milliseconds) and, for the organization list, requests under
// concurrency (p50/p95 and requests per second). Numbers, not pass/fail: performance targets
// live here, not in timed tests.
import fs from 'node:fs';
import path from 'node:path';
import { benchCli, withBenchServer } from './lib/bench.ts';

const ORGANIZATIONS = 250;
const WORKSPACES = 10;
const CONCURRENCY = 10;

const fmt = (ms: number) => ms.toFixed(1).padStart(6);
function percentiles(samples: number[]) {
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(samples.length * q))]!;
  return { p50: at(0.5), p95: at(0.95) };
}

/** `n` requests one after another. */
async function time(name: string, n: number, fn: () => Promise<void>) {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  const { p50, p95 } = percentiles(samples);
  console.log(
    `${name.padEnd(58)} n=${String(n).padStart(4)}  p50 ${fmt(p50)} ms  p95 ${fmt(p95)} ms`,
  );
}

/** `total` requests by `concurrency` clients at once: latency of each, and throughput. */
async function load(name: string, total: number, concurrency: number, fn: () => Promise<void>) {
  const samples: number[] = [];
  let started = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started++ < total) {
        const t1 = performance.now();
        await fn();
        samples.push(performance.now() - t1);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const { p50, p95 } = percentiles(samples);
  console.log(
    `${name.padEnd(58)} n=${String(total).padStart(4)}  p50 ${fmt(p50)} ms  p95 ${fmt(p95)} ms  ${(total / seconds).toFixed(0).padStart(5)} req/s`,
  );
}

const json = { 'content-type': 'application/json' };

async function signIn(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/v1/rest-auth/app/login/`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}

/** Sign-in, the session check, config and health, for a freshly registered account. */
async function accountPaths(base: string, dataDir: string) {
  const email = `bench@example.com`;
  const password = 'Bench mark passphrase 1';
  const reg = (await fetch(`${base}/v1/rest-auth/registration/`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      email,
      password1: password,
      password2: password,
      first_name: 'B',
      last_name: 'M',
    }),
  }).then((r) => r.json())) as { token: string };
  const mailDir = path.join(dataDir, 'mail');
  let code: string | undefined;
  for (let i = 0; !code && i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const file = fs.existsSync(mailDir) ? fs.readdirSync(mailDir)[0] : undefined;
    if (file) code = /^(\d{6})$/m.exec(fs.readFileSync(path.join(mailDir, file), 'utf8'))?.[1];
  }
  if (!code) throw new Error('no activation code was written');
  const act = await fetch(`${base}/v1/rest-auth/registration/activation/`, {
    method: 'PATCH',
    headers: { ...json, authorization: `Bearer ${reg.token}` },
    body: JSON.stringify({ code }),
  });
  if (act.status !== 200) throw new Error(`activation answered ${act.status}`);

  let token = '';
  // Stays under the per-IP sign-in limit (50 per 15 minutes).
  await time('POST /v1/rest-auth/app/login/ (argon2id)', 30, async () => {
    token = await signIn(base, email, password);
  });
  await time('GET /v1/rest-auth/user/ (token + session check)', 500, async () => {
    await (
      await fetch(`${base}/v1/rest-auth/user/`, { headers: { authorization: `Bearer ${token}` } })
    ).text();
  });
  await time('GET /v1/config', 500, async () => {
    await (await fetch(`${base}/v1/config`)).text();
  });
  await time('GET /v1/health (database ping)', 500, async () => {
    await (await fetch(`${base}/v1/health`)).text();
  });
}

/** GET /v1/me/organizations/and/clients/ for the seeded user, at limit 250 and 20. */
async function organizationList(base: string, tenant: { email: string; password: string }) {
  const headers = { authorization: `Bearer ${await signIn(base, tenant.email, tenant.password)}` };
  // Each answer is read whole but not parsed (the client's JSON.parse is not the server's time):
  // its status and count are checked.
  const list = (limit: number) => async () => {
    const res = await fetch(`${base}/v1/me/organizations/and/clients/?limit=${limit}`, { headers });
    const text = await res.text();
    if (res.status !== 200 || !text.startsWith(`{"count":${ORGANIZATIONS},`)) {
      throw new Error(`the organization list answered ${res.status}: ${text.slice(0, 200)}`);
    }
  };
  const seen = (await (
    await fetch(`${base}/v1/me/organizations/and/clients/?limit=250`, { headers })
  ).json()) as { results: { clients: unknown[] }[] };
  const workspaces = seen.results.reduce((n, e) => n + e.clients.length, 0);
  console.log(`  (${ORGANIZATIONS} organizations, ${workspaces} workspaces seen by the user)`);
  for (let i = 0; i < 10; i++) await list(250)(); // warm-up
  const path = 'GET /v1/me/organizations/and/clients/';
  await time(`${path}?limit=250`, 100, list(250));
  await time(`${path}?limit=20`, 300, list(20));
  await load(`${path}?limit=250 ×${CONCURRENCY} concurrent`, 300, CONCURRENCY, list(250));
  await load(`${path}?limit=20 ×${CONCURRENCY} concurrent`, 1000, CONCURRENCY, list(20));
}

async function bench(engine: 'pglite' | 'postgres', adminUrl?: string) {
  await withBenchServer(engine, adminUrl, {
    env: { BENCH_ORGANIZATIONS: String(ORGANIZATIONS), BENCH_WORKSPACES: String(WORKSPACES) },
    seed: (env) => benchCli<{ email: string; password: string }>(['seed'], env),
    run: async ({ base, dataDir, seeded }) => {
      await accountPaths(base, dataDir);
      await organizationList(base, seeded);
    },
  });
}

await bench('pglite');
const adminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
if (adminUrl) await bench('postgres', adminUrl);
else
  console.log('\n(PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL to include it)');
