// Figures 1–3 of issue 12: the throughput of each hot read on our server, on a bare Fastify route
// answering the same bytes, and on the Django REST reference answering the same JSON.
import type { CapturedAnswer } from './bare.ts';
import { firstDifference } from './compare.ts';
import { milliseconds, percent, requestsPerSecond, times, mark, type Row } from './report.ts';
import { runWrk, type LoadResult, type LoadShape } from './wrk.ts';

export interface HotRead {
  /** Path and query, as requested. */
  url: string;
  /** Sent with the session token; the reference serves only these. */
  authenticated: boolean;
}

export const HOT_READS: HotRead[] = [
  { url: '/v1/rest-auth/user/', authenticated: true },
  { url: '/v1/me/organizations/and/clients/?limit=20', authenticated: true },
  { url: '/v1/user/notification/new/', authenticated: true },
  { url: '/v1/config', authenticated: false },
];

export const REFERENCE_TARGET = 5;
export const BARE_TARGET = 0.25;

const headersFor = (read: HotRead, token: string): Record<string, string> =>
  read.authenticated ? { Authorization: `Bearer ${token}` } : {};

/** Our answer to each hot read (status 200 required): what the bare server will answer. */
export async function captureAnswers(base: string, token: string): Promise<CapturedAnswer[]> {
  return Promise.all(
    HOT_READS.map(async (read) => {
      const res = await fetch(`${base}${read.url}`, { headers: headersFor(read, token) });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${read.url} answered ${res.status}: ${body}`);
      return {
        path: read.url.split('?')[0]!,
        contentType: res.headers.get('content-type') ?? 'application/json',
        body,
      };
    }),
  );
}

/**
 * The reads the reference answers exactly as we do (same status 200, same JSON document); for
 * the others, why not. A reference that answers something else is not a reference.
 */
export async function checkReference(
  reference: string,
  ours: CapturedAnswer[],
  token: string,
): Promise<Map<string, string | null>> {
  const verdicts = new Map<string, string | null>();
  for (const [i, read] of HOT_READS.entries()) {
    if (!read.authenticated) continue;
    const res = await fetch(`${reference}${read.url}`, { headers: headersFor(read, token) });
    const body = await res.text();
    let problem: string | null;
    if (res.status !== 200) problem = `answered ${res.status}: ${body.slice(0, 200)}`;
    else {
      try {
        problem = firstDifference(JSON.parse(ours[i]!.body), JSON.parse(body));
      } catch {
        problem = `answered no JSON: ${body.slice(0, 200)}`;
      }
    }
    verdicts.set(read.url, problem);
  }
  return verdicts;
}

/** wrk's answer, or why the run does not count (non-2xx answers or socket errors). */
const describe = (r: LoadResult) =>
  `${requestsPerSecond(r.requestsPerSecond)} p50 ${milliseconds(r.p50Ms)}` +
  (r.failures ? ` (failed: ${r.failureKinds}!)` : '');

/**
 * Times each hot read on each server, one after another (never two at once, on 2 cores), after
 * a short warm-up of ours and the bare one (their JIT); prints one line per read and returns the
 * rows of the closing table. Without a bare server (PGlite: information only), ours alone.
 */
export async function compareHotReads(options: {
  token: string;
  ours: string;
  bare: string | null;
  reference: string | null;
  referenceVerdicts: Map<string, string | null>;
  shape: LoadShape;
}): Promise<Row[]> {
  const rows: Row[] = [];
  const warmUp: LoadShape = { ...options.shape, duration: '1s' };
  for (const read of HOT_READS) {
    const headers = headersFor(read, options.token);
    const run = (base: string, shape = options.shape) =>
      runWrk(`${base}${read.url}`, shape, { headers });
    await run(options.ours, warmUp);
    const ours = await run(options.ours);
    const parts = [`${`GET ${read.url}`.padEnd(48)} ${describe(ours)}`];
    const row = (figure: string, ratio = '', target = '', met: boolean | null = null) =>
      rows.push({ figure, value: requestsPerSecond(ours.requestsPerSecond), ratio, target, met });

    if (!options.bare) {
      // PGlite: information only, no comparison.
      row(`GET ${read.url}`);
      console.log(`  ${parts.join(' | ')}`);
      continue;
    }
    const problem = options.referenceVerdicts.get(read.url);
    if (!read.authenticated) {
      // The reference serves the authenticated reads only.
    } else if (!options.reference) {
      parts.push('reference skipped');
    } else if (problem) {
      parts.push(`reference not comparable: ${problem}`);
      row(`GET ${read.url} vs reference`, '—', `≥ ${REFERENCE_TARGET}×`, false);
    } else {
      const reference = await run(options.reference);
      const ratio = ours.requestsPerSecond / reference.requestsPerSecond;
      const met = !ours.failures && !reference.failures && ratio >= REFERENCE_TARGET;
      parts.push(
        `reference ${describe(reference)} → ${times(ratio)} (target ≥ ${REFERENCE_TARGET}×) ${mark(met)}`,
      );
      row(`GET ${read.url} vs reference`, times(ratio), `≥ ${REFERENCE_TARGET}×`, met);
    }

    await run(options.bare, warmUp);
    const bare = await run(options.bare);
    const ratio = ours.requestsPerSecond / bare.requestsPerSecond;
    const met = !ours.failures && !bare.failures && ratio >= BARE_TARGET;
    parts.push(
      `bare ${describe(bare)} → ${percent(ratio)} (target ≥ ${percent(BARE_TARGET)}) ${mark(met)}`,
    );
    row(`GET ${read.url} vs bare Fastify`, percent(ratio), `≥ ${percent(BARE_TARGET)}`, met);
    console.log(`  ${parts.join(' | ')}`);
  }
  return rows;
}
