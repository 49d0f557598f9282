import type { EventType } from '@portolan/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { events, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.ts';

/** What happened, to record as an event of the organization (issue 21 item 3). */
export interface EventRecord {
  organizationId: string;
  type: EventType;
  /** What it is about, `<kind>:<id>` (`member:<user id>`, `workspace:<id>`): deliveries keep its order. */
  subject: string;
  data: Record<string, unknown>;
  at: Date;
}

/**
 * Records an event in the caller's transaction, with a pending delivery for every enabled
 * webhook endpoint of the organization that takes its type (recordEvents). Answers the event's id
 * (the `webhook-id` of its deliveries).
 */
export async function recordEvent(tx: Tx, event: EventRecord): Promise<string> {
  return (await recordEvents(tx, [event]))[0]!;
}

/**
 * Records events in the caller's transaction, each with a pending delivery for every enabled
 * webhook endpoint of its organization that takes its type: one statement whatever their number,
 * so the change, its events and their deliveries commit together or not at all. Answers the
 * events' ids in the order given (their `seq` follows it).
 */
export async function recordEvents(tx: Tx, list: readonly EventRecord[]): Promise<string[]> {
  if (list.length === 0) return [];
  const rows = list.map(
    (e) => sql`(${e.organizationId}::uuid, ${e.type}, ${e.subject},
      ${JSON.stringify(e.data)}::jsonb, ${e.at.toISOString()}::timestamptz)`,
  );
  // Both drivers (node-postgres, PGlite) answer a raw statement's rows as `rows`.
  const result = (await tx.execute(sql`
    with inserted as (
      insert into ${events} (organization_id, type, subject, data, created_at)
      values ${sql.join(rows, sql`, `)}
      returning id, seq, organization_id, type, subject, created_at
    ), fanned as (
      insert into ${webhookDeliveries}
        (endpoint_id, event_id, event_seq, subject, next_attempt_at, created_at)
      select ${webhookEndpoints.id}, inserted.id, inserted.seq, inserted.subject,
             inserted.created_at, inserted.created_at
      from ${webhookEndpoints} join inserted
        on ${webhookEndpoints.organization_id} = inserted.organization_id
      where ${webhookEndpoints.enabled}
        and inserted.type = any(${webhookEndpoints.events})
    )
    select id from inserted order by seq`)) as unknown as { rows: { id: string }[] };
  return result.rows.map((row) => row.id);
}
