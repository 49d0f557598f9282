import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.ts';

/** A delivery claimed for one attempt, with what the attempt needs. */
export interface ClaimedDelivery {
  id: string;
  /** The attempts made, this one included: the outcome applies only while it is still so. */
  attempts: number;
  endpoint: {
    id: string;
    organization_id: string;
    url: string;
    secret: string;
    previous_secret: string | null;
    previous_secret_until: Date | null;
  };
  event: { id: string; type: string; data: Record<string, unknown>; created_at: Date };
}

/**
 * A delivery at the head of its line: pending, its endpoint enabled, and no earlier event of the
 * same subject still pending for that endpoint (deliveries of one subject keep their order).
 * `d` names the delivery.
 */
const atHead = sql`
  d.status = 'pending'
  and exists (select 1 from ${webhookEndpoints} e where e.id = d.endpoint_id and e.enabled)
  and not exists (
    select 1 from ${webhookDeliveries} earlier
    where earlier.endpoint_id = d.endpoint_id and earlier.subject = d.subject
      and earlier.event_seq < d.event_seq and earlier.status = 'pending')`;

/**
 * Claims up to `limit` due deliveries in one statement: FOR UPDATE SKIP LOCKED (another worker
 * claiming at the same moment takes other rows, never waits), a lease (`claimed_until`) and the
 * attempt counted, committed before any request is sent. Each attempt is then made by one worker
 * across every instance; a worker that dies mid-attempt loses nothing: its lease runs out and the
 * delivery is claimed again.
 */
export async function claimDueDeliveries(
  db: Db,
  now: Date,
  options: { leaseMs: number; limit: number },
): Promise<ClaimedDelivery[]> {
  const at = now.toISOString();
  const until = new Date(now.getTime() + options.leaseMs).toISOString();
  // Both drivers (node-postgres, PGlite) answer a raw statement's rows as `rows`.
  const claimed = (await db.execute(sql`
    with due as (
      select d.id from ${webhookDeliveries} d
      where d.next_attempt_at <= ${at}::timestamptz
        and (d.claimed_until is null or d.claimed_until < ${at}::timestamptz)
        and ${atHead}
      order by d.next_attempt_at, d.event_seq
      limit ${options.limit}
      for update of d skip locked
    )
    update ${webhookDeliveries} w
    set claimed_until = ${until}::timestamptz, attempts = w.attempts + 1
    from due where w.id = due.id
    returning w.id, w.attempts`)) as unknown as { rows: { id: string; attempts: number }[] };
  if (claimed.rows.length === 0) return [];
  const attempts = new Map(claimed.rows.map((r) => [r.id, Number(r.attempts)]));
  const rows = await db
    .select({
      id: webhookDeliveries.id,
      endpoint: {
        id: webhookEndpoints.id,
        organization_id: webhookEndpoints.organization_id,
        url: webhookEndpoints.url,
        secret: webhookEndpoints.secret,
        previous_secret: webhookEndpoints.previous_secret,
        previous_secret_until: webhookEndpoints.previous_secret_until,
      },
      event: { id: events.id, type: events.type, data: events.data, created_at: events.created_at },
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpoint_id))
    .innerJoin(events, eq(events.id, webhookDeliveries.event_id))
    .where(inArray(webhookDeliveries.id, [...attempts.keys()]));
  return rows.map((row) => ({ ...row, attempts: attempts.get(row.id)! }));
}

/**
 * When a delivery may go next, at the earliest, among those no earlier one of their subject
 * holds back (those go right after it, in the run that finishes it): the next due time, or the
 * end of another worker's lease. Null when nothing is pending.
 */
export async function nextDeliveryAt(db: Db): Promise<Date | null> {
  const result = (await db.execute(sql`
    select min(greatest(d.next_attempt_at, coalesce(d.claimed_until, d.next_attempt_at))) as next
    from ${webhookDeliveries} d
    where ${atHead}`)) as unknown as { rows: { next: string | Date | null }[] };
  const next = result.rows[0]?.next;
  return next == null ? null : new Date(next);
}
