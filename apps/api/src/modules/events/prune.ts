import { EVENT_RETENTION_DAYS } from '@portolan/contract';
import { lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events } from '../../db/schema/index.ts';
import { days } from '../../lib/clock.ts';
import { deleteInBatches, type PruneOptions } from '../../lib/prune-batches.ts';

/**
 * Events past the feed's EVENT_RETENTION_DAYS go, their webhook deliveries and attempts with them
 * (the foreign keys cascade): by then every delivery has long succeeded or given up.
 */
export async function pruneEvents(db: Db, now: Date, options: PruneOptions = {}): Promise<number> {
  return deleteInBatches(
    db,
    events,
    events.id,
    lt(events.created_at, new Date(now.getTime() - days(EVENT_RETENTION_DAYS))),
    options,
  );
}
