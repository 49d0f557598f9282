import { inArray, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';

/**
 * Rows one pruning statement deletes at most: a prune never holds many row locks, writes a long
 * transaction or makes a burst of NOTIFYs (the session triggers send one per row) at once.
 */
export const PRUNE_BATCH = 500;

export interface PruneOptions {
  /** Rows per statement (PRUNE_BATCH unless given). */
  batch?: number;
  /** Stops between batches (the app is closing); what is left goes at the next run. */
  signal?: AbortSignal;
}

/**
 * Deletes the rows of `table` matching `condition`, a batch per statement, until a batch comes up
 * short. Each batch is taken FOR UPDATE SKIP LOCKED: instances pruning at the same time share the
 * rows instead of waiting on each other, and a row some request holds locked is left for later.
 * Returns how many rows went.
 */
export async function deleteInBatches(
  db: Db,
  table: PgTable,
  key: PgColumn,
  condition: SQL | undefined,
  options: PruneOptions = {},
): Promise<number> {
  const batch = options.batch ?? PRUNE_BATCH;
  let total = 0;
  for (;;) {
    const taken = db
      .select({ key })
      .from(table)
      .where(condition)
      .limit(batch)
      .for('update', { skipLocked: true });
    const gone = await db.delete(table).where(inArray(key, taken)).returning({ key });
    total += gone.length;
    if (gone.length < batch || options.signal?.aborted) return total;
  }
}
