import { lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { securityEvents } from '../../db/schema/index.ts';
import { days } from '../../lib/clock.ts';
import { deleteInBatches, type PruneOptions } from '../../lib/prune-batches.ts';

/** The security log keeps a year: long enough to look back on an incident, not forever. */
export const SECURITY_EVENT_RETENTION_MS = days(365);

export async function pruneSecurityLog(
  db: Db,
  now: Date,
  options: PruneOptions = {},
): Promise<number> {
  return deleteInBatches(
    db,
    securityEvents,
    securityEvents.id,
    lt(securityEvents.created_at, new Date(now.getTime() - SECURITY_EVENT_RETENTION_MS)),
    options,
  );
}
