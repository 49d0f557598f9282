// `npm run bench:scale` (issue 12): the cost of any list grows no faster than its page. Two
// databases on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL names the server): FULL, with
// 10,000 organizations, 100,000 users and a million activities (apps/api/src/seed/bench-scale.ts
// says what else), and SMALL, 1/100 of it. The measured user sees the same amounts in both. A
// server runs on each; for every list endpoint of apps/api/openapi.json (a GET with a `limit`
// parameter, or answering {count, next, previous, results}) the first page, and a deeper one
// where the list has more, is asked N times of each server, alternately (so the machine's noise
// falls on both alike), and the p95s are compared: FULL within 2× of SMALL. Where a list is over,
// its statements are timed on both databases and the plan of the one that grew is printed.
//
//   BENCH_SCALE_ORGANIZATIONS  FULL's organizations (10000); SMALL has 1/100
//   BENCH_SCALE_N              requests per page and database (100)
//   BENCH_KEEP=1               keep both databases (and reuse them on the next run with it set)
import fs from 'node:fs';
import path from 'node:path';
import { benchCli, withBenchServer, type BenchServer } from './lib/bench.ts';
import { API_DIR } from './lib/paths.ts';

const SCALE_CLI = path.join(API_DIR, 'src', 'seed', 'bench-scale-cli.ts');
const FULL = Number(process.env.BENCH_SCALE_ORGANIZATIONS ?? 10_000);
const SMALL = Math.max(1, Math.round(FULL / 100));
/** What the measured user sees of each kind: three pages of LIMIT. */
const DEPTH = 60;
const LIMIT = 20;
const N = Number(process.env.BENCH_SCALE_N ?? 100);
const WARM_UP = 5;
const TARGET = 2;
const KEEP = process.env.BENCH_KEEP === '1';
/** What the seed (seed/bench-scale.ts) names the measured organization and workspace. */
const HQ_NAME = 'Scale Bench HQ';
const W0_NAME = 'Workspace 000';

interface Seeded {
  email: string;
  password: string;
  reused: boolean;
  seconds: number;
  rows: Record<string, number>;
}

