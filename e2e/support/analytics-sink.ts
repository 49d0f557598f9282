// A local double of an analytics sink (ANALYTICS_URL): an HTTP server in the test's own process on
// a free loopback port that keeps what the browser sends it, for the spec to read.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One page view or event as the web app sends it (apps/web/src/lib/analytics.ts). */
export interface AnalyticsRecord {
  id: string;
  type: 'pageview' | 'event';
  name: string;
  path: string;
  props: Record<string, unknown>;
  ts: string;
}

export interface AnalyticsHit {
  /** The parsed body, or null when it was not JSON. */
  record: AnalyticsRecord | null;
  body: string;
  method: string;
  path: string;
  contentType: string | undefined;
  cookie: string | undefined;
}

export interface AnalyticsSink {
  /** Where the app is told to send (`ANALYTICS_URL`). */
  url: string;
  origin: string;
  hits: AnalyticsHit[];
  records(): AnalyticsRecord[];
  close(): Promise<void>;
}

export async function startAnalyticsSink(): Promise<AnalyticsSink> {
  const hits: AnalyticsHit[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (req.method === 'POST') {
        let record: AnalyticsRecord | null;
        try {
          record = JSON.parse(body) as AnalyticsRecord;
        } catch {
          record = null;
        }
        hits.push({
          record,
          body,
          method: req.method,
          path: req.url ?? '',
          contentType: req.headers['content-type'],
          cookie: req.headers.cookie,
        });
      }
      res.writeHead(204, {
        'Access-Control-Allow-Origin': req.headers.origin ?? '*',
        'Access-Control-Allow-Credentials': 'true',
      });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/collect`,
    origin,
    hits,
    records: () => hits.flatMap((hit) => (hit.record ? [hit.record] : [])),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
