import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { WEBHOOK_RESPONSE_EXCERPT_BYTES } from '@portolan/contract';
import { guardedLookup, isForbiddenAddress, literalAddressOf, TargetRefused } from './targets.ts';

/** What one attempt came to, as the delivery log keeps it. */
export interface AttemptResult {
  /** The answer's HTTP status; null when none came. */
  statusCode: number | null;
  durationMs: number;
  /** The answer's first bytes (WEBHOOK_RESPONSE_EXCERPT_BYTES), as text. */
  excerpt: string;
  error: string | null;
}

export interface SendOptions {
  allowPrivateTargets: boolean;
  timeoutMs: number;
  userAgent: string;
  /** Aborts the attempt when the worker stops: then nothing is recorded (the lease runs out). */
  signal: AbortSignal;
}

export const succeeded = (result: AttemptResult): boolean =>
  result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;

/** PostgreSQL text holds no NUL; an answer's excerpt may. */
const storable = (text: string) => text.replaceAll('\u0000', '');

/**
 * POSTs one signed message. No redirect is followed (a 3xx is a failure like any non-2xx), the
 * whole exchange has `timeoutMs`, and the connection goes only to an address checked by
 * `guardedLookup` (or the literal address checked here). Rejects only when `signal` aborted.
 */
export async function postWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: SendOptions,
): Promise<AttemptResult> {
  const failed = (error: string, durationMs = 0): AttemptResult => ({
    statusCode: null,
    durationMs,
    excerpt: '',
    error,
  });
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return failed('The endpoint’s URL cannot be read.');
  }
  const literal = literalAddressOf(url);
  if (literal && !options.allowPrivateTargets && isForbiddenAddress(literal)) {
    return failed(new TargetRefused(literal, literal).message);
  }
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise<AttemptResult>((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': options.userAgent,
      },
      lookup: guardedLookup(options.allowPrivateTargets),
      // A connection of its own, made to the address just checked: never a pooled one.
      agent: false,
      signal: AbortSignal.any([options.signal, timeout]),
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      const finish = () => {
        resolve({
          statusCode: response.statusCode ?? null,
          durationMs: elapsed(),
          excerpt: storable(
            Buffer.concat(chunks).subarray(0, WEBHOOK_RESPONSE_EXCERPT_BYTES).toString('utf8'),
          ),
          error: null,
        });
        response.destroy();
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        kept += chunk.length;
        // Enough kept: the rest of the answer is not waited for.
        if (kept >= WEBHOOK_RESPONSE_EXCERPT_BYTES) finish();
      });
      response.on('end', finish);
      response.on('error', () => finish());
    });
    request.on('error', (err: Error) => {
      if (options.signal.aborted) return reject(err);
      const message =
        err instanceof TargetRefused || (err.cause as Error | undefined) instanceof TargetRefused
          ? (err instanceof TargetRefused ? err : (err.cause as Error)).message
          : timeout.aborted
            ? `No answer within ${options.timeoutMs / 1000} s.`
            : storable(err.message || String(err));
      resolve(failed(message.slice(0, 500), elapsed()));
    });
    request.end(body);
  });
}
