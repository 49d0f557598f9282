import pg from 'pg';
import type { AppConfig } from '../config.ts';
import { buildApp } from '../app.ts';
import type { Database } from '../db/client.ts';
import { SCALE_USER } from './bench-scale.ts';

/**
 * Where `npm run bench:scale` looks when a list is slower on the big database: the requests run
 * in this process, on the real app, with every statement the pg driver sends timed (the pool's
 * queries and those of clients it lends to transactions). For each request: each distinct
 * statement's median time over `repeat` runs, slowest first, and for the slowest few the plan
 * PostgreSQL chose, with `EXPLAIN (ANALYZE, BUFFERS)` on the parameters the app sent (in a
 * transaction rolled back, should a statement write).
 */

export interface TracedStatement {
  sql: string;
  /** Median over the runs, ms. */
  ms: number;
  /** How often one request runs it. */
  times: number;
  plan?: string[];
}

interface Sent {
  text: string;
  values: unknown[] | undefined;
  ms: number;
}

type Query = (...args: unknown[]) => unknown;

/** Times every statement of the pool (and of the clients it lends) into `sent`. */
function timeStatements(database: Database, sent: Sent[]): () => void {
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  const timed = (original: Query, self: unknown): Query =>
    function (...args: unknown[]) {
      const [first, second] = args;
      const text = typeof first === 'string' ? first : (first as { text?: string })?.text;
      const values =
        (typeof first === 'object' && (first as { values?: unknown[] })?.values) ||
        (Array.isArray(second) ? second : undefined);
      const t0 = performance.now();
      const result = original.apply(self, args);
      if (text && result instanceof Promise) {
        result.then(
          () => sent.push({ text, values, ms: performance.now() - t0 }),
          () => undefined,
        );
      }
      return result;
    };
  const query = pool.query as unknown as Query;
  const connect = pool.connect;
  pool.query = timed(query, pool) as typeof pool.query;
  pool.connect = function (this: pg.Pool, ...args: unknown[]) {
    if (args.length > 0) return (connect as unknown as Query).apply(this, args);
    return (connect as unknown as () => Promise<pg.PoolClient>).call(this).then((client) => {
      const own = client.query as unknown as Query;
      if (!(own as { timed?: boolean }).timed) {
        const wrapped = timed(own, client) as Query & { timed?: boolean };
        wrapped.timed = true;
        client.query = wrapped as typeof client.query;
      }
      return client;
    });
  } as typeof pool.connect;
  return () => {
    pool.query = query as typeof pool.query;
    pool.connect = connect;
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

async function explain(config: AppConfig, statement: Sent): Promise<string[]> {
  const client = new pg.Client({ connectionString: config.databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    const result = await client.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers) ${statement.text}`,
      statement.values,
    );
    return result.rows.map((r) => r['QUERY PLAN']);
  } catch (err) {
    return [`(no plan: ${(err as Error).message})`];
  } finally {
    await client.query('rollback').catch(() => undefined);
    await client.end();
  }
}

export async function traceRequests(
  config: AppConfig,
  database: Database,
  urls: string[],
  options: { repeat: number; explainTop: number },
): Promise<Record<string, TracedStatement[]>> {
  const app = await buildApp(config, { database, startWorkers: false });
  await app.ready();
  try {
    const login = await app.inject({
      method: 'POST',
      url: '/v1/rest-auth/app/login/',
      payload: SCALE_USER,
    });
    if (login.statusCode !== 200) throw new Error(`sign-in answered ${login.statusCode}`);
    const headers = { authorization: `Bearer ${login.json<{ token: string }>().token}` };
    const traced: Record<string, TracedStatement[]> = {};
    for (const url of urls) {
      // Warm: the session and what the app caches, the plans PostgreSQL caches.
      for (let i = 0; i < 3; i++) await app.inject({ url, headers });
      const runs: Sent[][] = [];
      for (let i = 0; i < options.repeat; i++) {
        const sent: Sent[] = [];
        const restore = timeStatements(database, sent);
        const res = await app.inject({ url, headers });
        restore();
        if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
        runs.push(sent);
      }
      const byText = new Map<string, { ms: number[]; last: Sent; count: number }>();
      for (const sent of runs) {
        const perRun = new Map<string, number>();
        for (const s of sent) {
          perRun.set(s.text, (perRun.get(s.text) ?? 0) + s.ms);
          const entry = byText.get(s.text) ?? { ms: [], last: s, count: 0 };
          entry.last = s;
          entry.count++;
          byText.set(s.text, entry);
        }
        for (const [text, ms] of perRun) byText.get(text)!.ms.push(ms);
      }
      const statements = [...byText.values()]
        .map((e) => ({
          sql: e.last.text,
          ms: median(e.ms),
          times: Math.round(e.count / runs.length),
          last: e.last,
        }))
        .sort((a, b) => b.ms - a.ms);
      traced[url] = [];
      for (const [i, s] of statements.entries()) {
        const plan = i < options.explainTop ? await explain(config, s.last) : undefined;
        traced[url].push({ sql: s.sql, ms: s.ms, times: s.times, ...(plan && { plan }) });
      }
    }
    return traced;
  } finally {
    await app.close();
  }
}
