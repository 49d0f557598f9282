import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

/**
 * The per-IP and per-route request counters of the rate limiter, shared by every instance on one
 * database: one row per key and window, bumped by one atomic upsert per request
 * (plugins/rate-limit-store.ts). UNLOGGED (migration 0010): counters need no crash safety, and
 * skipping the write-ahead log makes the upsert cheap; a crash empties them, which only forgives.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    reset_at: ts('reset_at').notNull(),
  },
  (t) => [index('rate_limits_reset_idx').on(t.reset_at)],
);
