// `npm run bench`: every figure of issue 12 with its ratio and its target, measured in one run on
// a real server (`apps/api/src/server.ts` as `npm start` runs it, WEB_CONCURRENCY passed through)
// on a fresh PostgreSQL database (BENCH_DATABASE_URL or TEST_DATABASE_URL; made and dropped here),
// and on the embedded PGlite as information. The data: one user in 250 organizations of 10
// workspaces each, with a bell to count, and accounts to sign in (apps/api/src/seed/bench.ts).
//
// On PostgreSQL, for each hot read: requests per second under `wrk -t2 -c20 -d10s` on our server,
// on a bare Fastify server answering the same bytes (bench/bare-server.ts, as many processes as
// ours) and on the Django REST reference answering the same JSON (bench/reference/, gunicorn);
// the organization list's p50 at limit 250 and 20, one request at a time, and its SQL statements
// per request (counted on the wire); sign-ins per second against raw argon2id verifications per
// second; a tenant read with an API key against a session (issue 21); the server's memory 10 s
// after start and after the load. Then a table of them all.
//
// wrk and the reference's Debian packages are installed when missing and running as root; else
// the bench prints the apt-get line and stops (wrk) or leaves the reference column out.
// BENCH_DURATION (wrk's -d, 10s), BENCH_CONNECTIONS (20), BENCH_THREADS (2); BENCH_PGLITE=false
// leaves PGlite out. Numbers, not pass/fail: performance targets live here, not in timed tests.
import crypto from 'node:crypto';
import { benchCli, withBenchServer, type BenchServer } from './lib/bench.ts';
import { compareKeyToSession } from './bench/api-key-read.ts';
import { startBareServer, type BareServer } from './bench/bare.ts';
import { HOT_READS, captureAnswers, checkReference, compareHotReads } from './bench/hot-reads.ts';
import { memoryOf, servingProcesses, type Memory } from './bench/processes.ts';
import {
  REFERENCE_WORKERS,
  ensureReference,
  startReference,
  type ReferenceServer,
} from './bench/reference.ts';
import { mark, megabytes, milliseconds, printTable, type Row } from './bench/report.ts';
import { sequentially } from './bench/sequential.ts';
import { measureSignIn } from './bench/sign-in.ts';
import { statementsPerRequest } from './bench/statements.ts';
import { ensureWrk, type LoadShape } from './bench/wrk.ts';

const ORGANIZATIONS = 250;
const WORKSPACES = 10;
/** Accounts the sign-in load spreads over (each wrk thread its own share). */
const SIGN_INS = 64;
const LIST = '/v1/me/organizations/and/clients/';
const LIST_TARGETS = { 250: 50, 20: 10 } as const;
const MEMORY_TARGET_MB = 150;
const IDLE_AFTER_START_MS = 10_000;
const IDLE_AFTER_LOAD_MS = 5_000;

const shape: LoadShape = {
  threads: Number(process.env.BENCH_THREADS ?? 2),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 20),
  duration: process.env.BENCH_DURATION ?? '10s',
};
/** wrk's duration in ms (for the argon2id run, as long as the sign-in load). */
const durationMs = (() => {
  const m = /^(\d+(?:\.\d+)?)(s|m|h)?$/.exec(shape.duration);
  if (!m) throw new Error(`BENCH_DURATION: "${shape.duration}" is not like 10s`);
  return Number(m[1]) * { s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? 's']!;
})();
/** Both our server and the reference verify tokens with it. */
const JWT_SECRET = crypto.randomBytes(32).toString('hex');

