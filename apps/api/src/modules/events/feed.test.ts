// engine-parity: branches on the engine: commit order needs two connections at once (PostgreSQL only)
import {
  ErrorCode,
  EVENT_FEED_PAGE_SIZE,
  eventTypeListSchema,
  SUBSCRIBABLE_EVENT_TYPES,
  type EventType,
} from '@portolan/contract';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { testEngine } from '../../../test/support/database.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';
import { events, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.ts';
import { days } from '../../lib/clock.ts';
import { createOrganization } from '../../seed/factories.ts';
import { pruneJob } from '../system/index.ts';
import { recordEvents, type EventRecord } from './record.ts';
import { readFeed, settled } from './test-events.ts';

/**
 * Issue 21 item 3: the events feed of an organization (30 days, oldest first, an opaque cursor
 * that never passes an event committing later) and the catalogue of event types.
 */
describe('the events feed', () => {
  let t: TestApp;
  let s: TenantScene;
  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
  });
  afterAll(() => t.close());

  const feedUrl = (orgId = s.orgId) => `/v1/organizations/${orgId}/events/`;
  let n = 0;
  const event = (orgId: string, type: EventType = 'member.added', at = t.clock.now()) => ({
    organizationId: orgId,
    type,
    subject: `member:${crypto.randomUUID()}`,
    data: { n: n++ },
    at,
  });
  /** Events committed in one transaction each, as changes write them. */
  async function commit(...batches: EventRecord[][]): Promise<string[]> {
    const ids: string[] = [];
    for (const batch of batches) {
      ids.push(...(await t.ctx.db.transaction((tx) => recordEvents(tx, batch))));
    }
    return ids;
  }
  /** A promise resolved from outside: to hold a transaction open until the test lets it go. */
  const signal = () => {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    return { promise, resolve };
  };
  /** A fresh organization of the OWNER's, so a test counts only its own events. */
  const freshOrganization = async () =>
    (await createOrganization(t.ctx.db, { ownerId: s.people.OWNER.id })).id;

  it('is read by OWNER and ADMIN; 403 STAFF and CLIENT, 404 another organization, 401 anonymous', async () => {
    await commit([event(s.orgId)]);
    await settled(t, s.orgId);
    for (const role of ['OWNER', 'ADMIN'] as const) {
      const feed = await readFeed(t, s, s.people[role]);
      expect(feed.results.length, role).toBeGreaterThan(0);
    }
    for (const role of ['STAFF', 'CLIENT'] as const) {
      const res = await s.send('GET', feedUrl(), s.people[role]);
      expect(res.statusCode, role).toBe(403);
      expect(res.json().code).toBe(ErrorCode.PERMISSION_DENIED);
    }
    const stranger = await s.send('GET', feedUrl(), s.people.STRANGER);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().code).toBe(ErrorCode.NOT_FOUND);
    expect((await s.send('GET', feedUrl(), 'anonymous')).statusCode).toBe(401);
  });

  it('refuses bad input naming the field', async () => {
    const cursor = (text: string) => Buffer.from(text).toString('base64url');
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=1.5', 'limit'],
      ['limit=ten', 'limit'],
      ['after=', 'after'],
      ['after=not%20a%20cursor', 'after'],
      ['after=%F0%9F%98%80', 'after'],
      ['after=%00', 'after'],
      [`after=${'a'.repeat(300)}`, 'after'],
      [`after=${cursor('12:x')}`, 'after'],
      [`after=${cursor('12:3:4')}`, 'after'],
      [`after=${cursor('012:3')}`, 'after'],
      [`after=${cursor('-1:3')}`, 'after'],
      [`after=${cursor('99999999999999999999:3')}`, 'after'],
      [`after=${cursor('12:99999999999999999')}`, 'after'],
      [`after=${cursor('12:3')}=`, 'after'],
      ['since=2031-01-01', 'since'],
    ] as const) {
      const res = await s.send('GET', `${feedUrl()}?${query}`, s.people.OWNER);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code, query).toBe(ErrorCode.VALIDATION_ERROR);
      expect(
        res.json().details.map((d: { field: string }) => d.field),
        query,
      ).toContain(field);
    }
    expect((await s.send('GET', `${feedUrl('nope')}`, s.people.OWNER)).statusCode).toBe(400);
  });

  it('pages by cursor with no duplicate and no gap; has_more says whether more are ready', async () => {
    const orgId = await freshOrganization();
    const empty = await readFeed(t, s, s.people.OWNER, {}, orgId);
    expect(empty).toMatchObject({ results: [], has_more: false });
    expect(empty.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/);

    const ids = await commit(
      [event(orgId), event(orgId), event(orgId)],
      [event(orgId, 'webhook.test'), event(s.orgId)],
      [event(orgId, 'workspace.created')],
      [event(orgId), event(orgId), event(orgId, 'invoice.paid')],
    );
    const listed = ids.filter((_, i) => i !== 3 && i !== 4);
    await settled(t, orgId);

    const pages = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await readFeed(t, s, s.people.OWNER, { limit: 3, after: cursor }, orgId);
      pages.push(page);
      cursor = page.next_cursor;
      if (!page.has_more) break;
    }
    expect(pages.map((p) => p.results.length)).toEqual([3, 3, 1]);
    expect(pages.flatMap((p) => p.results.map((e) => e.id))).toEqual(listed);
    const [first] = pages[0]!.results;
    const [row] = await t.ctx.db.select().from(events).where(eq(events.id, first!.id));
    expect(first).toEqual({
      id: row!.id,
      type: 'member.added',
      subject: row!.subject,
      data: row!.data,
      created: row!.created_at.toISOString(),
    });

    // Nothing new: the cursor given comes back, for the next poll.
    const none = await readFeed(t, s, s.people.OWNER, { after: cursor }, orgId);
    expect(none).toEqual({ results: [], next_cursor: cursor, has_more: false });
    const later = await commit([event(orgId, 'module.enabled')], [event(orgId)]);
    await settled(t, orgId);
    const next = await readFeed(t, s, s.people.OWNER, { after: cursor }, orgId);
    expect(next.results.map((e) => e.id)).toEqual(later);
    expect(next.has_more).toBe(false);

    // At most EVENT_FEED_PAGE_SIZE unless asked.
    await commit(Array.from({ length: EVENT_FEED_PAGE_SIZE }, () => event(orgId)));
    await settled(t, orgId);
    const full = await readFeed(t, s, s.people.OWNER, {}, orgId);
    expect(full.results).toHaveLength(EVENT_FEED_PAGE_SIZE);
    expect(full.has_more).toBe(true);
    expect(full.results.slice(0, listed.length).map((e) => e.id)).toEqual(listed);
    expect((await readFeed(t, s, s.people.OWNER, { limit: 100 }, orgId)).results).toHaveLength(
      listed.length + later.length + EVENT_FEED_PAGE_SIZE,
    );
  });

  it('keeps 30 days: an older event leaves the feed as the clock moves, and the prune deletes it with its deliveries', async () => {
    const orgId = await freshOrganization();
    const [endpoint] = await t.ctx.db
      .insert(webhookEndpoints)
      .values({
        organization_id: orgId,
        url: 'https://receiver.example.com/hook',
        events: ['member.added'],
        secret: 'sealed',
      })
      .returning();
    const now = t.clock.now().getTime();
    const [oldest, old, fresh] = await commit(
      [event(orgId, 'member.added', new Date(now - days(31)))],
      [event(orgId, 'member.added', new Date(now - days(30) + 60_000))],
      [event(orgId, 'member.added')],
    );
    await settled(t, orgId);
    const ids = async () =>
      (await readFeed(t, s, s.people.OWNER, {}, orgId)).results.map((e) => e.id);
    expect(await ids()).toEqual([old, fresh]);

    t.clock.advance(2 * 60_000);
    expect(await ids()).toEqual([fresh]);

    const deliveries = () =>
      t.ctx.db
        .select({ event: webhookDeliveries.event_id })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpoint_id, endpoint!.id));
    expect((await deliveries()).map((d) => d.event).sort()).toEqual([oldest, old, fresh].sort());
    await pruneJob(t.ctx).run(new AbortController().signal);
    const kept = await t.ctx.db
      .select({ id: events.id })
      .from(events)
      .where(inArray(events.id, [oldest!, old!, fresh!]));
    expect(kept.map((e) => e.id)).toEqual([fresh]);
    expect(await deliveries()).toEqual([{ event: fresh }]);
  });

  it('lists the subscribable event types to anyone, without the test event', async () => {
    const res = await s.send('GET', '/v1/webhooks/event-types/', 'anonymous');
    expect(res.statusCode).toBe(200);
    const { results } = eventTypeListSchema.parse(res.json());
    expect(results.map((e) => e.type)).toEqual(SUBSCRIBABLE_EVENT_TYPES);
    expect(results.map((e) => e.type)).not.toContain('webhook.test');
    expect(results.every((e) => e.description.length > 10)).toBe(true);
  });

  // Two transactions at once need two connections: PGlite has one.
  it.runIf(testEngine === 'postgres')(
    'never passes an event that commits after a later one with a smaller seq',
    async () => {
      const orgId = await freshOrganization();
      const start = await readFeed(t, s, s.people.OWNER, {}, orgId);
      const gate = signal();
      const aHasXid = signal();
      const bWrote = signal();
      // A has the older transaction id; B takes the smaller seq, and commits last.
      const a = t.ctx.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_current_xact_id()`);
        aHasXid.resolve();
        await bWrote.promise;
        return (await recordEvents(tx, [event(orgId)]))[0]!;
      });
      await aHasXid.promise;
      const b = t.ctx.db.transaction(async (tx) => {
        const [id] = await recordEvents(tx, [event(orgId)]);
        bWrote.resolve();
        await gate.promise;
        return id!;
      });
      const aId = await a;
      await settled(t, orgId);
      const first = await readFeed(t, s, s.people.OWNER, { after: start.next_cursor }, orgId);
      expect(first.results.map((e) => e.id)).toEqual([aId]);
      gate.resolve();
      const bId = await b;
      const seqs = await t.ctx.db
        .select({ id: events.id, seq: events.seq })
        .from(events)
        .where(inArray(events.id, [aId, bId]));
      const seqOf = new Map(seqs.map((r) => [r.id, r.seq]));
      expect(seqOf.get(bId)!).toBeLessThan(seqOf.get(aId)!);
      await settled(t, orgId);
      const second = await readFeed(t, s, s.people.OWNER, { after: first.next_cursor }, orgId);
      expect(second.results.map((e) => e.id)).toEqual([bId]);
    },
  );
});
