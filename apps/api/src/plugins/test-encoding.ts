// What the compression and static file tests share: asking for an answer with an Accept-Encoding,
// reading its bytes back, and whether it says it varies by Accept-Encoding.
import zlib from 'node:zlib';
import { expect } from 'vitest';
import type { TestApp } from '../../test/support/app.ts';

/** GET (or HEAD) `url`, with the given Accept-Encoding header or none. */
export function injectWithEncoding(t: () => TestApp) {
  return (url: string, acceptEncoding?: string, method: 'GET' | 'HEAD' = 'GET') =>
    t().app.inject({
      method,
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });
}

/** The bytes of an answer decoded by its Content-Encoding. */
export function decoded(res: { rawPayload: Buffer; headers: Record<string, unknown> }): string {
  const coding = res.headers['content-encoding'];
  if (coding === 'br') return zlib.brotliDecompressSync(res.rawPayload).toString('utf8');
  if (coding === 'gzip') return zlib.gunzipSync(res.rawPayload).toString('utf8');
  expect(coding).toBeUndefined();
  return res.rawPayload.toString('utf8');
}

/** Whether the answer's Vary names Accept-Encoding (a shared cache keeps one copy per coding). */
export const varies = (headers: Record<string, unknown>) =>
  String(headers.vary ?? '')
    .toLowerCase()
    .split(',')
    .map((s) => s.trim())
    .includes('accept-encoding');
