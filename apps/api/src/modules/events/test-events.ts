// Shared by this module's tests: the events a request records, and the feed read once it is ready.
import { eventFeedSchema, type EventFeed } from '@portolan/contract';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestApp } from '../../../test/support/app.ts';
import type { Person, TenantScene } from '../../../test/support/tenants.ts';
import { events } from '../../db/schema/index.ts';

export interface Recorded {
  type: string;
  subject: string;
  data: Record<string, unknown>;
}

const lastSeq = async (t: TestApp) =>
  (
    await t.ctx.db
      .select({ seq: sql<number>`coalesce(max(${events.seq}), 0)`.mapWith(Number) })
      .from(events)
  )[0]!.seq;

/** The events of the organization that `act` records, oldest first, as the table holds them. */
export async function recordedBy(
  t: TestApp,
  organizationId: string,
  act: () => Promise<unknown>,
): Promise<Recorded[]> {
  const before = await lastSeq(t);
  await act();
  return t.ctx.db
    .select({ type: events.type, subject: events.subject, data: events.data })
    .from(events)
    .where(and(eq(events.organization_id, organizationId), gt(events.seq, before)))
    .orderBy(asc(events.seq));
}

/**
 * Waits until every committed event of the organization is ready for the feed: on PostgreSQL the
 * transactions of other test files (other databases of the cluster) hold back the snapshot's
 * xmin for a moment.
 */
export async function settled(t: TestApp, organizationId: string): Promise<void> {
  for (let tries = 0; tries < 250; tries++) {
    const [row] = await t.ctx.db
      .select({
        ready: sql<boolean>`coalesce(max(${events.txid}::text::numeric)
          < pg_snapshot_xmin(pg_current_snapshot())::text::numeric, true)`,
      })
      .from(events)
      .where(eq(events.organization_id, organizationId));
    if (row?.ready) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('events were not ready within 5 s');
}

/** One read of the feed, 200 expected. */
export async function readFeed(
  t: TestApp,
  s: TenantScene,
  who: Person,
  query: { after?: string; limit?: number } = {},
  orgId = s.orgId,
): Promise<EventFeed> {
  const params = new URLSearchParams(
    Object.entries(query).flatMap(([key, value]) =>
      value === undefined ? [] : [[key, String(value)] as [string, string]],
    ),
  );
  const res = await s.send('GET', `/v1/organizations/${orgId}/events/?${params}`, who);
  expect(res.statusCode, res.body).toBe(200);
  return eventFeedSchema.parse(res.json());
}
