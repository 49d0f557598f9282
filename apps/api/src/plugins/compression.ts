import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;

/** JSON (any `+json`), text other than event streams, JavaScript, XML and SVG. */
const COMPRESSIBLE =
  /^\s*(?:application\/(?:[\w.-]+\+)?json|application\/(?:javascript|xml)|text\/(?!event-stream)|image\/svg\+xml)\b/i;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export type ContentCoding = 'br' | 'gzip';

/**
 * The coding to answer with for an `Accept-Encoding` header: `br` when accepted, else `gzip`
 * (also spelled `x-gzip`), else none (identity). A coding with `q=0` is refused; a higher q-value
 * wins, br on a tie. `*` counts as gzip only, as @fastify/static reads it for the static files.
 */
export function negotiateEncoding(header: string | string[] | undefined): ContentCoding | null {
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const part of String(header).toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim());
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=').map((s) => s.trim());
      if (key === 'q') q = Number(value);
    }
    weights.set(name, Number.isFinite(q) && q > 0 ? Math.min(q, 1) : 0);
  }
  const star = weights.get('*');
  const br = weights.get('br') ?? 0;
  const gz = weights.get('gzip') ?? weights.get('x-gzip') ?? star ?? 0;
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return null;
}

/** Adds `Accept-Encoding` to the reply's `Vary` header unless it is already covered. */
function varyOnAcceptEncoding(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const value = Array.isArray(current) ? current.join(', ') : current ? String(current) : '';
  const names = value.split(',').map((s) => s.trim().toLowerCase());
  if (names.includes('accept-encoding') || names.includes('*')) return;
  reply.header('vary', value ? `${value}, Accept-Encoding` : 'Accept-Encoding');
}

/**
 * Compresses buffered answers (JSON of the API and the OpenAPI document, errors included) of
 * COMPRESS_MIN_BYTES or more with brotli or gzip, as `Accept-Encoding` allows, adding
 * `Content-Encoding` and `Vary: Accept-Encoding`. Streams are left alone: the static files of the
 * web app come precompressed from the build (plugins/static-spa.ts), uploads are images. An
 * answer that already has a `Content-Encoding` is never compressed again, nor one whose
 * `Cache-Control` says `no-transform`, nor a partial (206) one.
 *
 * Brotli runs at quality 4 here (a few milliseconds for hundreds of kilobytes of JSON; the static
 * files get the slow best quality once, at build time).
 */
export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (reply.hasHeader('content-encoding') || reply.statusCode === 206) return payload;
    if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    // Measured without copying: most answers are sent as they are.
    const length = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    if (length < COMPRESS_MIN_BYTES) return payload;
    if (/\bno-transform\b/i.test(String(reply.getHeader('cache-control') ?? ''))) return payload;

    // The answer depends on Accept-Encoding from here on, compressed or not.
    varyOnAcceptEncoding(reply);
    const coding = negotiateEncoding(request.headers['accept-encoding']);
    if (!coding) return payload;
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const compressed =
      coding === 'br'
        ? await brotli(body, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          })
        : await gzip(body, { level: 6 });
    reply.header('content-encoding', coding);
    reply.header('content-length', compressed.length);
    return compressed;
  });
}
