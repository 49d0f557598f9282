import type {
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookDeliveryListQuery,
} from '@portolan/contract';
import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  events,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from '../../db/schema/index.ts';
import { pageFromRows, rowsOf, windowTotal } from '../../lib/pagination.ts';

type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** An endpoint as the API shows it: never a secret, sealed or not. */
export const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events,
  enabled: row.enabled,
  disabled_reason: row.disabled_reason,
  failing_since: row.failing_since?.toISOString() ?? null,
  previous_secret_until: row.previous_secret_until?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
  modified_at: row.modified_at.toISOString(),
});

/** The endpoint, when it is the organization's. */
export const ofOrganization = (organizationId: string, id: string) =>
  and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organization_id, organizationId));

export async function findEndpoint(
  db: Db | Tx,
  organizationId: string,
  id: string,
): Promise<EndpointRow | undefined> {
  const [row] = await db.select().from(webhookEndpoints).where(ofOrganization(organizationId, id));
  return row;
}

export async function listEndpoints(db: Db, organizationId: string): Promise<EndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.organization_id, organizationId))
    .orderBy(asc(webhookEndpoints.created_at), asc(webhookEndpoints.id));
}

export async function countEndpoints(tx: Tx, organizationId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.organization_id, organizationId));
  return row?.n ?? 0;
}

const deliveryColumns = {
  id: webhookDeliveries.id,
  event_id: webhookDeliveries.event_id,
  event_type: events.type,
  status: webhookDeliveries.status,
  attempt_count: webhookDeliveries.attempts,
  next_attempt_at: webhookDeliveries.next_attempt_at,
  created_at: webhookDeliveries.created_at,
  completed_at: webhookDeliveries.completed_at,
};
type DeliveryRowOf = typeof webhookDeliveries.$inferSelect;
interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: (typeof events.$inferSelect)['type'];
  status: DeliveryRowOf['status'];
  attempt_count: number;
  next_attempt_at: Date;
  created_at: Date;
  completed_at: Date | null;
}

/**
 * The deliveries' attempts, oldest first: one query for all of them, so a page of deliveries
 * costs the same whatever its size.
 */
async function withAttempts(db: Db | Tx, rows: DeliveryRow[]): Promise<WebhookDelivery[]> {
  const ids = rows.map((r) => r.id);
  const attempts = ids.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(inArray(webhookAttempts.delivery_id, ids))
        .orderBy(asc(webhookAttempts.attempt))
    : [];
  return rows.map((row) => ({
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempt_count: row.attempt_count,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
    created_at: row.created_at.toISOString(),
    completed_at: row.completed_at?.toISOString() ?? null,
    attempts: attempts
      .filter((a) => a.delivery_id === row.id)
      .map((a) => ({
        attempt: a.attempt,
        attempted_at: a.attempted_at.toISOString(),
        status_code: a.status_code,
        duration_ms: a.duration_ms,
        response_excerpt: a.response_excerpt,
        error: a.error,
      })),
  }));
}

/** A page of an endpoint's deliveries, newest first, each with its attempts: two queries. */
export async function deliveryPage(
  db: Db,
  endpointId: string,
  query: WebhookDeliveryListQuery,
): Promise<WebhookDeliveryPage> {
  const rows = await db
    .select({ ...deliveryColumns, total: windowTotal })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.event_id))
    .where(eq(webhookDeliveries.endpoint_id, endpointId))
    .orderBy(desc(webhookDeliveries.created_at), desc(webhookDeliveries.event_seq))
    .limit(rowsOf(query).limit)
    .offset(rowsOf(query).offset);
  const page = await pageFromRows(
    query,
    rows,
    (row) => row,
    async () => {
      const [row] = await db
        .select({ n: count() })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpoint_id, endpointId));
      return row?.n ?? 0;
    },
  );
  return { ...page, results: await withAttempts(db, page.results) };
}

/** One delivery with its attempts, as the log shows it. */
export async function deliveryById(db: Db | Tx, id: string): Promise<WebhookDelivery | undefined> {
  const rows = await db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.event_id))
    .where(eq(webhookDeliveries.id, id));
  return (await withAttempts(db, rows))[0];
}
