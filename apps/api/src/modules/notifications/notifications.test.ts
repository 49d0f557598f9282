// engine-parity: twenty or more requests at once
import { notificationPageSchema, notificationSchema } from '@portolan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  createTenantScene,
  ORG_PEOPLE,
  type Person,
  type TenantScene,
} from '../../../test/support/tenants.ts';
import { invitations, notifications } from '../../db/schema/index.ts';
import { createClient } from '../../seed/factories.ts';
import { createNotification } from './create.ts';
import { settleInvitationNotifications } from './service.ts';

const LIST = '/v1/user/notification/';
const NEW = '/v1/user/notification/new/';
const seenUrl = (id: string) => `/v1/user/notification/${id}/is-seen/`;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('the bell: GET /v1/user/notification/, new/ and is-seen/', () => {
  let t: TestApp;
  let s: TenantScene;
  let clientId: string;
  let minute = 0;

  /** A notification for `to`, a minute later than the one before (so "newest first" is testable). */
  const notify = (to: Person, fields: { author?: Person; type?: 'INVITATION' | 'WARNING' } = {}) =>
    createNotification(t.ctx.db, {
      type: fields.type ?? 'WARNING',
      recipientId: to.id,
      authorId: fields.author?.id ?? null,
      organizationId: s.orgId,
      clientId,
      meta: { n: ++minute },
      extraMessage: `Message ${minute}`,
      at: new Date(Date.UTC(2026, 0, 1, 0, minute)),
    });

  const get = (url: string, who: Person | 'anonymous') => s.send('GET', url, who);
  const put = (url: string, who: Person | 'anonymous') => s.send('PUT', url, who);
  const rowOf = async (id: string) =>
    (await t.ctx.db.select().from(notifications).where(eq(notifications.id, id)))[0]!;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    clientId = (
      await createClient(t.ctx.db, { organizationId: s.orgId, ownerId: s.people.OWNER.id })
    ).id;
  });
  afterAll(async () => t?.close());

  it('answers 401 to anonymous callers and to bad tokens on every route', async () => {
    const id = await notify(s.people.STAFF);
    const routes = [
      ['GET', LIST],
      ['GET', NEW],
      ['PUT', seenUrl(id)],
      ['GET', '/v1/user/notification/stream/'],
    ] as const;
    for (const [method, url] of routes) {
      for (const headers of [{}, { authorization: 'Bearer not.a.token' }]) {
        const res = await t.app.inject({ method, url, headers });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        expect(res.json()).toMatchObject({ code: 'NOT_AUTHENTICATED' });
      }
    }
    expect((await rowOf(id)).is_seen).toBe(false);
  });

  it('lists the caller’s notifications newest first, with author, organization and workspace', async () => {
    const me = await s.person({ first_name: 'Nina', last_name: 'Newcomer' });
    const first = await notify(me, { author: s.people.OWNER, type: 'INVITATION' });
    const second = await notify(me);
    const res = await get(LIST, me);
    expect(res.statusCode).toBe(200);
    const page = notificationPageSchema.parse(res.json());
    expect(page).toMatchObject({ count: 2, next: null, previous: null });
    expect(page.results.map((n) => n.id)).toEqual([second, first]);
    expect(page.results[1]).toEqual({
      id: first,
      type: 'INVITATION',
      status: 'OPEN',
      is_seen: false,
      extra_message: expect.stringMatching(/^Message \d+$/),
      created: expect.stringMatching(/^2026-01-01T00:\d\d:00\.000Z$/),
      meta: { n: expect.any(Number) },
      author: {
        id: s.people.OWNER.id,
        email: s.people.OWNER.email,
        first_name: 'Olive',
        last_name: 'Owner',
        avatar: null,
      },
      organization: { id: s.orgId, name: expect.any(String) },
      client: { id: clientId, name: expect.any(String) },
    });
    expect(page.results[0]!.author).toBeNull();
    expect((await get(NEW, me)).json()).toEqual({ count: 2 });
  });

  it('pages with page and limit (10 unless asked); same-time notifications keep one order', async () => {
    const me = await s.person();
    const at = new Date(Date.UTC(2026, 1, 1));
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      ids.push(await createNotification(t.ctx.db, { type: 'WARNING', recipientId: me.id, at }));
    }
    const byIdDesc = [...ids].sort().reverse();
    const first = (await get(LIST, me)).json();
    expect(first).toMatchObject({ count: 12, next: 2, previous: null });
    expect(first.results.map((n: { id: string }) => n.id)).toEqual(byIdDesc.slice(0, 10));
    const second = (await get(`${LIST}?page=2`, me)).json();
    expect(second).toMatchObject({ count: 12, next: null, previous: 1 });
    expect(second.results.map((n: { id: string }) => n.id)).toEqual(byIdDesc.slice(10));
    const five = (await get(`${LIST}?page=3&limit=5`, me)).json();
    expect(five.results).toHaveLength(2);
    // Past the end: no rows, the count still right.
    expect((await get(`${LIST}?page=9&limit=100`, me)).json()).toEqual({
      count: 12,
      next: null,
      previous: 8,
      results: [],
    });
  });

  it.each(ORG_PEOPLE)('shows %s only their own notifications, never deleted ones', async (who) => {
    const person = s.people[who];
    const others = ORG_PEOPLE.filter((p) => p !== who).map((p) => s.people[p]);
    const mine = await notify(person);
    for (const other of others) await notify(other);
    const gone = await notify(person);
    await t.ctx.db
      .update(notifications)
      .set({ deleted_at: new Date() })
      .where(eq(notifications.id, gone));
    const page = (await get(`${LIST}?limit=100`, person)).json();
    expect(page.results.map((n: { id: string }) => n.id)).toContain(mine);
    expect(page.results.map((n: { id: string }) => n.id)).not.toContain(gone);
    const owned = await t.ctx.db
      .select({ id: notifications.id, recipient: notifications.recipient_id })
      .from(notifications)
      .where(eq(notifications.recipient_id, person.id));
    const live = owned.filter((n) => n.id !== gone).map((n) => n.id);
    expect(page.count).toBe(live.length);
    expect(new Set(page.results.map((n: { id: string }) => n.id))).toEqual(new Set(live));
  });

  it('counts only unseen, live notifications of the caller', async () => {
    const me = await s.person();
    expect((await get(NEW, me)).json()).toEqual({ count: 0 });
    const a = await notify(me);
    await notify(me);
    const gone = await notify(me);
    await notify(s.people.ADMIN);
    await t.ctx.db.update(notifications).set({ is_seen: true }).where(eq(notifications.id, a));
    await t.ctx.db
      .update(notifications)
      .set({ deleted_at: new Date() })
      .where(eq(notifications.id, gone));
    expect((await get(NEW, me)).json()).toEqual({ count: 1 });
  });

  it('marks a notification seen for its recipient, answering it; again changes nothing', async () => {
    const me = await s.person();
    const id = await notify(me, { author: s.people.ADMIN });
    const res = await put(seenUrl(id), me);
    expect(res.statusCode).toBe(200);
    expect(notificationSchema.parse(res.json())).toMatchObject({
      id,
      is_seen: true,
      status: 'OPEN',
    });
    expect(res.json().author).toMatchObject({ id: s.people.ADMIN.id });
    const modified = (await rowOf(id)).modified_at;
    expect(modified.getTime()).toBe(t.clock.now().getTime());
    t.clock.advance(60_000);
    const again = await put(seenUrl(id), me);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(res.json());
    expect((await rowOf(id)).modified_at).toEqual(modified);
    expect((await get(NEW, me)).json()).toEqual({ count: 0 });
  });

  it.each(ORG_PEOPLE)(
    'answers 404 to %s marking someone else’s notification, and changes nothing',
    async (who) => {
      const owner = await s.person();
      const id = await notify(owner);
      const res = await put(seenUrl(id), s.people[who]);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
      expect((await rowOf(id)).is_seen).toBe(false);
    },
  );

  it('answers 404 for an unknown or a deleted notification', async () => {
    const me = await s.person();
    const gone = await notify(me);
    await t.ctx.db
      .update(notifications)
      .set({ deleted_at: new Date() })
      .where(eq(notifications.id, gone));
    for (const id of [UNKNOWN_ID, gone]) {
      const res = await put(seenUrl(id), me);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect((await rowOf(gone)).is_seen).toBe(false);
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=1.5', 'page'],
    ['page=abc', 'page'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['limit=', 'limit'],
    ['unknown=1', 'unknown'],
  ])('refuses the list query %s with 400 naming %s', async (query, field) => {
    const res = await get(`${LIST}?${query}`, s.people.STAFF);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it.each(['not-a-uuid', '123', UNKNOWN_ID.slice(0, -1), `${UNKNOWN_ID}0`])(
    'refuses the malformed id %s with 400 naming id, writing nothing',
    async (id) => {
      const me = await s.person();
      const mine = await notify(me);
      const res = await put(seenUrl(id), me);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'id' }] });
      expect((await rowOf(mine)).is_seen).toBe(false);
    },
  );

  it('marks one notification seen from 30 requests at once: all answer it, the count drops by one', async () => {
    const me = await s.person();
    const id = await notify(me);
    await notify(me);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        t.app.inject({ method: 'PUT', url: seenUrl(id), headers: bearer(me.token) }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(30).fill(200));
    expect(new Set(answers.map((a) => a.json().is_seen))).toEqual(new Set([true]));
    expect((await get(NEW, me)).json()).toEqual({ count: 1 });
  });

  it('settles an invitation’s notifications for the invitations module: DONE, seen, no token', async () => {
    const me = await s.person();
    // The invitation row belongs to the invitations module; a bare one is enough here.
    const [invitation] = await t.ctx.db
      .insert(invitations)
      .values({
        kind: 'organization',
        organization_id: s.orgId,
        user_id: me.id,
        role: 'STAFF',
        token_hash: `hash-${me.id}`,
        expires_at: new Date(Date.now() + 86_400_000),
      })
      .returning();
    const id = await createNotification(t.ctx.db, {
      type: 'INVITATION',
      recipientId: me.id,
      invitationId: invitation!.id,
      meta: { invitation_token: 'secret', type: 'organization', id: s.orgId },
    });
    await t.ctx.db.transaction((tx) => settleInvitationNotifications(tx, invitation!.id));
    const row = await rowOf(id);
    expect(row).toMatchObject({
      status: 'DONE',
      is_seen: true,
      meta: { type: 'organization', id: s.orgId },
    });
    expect(row.meta).not.toHaveProperty('invitation_token');
  });
});
