import { and, eq, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema/index.ts';
import { days } from '../clock.ts';
import { deleteInBatches, type PruneOptions } from '../prune-batches.ts';

/** A delivered message is kept a week after it went (to answer "did my mail go out?"). */
export const SENT_MAIL_RETENTION_MS = days(7);
/** One that could not be delivered, a month after it was queued (its last_error says why). */
export const FAILED_MAIL_RETENTION_MS = days(30);

/** Deletes delivered and given-up messages past their time; pending ones are never touched. */
export function pruneOutbox(db: Db, now: Date, options: PruneOptions = {}): Promise<number> {
  const before = (ms: number) => new Date(now.getTime() - ms);
  return deleteInBatches(
    db,
    mailOutbox,
    mailOutbox.id,
    or(
      and(eq(mailOutbox.status, 'sent'), lt(mailOutbox.sent_at, before(SENT_MAIL_RETENTION_MS))),
      and(
        eq(mailOutbox.status, 'failed'),
        lt(mailOutbox.created_at, before(FAILED_MAIL_RETENTION_MS)),
      ),
    ),
    options,
  );
}
