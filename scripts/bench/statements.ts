// Figure 4b of issue 12: SQL statements per request, counted on the wire (statement-counter.ts)
// by a second instance of the server on the same database, started for this alone so that the
// proxy never sits in front of the timed one. What the instance runs by itself meanwhile (jobs
// polling) is measured while it is idle and taken off.
import { startApiServer } from '../lib/bench.ts';
import { startStatementCounter } from './statement-counter.ts';

const REQUESTS = 50;
const IDLE_MS = 2_000;

export async function statementsPerRequest(
  env: NodeJS.ProcessEnv,
  token: string,
  urls: string[],
): Promise<Map<string, number>> {
  const database = new URL(env.DATABASE_URL!);
  const counter = await startStatementCounter({
    host: database.hostname,
    port: Number(database.port || 5432),
  });
  const viaCounter = new URL(database);
  viaCounter.hostname = '127.0.0.1';
  viaCounter.port = String(counter.port);
  const server = await startApiServer({
    ...env,
    DATABASE_URL: viaCounter.toString(),
    WEB_CONCURRENCY: '1',
  });
  try {
    const headers = { authorization: `Bearer ${token}` };
    const get = async (url: string) => {
      const res = await fetch(`${server.base}${url}`, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    };
    // Warm: a first request may fill a cache that the following ones use.
    for (const url of urls) for (let i = 0; i < 3; i++) await get(url);
    let before = counter.count();
    let started = performance.now();
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const idlePerMs = (counter.count() - before) / (performance.now() - started);
    const result = new Map<string, number>();
    for (const url of urls) {
      before = counter.count();
      started = performance.now();
      for (let i = 0; i < REQUESTS; i++) await get(url);
      const background = idlePerMs * (performance.now() - started);
      result.set(url, Math.max(0, counter.count() - before - background) / REQUESTS);
    }
    return result;
  } finally {
    await server.stop();
    await counter.close();
  }
}
