import type { CredentialStatus } from '@portolan/contract';
import { z } from 'zod';
import { systemClock, type Clock } from '../clock.ts';
import {
  cleanMessage,
  UNAVAILABLE,
  type CredentialChecker,
  type CredentialWorkspace,
} from './checker.ts';

/**
 * The checker that asks the operator's endpoint (CREDENTIAL_CHECK_URL):
 *
 *     GET <url>?client_id=<workspace id>     Accept: application/json
 *     200 {"is_valid": false, "message": "The seller token has expired."}
 *
 * Any other answer (not 2xx, not JSON, not that shape, larger than MAX_BODY_BYTES, slower than
 * the timeout, no connection) is UNAVAILABLE: logged, never a 500, never "invalid". Answers are
 * kept per workspace in memory (a bounded map, oldest out first) for `ttlMs`, failures for the
 * shorter `failureTtlMs`, and requests for a workspace whose check is under way share it, so page
 * loads do not hammer the endpoint, nor wait on a dead one each time.
 */
export interface HttpCredentialCheckerOptions {
  /** The whole exchange, body included. */
  timeoutMs?: number;
  ttlMs?: number;
  failureTtlMs?: number;
  /** Workspaces kept at most. */
  maxEntries?: number;
  clock?: Clock;
  log?: { warn(details: object, message: string): void };
}

export const HTTP_CHECKER_DEFAULTS = {
  timeoutMs: 3_000,
  ttlMs: 60_000,
  failureTtlMs: 15_000,
  maxEntries: 10_000,
} as const;

/** A status is a few hundred bytes; more than this is not an answer. */
const MAX_BODY_BYTES = 16 * 1024;

/** What the endpoint answers; further fields are ignored. */
const answerSchema = z.object({
  is_valid: z.boolean(),
  message: z.string().nullish(),
});

class CheckFailed extends Error {}

async function readLimited(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > MAX_BODY_BYTES) throw new CheckFailed(`answer of ${declared} bytes`);
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw new CheckFailed(`answer over ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function ask(url: string, workspace: CredentialWorkspace, timeoutMs: number) {
  const target = new URL(url);
  target.searchParams.set('client_id', workspace.id);
  const response = await fetch(target, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new CheckFailed(`status ${response.status}`);
  }
  const text = await readLimited(response);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CheckFailed('answer is not JSON');
  }
  const answer = answerSchema.safeParse(json);
  if (!answer.success) throw new CheckFailed('answer is not {is_valid, message}');
  return { is_valid: answer.data.is_valid, message: cleanMessage(answer.data.message) };
}

function reasonOf(error: unknown): string {
  if (error instanceof CheckFailed) return error.message;
  if (error instanceof DOMException && error.name === 'TimeoutError') return 'timed out';
  if (error instanceof Error) {
    const cause = (error.cause as { code?: unknown } | undefined)?.code;
    return typeof cause === 'string' ? `${error.message} (${cause})` : error.message;
  }
  return String(error);
}

interface Entry {
  /** Settled answers expire; an answer on its way (Infinity) is shared. */
  expiresAt: number;
  status: Promise<CredentialStatus>;
}

export function createHttpCredentialChecker(
  url: string,
  options: HttpCredentialCheckerOptions = {},
): CredentialChecker {
  const { timeoutMs, ttlMs, failureTtlMs, maxEntries } = { ...HTTP_CHECKER_DEFAULTS, ...options };
  const clock = options.clock ?? systemClock;
  const cache = new Map<string, Entry>();

  const remember = (id: string, entry: Entry) => {
    cache.delete(id);
    while (cache.size >= maxEntries) {
      const oldest = cache.keys().next();
      if (oldest.done) break;
      cache.delete(oldest.value);
    }
    cache.set(id, entry);
  };

  return {
    check(workspace) {
      const now = clock.now().getTime();
      const kept = cache.get(workspace.id);
      if (kept && kept.expiresAt > now) return kept.status;
      const entry: Entry = {
        expiresAt: Number.POSITIVE_INFINITY,
        status: Promise.resolve(UNAVAILABLE),
      };
      entry.status = ask(url, workspace, timeoutMs).then(
        (status) => {
          entry.expiresAt = clock.now().getTime() + ttlMs;
          return status;
        },
        (error: unknown) => {
          entry.expiresAt = clock.now().getTime() + failureTtlMs;
          options.log?.warn(
            { clientId: workspace.id, reason: reasonOf(error) },
            'credential check unavailable',
          );
          return UNAVAILABLE;
        },
      );
      remember(workspace.id, entry);
      return entry.status;
    },
  };
}