interface Seeded {
  email: string;
  password: string;
  signIns: { emails: string[]; password: string };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function signIn(base: string, who: { email: string; password: string }) {
  const res = await fetch(`${base}/v1/rest-auth/app/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: who.email, password: who.password }),
  });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}

/** Figure 4: the organization list one request at a time, at limit 250 and 20. */
async function listLatency(base: string, token: string, judged: boolean): Promise<Row[]> {
  const headers = { authorization: `Bearer ${token}` };
  const list = (limit: number) => async () => {
    const res = await fetch(`${base}${LIST}?limit=${limit}`, { headers });
    // Read whole, not parsed (the client's JSON.parse is not the server's time); status and
    // count checked.
    const text = await res.text();
    if (res.status !== 200 || !text.startsWith(`{"count":${ORGANIZATIONS},`)) {
      throw new Error(`the organization list answered ${res.status}: ${text.slice(0, 200)}`);
    }
  };
  for (let i = 0; i < 10; i++) await list(250)(); // warm-up
  const rows: Row[] = [];
  for (const [limit, n] of [
    [250, 100],
    [20, 300],
  ] as const) {
    const { p50, p95 } = await sequentially(n, list(limit));
    const target = LIST_TARGETS[limit];
    const met = judged ? p50 < target : null;
    console.log(
      `  ${`GET ${LIST}?limit=${limit}`.padEnd(48)} one at a time: p50 ${milliseconds(p50)}, p95 ${milliseconds(p95)}` +
        (judged ? ` (target p50 < ${target} ms) ${mark(met)}` : ''),
    );
    rows.push({
      figure: `GET ${LIST}?limit=${limit} p50, one at a time`,
      value: milliseconds(p50),
      ratio: '',
      target: judged ? `< ${target} ms` : '',
      met,
    });
  }
  return rows;
}

/** Figure 4b: statements per request at limit 20 and 250 (the same at any page size). */
async function statementRows(server: BenchServer<Seeded>, token: string): Promise<Row[]> {
  const urls = [`${LIST}?limit=20`, `${LIST}?limit=250`, ...HOT_READS.map((r) => r.url)];
  const counts = await statementsPerRequest(server.env, token, [...new Set(urls)]);
  const of = (url: string) => Math.round(counts.get(url)! * 10) / 10;
  console.log(
    `  SQL statements per request (on the wire): ${[...counts.keys()].map((u) => `${u} ${of(u)}`).join(', ')}`,
  );
  // Whole statements: a tenth either way is what the instance ran by itself meanwhile.
  const fixed =
    Math.round(counts.get(`${LIST}?limit=20`)!) === Math.round(counts.get(`${LIST}?limit=250`)!);
  return [
    {
      figure: `GET ${LIST} statements at limit 20 / 250`,
      value: `${of(`${LIST}?limit=20`)} / ${of(`${LIST}?limit=250`)}`,
      ratio: '',
      target: 'the same',
      met: fixed,
    },
  ];
}

/** Figure 6: the server's resident memory, per process and in all. */
function memoryRow(when: string, memory: Memory, judged: boolean): Row {
  const met = judged ? memory.largestMb < MEMORY_TARGET_MB : null;
  const each = memory.processes.map((p) => megabytes(p.mb)).join(' + ');
  console.log(
    `  memory ${when}: ${megabytes(memory.totalMb)} in ${memory.processes.length} process(es) (${each}); largest ${megabytes(memory.largestMb)}` +
      (judged ? ` (target < ${MEMORY_TARGET_MB} MB per server process) ${mark(met)}` : ''),
  );
  return {
    figure: `memory ${when} (largest process; all)`,
    value: `${megabytes(memory.largestMb)}; ${megabytes(memory.totalMb)}`,
    ratio: '',
    target: judged ? `< ${MEMORY_TARGET_MB} MB` : '',
    met,
  };
}

async function bench(engine: 'pglite' | 'postgres', adminUrl?: string): Promise<Row[]> {
  const postgres = engine === 'postgres';
  const rows: Row[] = [];
  await withBenchServer<Seeded>(engine, adminUrl, {
    env: {
      BENCH_ORGANIZATIONS: String(ORGANIZATIONS),
      BENCH_WORKSPACES: String(WORKSPACES),
      BENCH_SIGN_INS: String(SIGN_INS),
      JWT_SECRET,
      LOG_LEVEL: 'error',
      // As behind a load balancer: each sign-in request carries its own X-Forwarded-For, so the
      // per-IP limit sees many addresses (sign-in.ts).
      TRUST_PROXY: 'true',
      // The API-key read is measured for its cost, not its limit (600 a minute by default).
      API_KEY_RATE_LIMIT: '1000000000',
    },
    seed: (env) => benchCli<Seeded>(['seed'], env),
    run: async (server) => {
      const token = await signIn(server.base, server.seeded);
      const answers = await captureAnswers(server.base, token);
      await sleep(Math.max(0, server.startedAt + IDLE_AFTER_START_MS - performance.now()));
      const idle = memoryOf(server.pid);
      const idleAt = Math.round((performance.now() - server.startedAt) / 1000);
      const processes = servingProcesses(server.pid);
      console.log(
        `  our server: ${processes} process(es) serving (WEB_CONCURRENCY=${process.env.WEB_CONCURRENCY ?? 'unset'}); load: wrk -t${shape.threads} -c${shape.connections} -d${shape.duration}`,
      );

      let bare: BareServer | null = null;
      let reference: ReferenceServer | null = null;
      try {
        if (postgres) {
          bare = await startBareServer(answers, processes);
          const version = (await import('fastify/package.json', { with: { type: 'json' } })).default
            .version;
          console.log(`  bare Fastify ${version}: ${processes} process(es), no hooks, no database`);
          if (ensureReference()) {
            reference = await startReference({
              databaseUrl: server.env.DATABASE_URL!,
              jwtSecret: JWT_SECRET,
              appProfile: server.env.APP_PROFILE,
            }).catch((err: Error) => {
              console.log(`  (reference skipped: ${err.message})`);
              return null;
            });
            if (reference) {
              console.log(`  Django REST reference: gunicorn, ${REFERENCE_WORKERS} sync workers`);
            }
          }
        }
        const verdicts = reference
          ? await checkReference(reference.base, answers, token)
          : new Map<string, string | null>();
        rows.push(
          ...(await compareHotReads({
            token,
            ours: server.base,
            bare: bare?.base ?? null,
            reference: reference?.base ?? null,
            referenceVerdicts: verdicts,
            shape,
          })),
        );
      } finally {
        await bare?.stop();
        await reference?.stop();
      }

      rows.push(...(await listLatency(server.base, token, postgres)));
      rows.push(await compareKeyToSession(server.base, token, shape, postgres));
      rows.push(
        await measureSignIn({
          base: server.base,
          accounts: server.seeded.signIns,
          shape,
          processes: postgres ? processes : null,
          durationMs,
        }),
      );
      await sleep(IDLE_AFTER_LOAD_MS);
      rows.push(memoryRow(`${idleAt} s after start`, idle, postgres));
      rows.push(memoryRow('after the load', memoryOf(server.pid), postgres));
      if (postgres) rows.push(...(await statementRows(server, token)));
    },
  });
  return rows;
}

if (!ensureWrk()) {
  console.error('npm run bench measures with wrk: apt-get install -y wrk');
  process.exit(1);
}
if (process.env.BENCH_PGLITE !== 'false') {
  printTable('PGlite (embedded), information only', await bench('pglite'));
}
const adminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
if (adminUrl) printTable('PostgreSQL: the figures of issue 12', await bench('postgres', adminUrl));
else
  console.log('\n(PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL to include it)');
