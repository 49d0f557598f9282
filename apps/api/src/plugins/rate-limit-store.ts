import crypto from 'node:crypto';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rateLimits } from '../db/schema/index.ts';
import type { Clock } from '../lib/clock.ts';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** What @fastify/rate-limit hands to `child`: the route's merged limit options. */
interface ChildOptions {
  /** The route (`config.rateLimit`); empty for a limiter made with `app.createRateLimit`. */
  routeInfo?: { method?: string | string[]; url?: string };
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
}

/** Longer keys are stored as their hash, so the primary key stays small whatever a keyGenerator returns. */
const MAX_KEY_LENGTH = 128;

/**
 * A store for @fastify/rate-limit whose counters live in the `rate_limits` table, so every
 * instance on one database counts the same hits (the plugin's own store is one process's memory).
 *
 * Each request is one atomic upsert: a new key, or a key whose window has passed, starts a window
 * at 1; any other adds 1. PostgreSQL applies concurrent upserts of one key one after the other
 * (the second waits on the first's row), so limits are exact under parallel load. "Now" is the
 * app's clock, not the database's, so tests that move the clock move the windows too.
 *
 * Expired rows are left for the pruning job; an expired row is simply restarted by the next hit.
 *
 * When the database fails, the error goes on to the error handler: a database that cannot be
 * reached answers 503 SERVICE_UNAVAILABLE (plugins/errors.ts), as the route itself would have,
 * since every limited route needs the database anyway. Failing open instead would let a flood
 * through exactly when the database is struggling.
 */
export function databaseRateLimitStore(db: Db, clock: Clock): FastifyRateLimitStoreCtor {
  // Limiters made with createRateLimit have no route to name them: they are numbered in the order
  // they are made, which is the order the (same) code registers them in on every instance.
  let unnamed = 0;

  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    private readonly prefix: string;

    /** The plugin constructs the root store with its options, which this store does not need. */
    constructor(_pluginOptions?: unknown, prefix = 'global|') {
      this.prefix = prefix;
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      const now = clock.now();
      const expired = sql`${rateLimits.reset_at} <= ${now.toISOString()}::timestamptz`;
      db.insert(rateLimits)
        .values({
          key: storedKey(this.prefix, key),
          hits: 1,
          reset_at: new Date(now.getTime() + timeWindow),
        })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            hits: sql`case when ${expired} then 1 else ${rateLimits.hits} + 1 end`,
            reset_at: sql`case when ${expired} then excluded.reset_at else ${rateLimits.reset_at} end`,
          },
        })
        .returning({ hits: rateLimits.hits, reset_at: rateLimits.reset_at })
        .then(
          ([row]) => callback(null, { current: row!.hits, ttl: msUntil(row!.reset_at, now) }),
          (err: Error) => callback(err),
        );
    }

    /** The window as it stands, without counting a hit (`createRateLimit()(req, { increment: false })`). */
    read(key: string, callback: Callback): void {
      const now = clock.now();
      db.select({ hits: rateLimits.hits, reset_at: rateLimits.reset_at })
        .from(rateLimits)
        .where(and(eq(rateLimits.key, storedKey(this.prefix, key)), gt(rateLimits.reset_at, now)))
        .then(
          ([row]) =>
            callback(
              null,
              row ? { current: row.hits, ttl: msUntil(row.reset_at, now) } : { current: 0, ttl: 0 },
            ),
          (err: Error) => callback(err),
        );
    }

    /** One per limited route (and per createRateLimit limiter): routes never share a counter. */
    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // Typed as route options, but what the plugin passes is the merged limit options.
      const options = routeOptions as unknown as ChildOptions;
      if (options.continueExceeding || options.exponentialBackoff) {
        // Not needed by any route; refused rather than silently ignored.
        throw new Error(
          'The database rate-limit store supports neither continueExceeding nor exponentialBackoff.',
        );
      }
      const { method, url } = options.routeInfo ?? {};
      const route = url ? `${[method].flat().join(',')} ${url}` : `limiter ${++unnamed}`;
      return new DatabaseRateLimitStore(undefined, `${route}|`);
    }
  }
  return DatabaseRateLimitStore;
}

function storedKey(prefix: string, key: string): string {
  const full = prefix + key;
  if (full.length <= MAX_KEY_LENGTH) return full;
  return `sha256:${crypto.createHash('sha256').update(full).digest('base64url')}`;
}

const msUntil = (resetAt: Date, now: Date) => Math.max(0, resetAt.getTime() - now.getTime());
