import crypto from 'node:crypto';
import { ErrorCode, IDEMPOTENCY_HEADER, idempotencyKeySchema } from '@portolan/contract';
import { and, eq, isNull, lte } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { idempotencyKeys } from '../../db/schema/index.ts';
import { conflict, fieldError } from '../../lib/errors.ts';
import { requireActor } from '../access/index.ts';

/**
 * Paying calls take an Idempotency-Key: the first request with a key runs and its answer is
 * stored; a replay (same key, same request) gets that answer back and runs nothing.
 *
 * Concurrency: the key row is inserted first, in a statement of its own (ON CONFLICT DO NOTHING),
 * so exactly one request owns it. The others poll the row until the owner stores its answer
 * (then replay it) and give up after IN_FLIGHT_WAIT_MS with a 409. Holding a row lock across
 * `run` instead would need a transaction open around a gateway call, and on PGlite (one
 * connection) every other query of `run` would wait behind it.
 *
 * Only successes are stored: when `run` throws, the key row is deleted so that a retry with the
 * same key can succeed (nothing was charged by a call that failed before answering).
 *
 * A process that dies while running leaves its row without an answer: after IDEMPOTENCY_LEASE_MS
 * (the app's clock, from `leased_at`) the next request with the key takes the row over and runs.
 * The owner's answer or deletion only lands while the lease is still its own.
 */

const IN_FLIGHT_WAIT_MS = 10_000;
const POLL_MS = 25;
/** How long a key's owner may run before the key is taken over as abandoned. */
export const IDEMPOTENCY_LEASE_MS = 60_000;

export interface IdempotencyScope {
  organizationId: string;
  userId: string;
  key: string;
  /** Method, route and a hash of what was asked: the same key for another request is a 409. */
  fingerprint: string;
}

export interface StoredAnswer<T> {
  status: number;
  body: T;
}

/**
 * Who an Idempotency-Key belongs to: keys are per caller, so another member sending the same key
 * makes a request of their own (and never reads the first caller's answer). A signed-in user is
 * `user:<id>`; an API key `api-key:<id>`, apart from its creator (issue 21 item 6: what a key
 * does is recorded as the key's).
 */
export function callerOf(actor: { userId: string; apiKey: { id: string } | null }): string {
  return actor.apiKey ? `api-key:${actor.apiKey.id}` : `user:${actor.userId}`;
}

/** The request's Idempotency-Key, or a 400 naming the header. */
export function idempotencyKeyOf(request: FastifyRequest): string {
  const raw = request.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) throw fieldError('Idempotency-Key', 'This header is required.');
  const parsed = idempotencyKeySchema.safeParse(Array.isArray(raw) ? raw.join(',') : raw);
  if (!parsed.success)
    throw fieldError('Idempotency-Key', parsed.error.issues[0]?.message ?? 'Not a valid key.');
  return parsed.data;
}

/** What identifies a request for its key: method, route pattern, path parameters and body. */
export function fingerprintOf(request: FastifyRequest): string {
  const hash = crypto
    .createHash('sha256')
    .update(JSON.stringify([request.params ?? null, request.body ?? null]))
    .digest('hex');
  return `${request.method} ${request.routeOptions.url ?? ''} ${hash}`;
}

export async function withIdempotency<T>(
  ctx: AppContext,
  scope: IdempotencyScope,
  run: () => Promise<StoredAnswer<T>>,
): Promise<StoredAnswer<T>> {
  const where = and(
    eq(idempotencyKeys.organization_id, scope.organizationId),
    eq(idempotencyKeys.user_id, scope.userId),
    eq(idempotencyKeys.key, scope.key),
  );
  const leasedAt = ctx.clock.now();
  const [inserted] = await ctx.db
    .insert(idempotencyKeys)
    .values({
      organization_id: scope.organizationId,
      user_id: scope.userId,
      key: scope.key,
      fingerprint: scope.fingerprint,
      leased_at: leasedAt,
    })
    .onConflictDoNothing()
    .returning({ id: idempotencyKeys.id });
  if (inserted) return runAsOwner(ctx, inserted.id, leasedAt, run);

  const deadline = Date.now() + IN_FLIGHT_WAIT_MS;
  for (;;) {
    const [row] = await ctx.db.select().from(idempotencyKeys).where(where);
    // The owner failed and let the key go: this request may take it.
    if (!row) return withIdempotency(ctx, scope, run);
    if (row.fingerprint !== scope.fingerprint)
      throw conflict(
        ErrorCode.IDEMPOTENCY_MISMATCH,
        'This Idempotency-Key was already used for another request. Use a new key.',
      );
    if (row.status_code !== null) return { status: row.status_code, body: row.response as T };
    const now = ctx.clock.now();
    if (now.getTime() - row.leased_at.getTime() >= IDEMPOTENCY_LEASE_MS) {
      // Its owner is gone: take the row over (one request wins; the others keep waiting).
      const [taken] = await ctx.db
        .update(idempotencyKeys)
        .set({ leased_at: now })
        .where(
          and(
            eq(idempotencyKeys.id, row.id),
            isNull(idempotencyKeys.status_code),
            lte(idempotencyKeys.leased_at, new Date(now.getTime() - IDEMPOTENCY_LEASE_MS)),
          ),
        )
        .returning({ id: idempotencyKeys.id });
      if (taken) return runAsOwner(ctx, taken.id, now, run);
    }
    if (Date.now() > deadline)
      throw conflict(
        ErrorCode.IDEMPOTENCY_MISMATCH,
        'A request with this Idempotency-Key is still being processed. Try again in a moment.',
      );
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Runs the request as the key's owner under the lease taken at `leasedAt`. */
async function runAsOwner<T>(
  ctx: AppContext,
  id: string,
  leasedAt: Date,
  run: () => Promise<StoredAnswer<T>>,
): Promise<StoredAnswer<T>> {
  const ours = and(
    eq(idempotencyKeys.id, id),
    eq(idempotencyKeys.leased_at, leasedAt),
    isNull(idempotencyKeys.status_code),
  );
  let answer: StoredAnswer<T>;
  try {
    answer = await run();
  } catch (error) {
    await ctx.db.delete(idempotencyKeys).where(ours);
    throw error;
  }
  await ctx.db
    .update(idempotencyKeys)
    .set({ status_code: answer.status, response: answer.body })
    .where(ours);
  return answer;
}

/** The header schema of a paying route (the OpenAPI document shows it; the key is checked here). */
export const idempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .optional()
    .describe('Required: 1–255 visible ASCII characters; a replay returns the first answer'),
});

/** Runs a paying POST once per Idempotency-Key and answers its (first) result, 201. */
export async function idempotent<T>(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  run: () => Promise<T>,
) {
  const actor = requireActor(request);
  const answer = await withIdempotency(
    ctx,
    {
      organizationId: actor.organization.id,
      userId: actor.userId,
      key: idempotencyKeyOf(request),
      fingerprint: fingerprintOf(request),
    },
    async () => ({ status: 201, body: await run() }),
  );
  return reply.code(answer.status).send(answer.body);
}