// ---- the list endpoints, from the OpenAPI document -------------------------------------------

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { maximum?: number };
}
interface Operation {
  parameters?: Parameter[];
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

interface ListEndpoint {
  path: string;
  paged: boolean;
  limit?: Parameter;
  page?: Parameter;
  /** Why it cannot be measured here, if so. */
  skip?: string;
}

/** Path parameters the bench knows how to fill: the measured user's organization and workspace. */
const KNOWN_PATH_PARAMETERS = ['orgId', 'id', 'clientId', 'app'];

function listEndpoints(): ListEndpoint[] {
  const doc = JSON.parse(fs.readFileSync(path.join(API_DIR, 'openapi.json'), 'utf8')) as {
    paths: Record<string, { get?: Operation }>;
  };
  const found: ListEndpoint[] = [];
  for (const [route, item] of Object.entries(doc.paths)) {
    const get = item.get;
    if (!get) continue;
    const params = get.parameters ?? [];
    const query = (name: string) => params.find((p) => p.in === 'query' && p.name === name);
    const schema = get.responses?.['200']?.content?.['application/json']?.schema as
      { properties?: Record<string, unknown> } | undefined;
    const props = Object.keys(schema?.properties ?? {});
    const paged = ['count', 'next', 'previous', 'results'].every((p) => props.includes(p));
    const limit = query('limit');
    if (!limit && !paged) continue;
    const unknown = params.filter(
      (p) =>
        (p.in === 'path' && !KNOWN_PATH_PARAMETERS.includes(p.name)) ||
        (p.in === 'query' && p.required && !['page', 'limit'].includes(p.name)),
    );
    found.push({
      path: route,
      paged,
      limit,
      page: query('page'),
      ...(unknown.length && { skip: `no value for ${unknown.map((p) => p.name).join(', ')}` }),
    });
  }
  return found;
}

// ---- one database's server, as the measured user sees it ------------------------------------

interface Side {
  name: 'SMALL' | 'FULL';
  server: BenchServer<Seeded>;
  headers: Record<string, string>;
  values: Record<string, string>;
}

async function getJson<T>(side: Side, url: string): Promise<T> {
  const res = await fetch(`${side.server.base}${url}`, { headers: side.headers });
  if (res.status !== 200) throw new Error(`${side.name} ${url} answered ${res.status}`);
  return (await res.json()) as T;
}

/** Signs the measured user in and finds their organization and its first workspace. */
async function sideOf(name: Side['name'], server: BenchServer<Seeded>): Promise<Side> {
  const { email, password } = server.seeded;
  const login = await fetch(`${server.base}/v1/rest-auth/app/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (login.status !== 200) throw new Error(`${name}: sign-in answered ${login.status}`);
  const { token } = (await login.json()) as { token: string };
  const side: Side = { name, server, headers: { authorization: `Bearer ${token}` }, values: {} };
  const config = await getJson<{ app_profile: string }>(side, '/v1/config');
  const orgs = await getJson<{ results: { id: string; name: string }[] }>(
    side,
    '/v1/organizations/?limit=999',
  );
  const hq = orgs.results.find((o) => o.name === HQ_NAME);
  if (!hq) throw new Error(`${name}: the measured user is not in ${HQ_NAME}`);
  const workspaces = await getJson<{ results: { id: string; name: string }[] }>(
    side,
    `/v1/organizations/${hq.id}/clients/?limit=999`,
  );
  const w0 = workspaces.results.find((w) => w.name === W0_NAME);
  if (!w0) throw new Error(`${name}: no ${W0_NAME} in ${HQ_NAME}`);
  side.values = { orgId: hq.id, id: w0.id, clientId: w0.id, app: config.app_profile };
  return side;
}

function urlOf(side: Side, endpoint: ListEndpoint, page: number): string {
  const route = endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => side.values[name]!);
  const query = new URLSearchParams();
  if (endpoint.limit)
    query.set('limit', String(Math.min(LIMIT, endpoint.limit.schema?.maximum ?? LIMIT)));
  if (page > 1) query.set('page', String(page));
  return `${route}?${query}`;
}

/** How many items the list has, and how many this page holds. */
async function sizeOf(side: Side, url: string): Promise<{ count: number; page: number }> {
  const body = await getJson<{ count?: number; results?: unknown[] } | unknown[]>(side, url);
  if (Array.isArray(body)) return { count: body.length, page: body.length };
  return { count: body.count ?? 0, page: body.results?.length ?? 0 };
}

async function timeOne(side: Side, url: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${side.server.base}${url}`, { headers: side.headers });
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${side.name} ${url} answered ${res.status}`);
  return ms;
}

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
  return { p50: at(0.5), p95: at(0.95) };
}

/** N requests of each side, one after another, alternating which side goes first. */
async function timePair(small: Side, smallUrl: string, full: Side, fullUrl: string) {
  const samples = { small: [] as number[], full: [] as number[] };
  for (let i = 0; i < WARM_UP + N; i++) {
    const order = i % 2 ? (['small', 'full'] as const) : (['full', 'small'] as const);
    for (const which of order) {
      const ms = which === 'small' ? await timeOne(small, smallUrl) : await timeOne(full, fullUrl);
      if (i >= WARM_UP) samples[which].push(ms);
    }
  }
  return { small: percentiles(samples.small), full: percentiles(samples.full) };
}

// ---- the report -----------------------------------------------------------------------------

interface Over {
  label: string;
  smallUrl: string;
  fullUrl: string;
}

const ms = (v: number) => `${v.toFixed(1).padStart(6)} ms`;
// The p50s are there to tell a slower list from a noisy machine: the verdict is on the p95s.
const COLUMNS = `${'endpoint'.padEnd(62)} ${'page'.padStart(4)} ${'items S/F'.padStart(9)} ${'p50 S/F ms'.padStart(12)}  ${'p95 small'.padStart(9)}  ${'p95 full'.padStart(9)}  ${'ratio'.padStart(6)}  target`;

async function measure(small: Side, full: Side, endpoints: ListEndpoint[]): Promise<Over[]> {
  console.log(`\n${COLUMNS}`);
  const over: Over[] = [];
  let within = 0;
  let rows = 0;
  for (const endpoint of endpoints) {
    const label = `GET ${endpoint.path}`;
    if (endpoint.skip) {
      console.log(`${label.padEnd(62)} skipped: ${endpoint.skip}`);
      continue;
    }
    let sizes: [Awaited<ReturnType<typeof sizeOf>>, Awaited<ReturnType<typeof sizeOf>>];
    try {
      sizes = [
        await sizeOf(small, urlOf(small, endpoint, 1)),
        await sizeOf(full, urlOf(full, endpoint, 1)),
      ];
    } catch (err) {
      console.log(`${label.padEnd(62)} ✗ ${(err as Error).message}`);
      rows++;
      continue;
    }
    const pages = [1];
    const limit = Math.min(LIMIT, endpoint.limit?.schema?.maximum ?? LIMIT);
    const deepest = Math.ceil(Math.min(sizes[0].count, sizes[1].count) / limit);
    if (endpoint.page && deepest > 1) pages.push(Math.min(3, deepest));
    for (const page of pages) {
      const smallUrl = urlOf(small, endpoint, page);
      const fullUrl = urlOf(full, endpoint, page);
      const [s, f] =
        page === 1 ? sizes : [await sizeOf(small, smallUrl), await sizeOf(full, fullUrl)];
      const t = await timePair(small, smallUrl, full, fullUrl);
      const ratio = t.full.p95 / t.small.p95;
      const ok = ratio <= TARGET;
      rows++;
      if (ok) within++;
      else over.push({ label: `${label} page ${page}`, smallUrl, fullUrl });
      const items = `${s.page}/${f.page}`;
      const p50s = `${t.small.p50.toFixed(1)}/${t.full.p50.toFixed(1)}`;
      const note = s.page !== f.page ? '  (pages differ in size: not comparable)' : '';
      console.log(
        `${label.padEnd(62)} ${String(page).padStart(4)} ${items.padStart(9)} ${p50s.padStart(12)}  ${ms(t.small.p95)}  ${ms(t.full.p95)}  ${ratio.toFixed(2).padStart(5)}×  ≤ ${TARGET}×  ${ok ? '✓' : '✗'}${note}`,
      );
    }
  }
  console.log(`\n${within} of ${rows} pages within ${TARGET}× (p95 of ${N} requests each)`);
  return over;
}

interface Traced {
  sql: string;
  ms: number;
  times: number;
  plan?: string[];
}

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();

/** For each list over the target: its statements on both databases, the one that grew first. */
function diagnose(small: Side, full: Side, over: Over[]) {
  if (!over.length) return;
  console.log('\nWhere the time goes (median of 7 runs in process, per statement):');
  const traceOf = (side: Side, urls: string[]) =>
    benchCli<Record<string, Traced[]>>(['trace', ...urls], side.server.env, SCALE_CLI);
  const smallTraces = traceOf(
    small,
    over.map((o) => o.smallUrl),
  );
  const fullTraces = traceOf(
    full,
    over.map((o) => o.fullUrl),
  );
  for (const o of over) {
    const before = new Map((smallTraces[o.smallUrl] ?? []).map((s) => [s.sql, s]));
    const grown = (fullTraces[o.fullUrl] ?? [])
      .map((s) => ({ ...s, small: before.get(s.sql)?.ms ?? 0 }))
      .sort((a, b) => b.ms - b.small - (a.ms - a.small));
    console.log(`\n  ${o.label}`);
    for (const s of grown.slice(0, 3)) {
      console.log(
        `    ${s.small.toFixed(2).padStart(7)} → ${s.ms.toFixed(2).padStart(7)} ms ×${s.times}  ${oneLine(s.sql).slice(0, 220)}`,
      );
    }
    const worst = grown.find((s) => s.plan);
    if (worst?.plan) {
      console.log(`    plan on FULL of: ${oneLine(worst.sql).slice(0, 120)}`);
      for (const line of worst.plan.slice(0, 30)) console.log(`      ${line}`);
    }
  }
}

// ---- the two databases ----------------------------------------------------------------------

function withScaleServer(
  adminUrl: string,
  name: Side['name'],
  organizations: number,
  run: (side: Side) => Promise<void>,
): Promise<void> {
  const kept = KEEP
    ? benchCli<{ name: string; url: string }>(
        ['keep-database', adminUrl, `portolan_bench_scale_${organizations}_${DEPTH}`],
        process.env,
        SCALE_CLI,
      )
    : undefined;
  return withBenchServer<Seeded>('postgres', adminUrl, {
    title: `${name}: ${organizations.toLocaleString('en-US')} organizations on PostgreSQL`,
    ...(kept && { database: kept }),
    // One process per server: the requests are sequential, and the two servers share the cores.
    env: { WEB_CONCURRENCY: '1' },
    seed: (env) => {
      const seeded = benchCli<Seeded>(
        ['seed', String(organizations), String(DEPTH)],
        env,
        SCALE_CLI,
      );
      const rows = Object.entries(seeded.rows)
        .map(([table, n]) => `${table} ${n.toLocaleString('en-US')}`)
        .join(', ');
      console.log(
        seeded.reused
          ? `  (kept from an earlier run: ${kept?.url})`
          : `  generated in ${seeded.seconds.toFixed(1)} s`,
      );
      console.log(`  ${rows}`);
      return seeded;
    },
    run: async (server) => {
      await run(await sideOf(name, server));
      if (kept) console.log(`\n  ${name} kept (BENCH_KEEP=1): ${kept.url}`);
    },
  });
}

const adminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
if (!adminUrl) {
  console.error(
    'bench:scale runs on PostgreSQL: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a server.',
  );
  process.exit(2);
}
const endpoints = listEndpoints();
console.log(`List endpoints in apps/api/openapi.json (${endpoints.length}):`);
for (const e of endpoints) {
  const how = [e.paged ? 'paged' : 'not paged', e.limit ? 'limit' : '', e.page ? 'page' : '']
    .filter(Boolean)
    .join(', ');
  console.log(`  GET ${e.path}  (${how})${e.skip ? `  skipped: ${e.skip}` : ''}`);
}
await withScaleServer(adminUrl, 'SMALL', SMALL, (small) =>
  withScaleServer(adminUrl, 'FULL', FULL, async (full) => {
    const over = await measure(small, full, endpoints);
    diagnose(small, full, over);
  }),
);
