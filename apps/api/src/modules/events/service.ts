import { EVENT_RETENTION_DAYS, type EventFeed, type EventFeedQuery } from '@portolan/contract';
import { and, asc, eq, gte, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { events } from '../../db/schema/index.ts';
import { days } from '../../lib/clock.ts';
import type { Actor } from '../access/index.ts';
import { decodeCursor, encodeCursor, START } from './cursor.ts';

/**
 * GET /v1/organizations/{orgId}/events/: the organization's events of the last
 * EVENT_RETENTION_DAYS after the cursor, oldest first, `limit` of them (one statement).
 *
 * Events are written in the transactions of their changes, which commit in any order, so `seq`
 * alone could let a reader pass an event that commits later with a smaller one. Only events whose
 * transaction is older than every transaction still running are listed, in (txid, seq) order:
 * every later event has a larger txid, so nothing ever appears behind a cursor. An event waits
 * for the transactions running when it committed (usually milliseconds) before it is listed.
 * The test event goes to its one endpoint only, never to the feed.
 */
export async function listEvents(
  ctx: AppContext,
  actor: Actor,
  query: EventFeedQuery,
): Promise<EventFeed> {
  const after = query.after === undefined ? START : decodeCursor(query.after);
  const since = new Date(ctx.clock.now().getTime() - days(EVENT_RETENTION_DAYS));
  const rows = await ctx.db
    .select({
      id: events.id,
      seq: events.seq,
      txid: events.txid,
      type: events.type,
      subject: events.subject,
      data: events.data,
      created_at: events.created_at,
    })
    .from(events)
    .where(
      and(
        eq(events.organization_id, actor.organization.id),
        sql`(${events.txid}, ${events.seq}) > (${after.txid}::xid8, ${after.seq}::bigint)`,
        sql`${events.txid} < pg_snapshot_xmin(pg_current_snapshot())`,
        gte(events.created_at, since),
        ne(events.type, 'webhook.test'),
      ),
    )
    .orderBy(asc(events.txid), asc(events.seq))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    results: page.map((row) => ({
      id: row.id,
      type: row.type,
      subject: row.subject,
      data: row.data,
      created: row.created_at.toISOString(),
    })),
    next_cursor: last ? encodeCursor(last) : (query.after ?? encodeCursor(START)),
    has_more: rows.length > query.limit,
  };
}
