import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, SHARE_TOKEN_PATTERN } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import type { Person, TenantScene } from '../../../test/support/tenants.ts';
import { activities, shareLinks } from '../../db/schema/index.ts';
import { days, hours } from '../../lib/clock.ts';
import { addClientMember, createClient } from '../../seed/factories.ts';
import { shareLinkScene, type Who } from './test-scene.ts';
import { hashShareToken } from './tokens.ts';

/**
 * The members' calls of share links: create and list (revoke: revoke.test.ts). Every role of the
 * workspace and of its organization, a member of the organization outside the workspace, a
 * stranger and nobody signed in; bad input; what is stored (the token's hash only) and recorded.
 */
describe('share links of a workspace: create and list', () => {
  let t: TestApp;
  let s: TenantScene;
  let clientId: string;
  let who: Who;
  const base = () => `/v1/clients/${clientId}/share-links/`;

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://portal.example.com' });
    ({ s, clientId, who } = await shareLinkScene(t));
  });
  afterAll(() => t.close());

  const create = (person: Person | 'anonymous', body: unknown = { module: 'TR' }) =>
    s.send('POST', base(), person, body);

  describe('POST …/share-links/', () => {
    it('answers 201 with the link and its token, shown once, for every member who may use the module', async () => {
      for (const role of ['OWNER', 'ADMIN', 'MANAGER', 'STAFF', 'CLIENT'] as const) {
        const res = await create(who[role]);
        expect(res.statusCode, `${role}: ${res.body}`).toBe(201);
        const link = res.json();
        expect(link).toMatchObject({
          module: 'TR',
          module_name: '2D Transit',
          status: 'ACTIVE',
          expires_at: null,
          revoked_at: null,
          last_opened_at: null,
          created_by: { id: who[role].id, email: who[role].email },
        });
        expect(link.token).toMatch(SHARE_TOKEN_PATTERN);
        expect(link.url).toBe(`https://portal.example.com/share/${link.token}`);
        expect(new URL(link.url).pathname).toContain('/share/');
        // Only the hash is stored.
        const [row] = await t.ctx.db.select().from(shareLinks).where(eq(shareLinks.id, link.id));
        expect(row!.token_hash).toBe(hashShareToken(link.token));
        expect(row!.token_hash).not.toContain(link.token);
        expect(row!.created_by).toBe(who[role].id);
      }
    });

    it('answers 401 to nobody signed in, 404 outside the workspace', async () => {
      expect((await create('anonymous')).statusCode).toBe(401);
      for (const role of ['OUTSIDER', 'STRANGER'] as const) {
        const res = await create(who[role]);
        expect(res.statusCode, role).toBe(404);
        expect(res.json().code).toBe(ErrorCode.NOT_FOUND);
      }
      const unknown = await s.send(
        'POST',
        '/v1/clients/0c000000-0000-4000-8000-0000000000ff/share-links/',
        who.OWNER,
        { module: 'TR' },
      );
      expect(unknown.statusCode).toBe(404);
    });

    it('takes an expiry in the future up to a year ahead, by the app clock', async () => {
      const now = t.clock.now();
      const inAYear = new Date(now.getTime() + days(365)).toISOString();
      const res = await create(who.STAFF, { module: 'TR', expires_at: inAYear });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().expires_at).toBe(inAYear);
      const withOffset = await create(who.STAFF, {
        module: 'TR',
        expires_at: '2999-01-01T00:00:00+02:00'.replace(
          '2999-01-01',
          new Date(now.getTime() + days(3)).toISOString().slice(0, 10),
        ),
      });
      expect(withOffset.statusCode, withOffset.body).toBe(201);
      const none = await create(who.STAFF, { module: 'TR', expires_at: null });
      expect(none.statusCode).toBe(201);
      expect(none.json().expires_at).toBeNull();
    });

    it('answers 400 naming the field for bad input', async () => {
      const now = t.clock.now().getTime();
      const cases: [unknown, string][] = [
        [{}, 'module'],
        [{ module: 'XX' }, 'module'],
        [{ module: 'tr' }, 'module'],
        [{ module: 42 }, 'module'],
        // MAP is not one of this (transit) workspace's modules.
        [{ module: 'MAP' }, 'module'],
        [{ module: 'TR', expires_at: new Date(now - 1000).toISOString() }, 'expires_at'],
        [{ module: 'TR', expires_at: new Date(now).toISOString() }, 'expires_at'],
        [
          { module: 'TR', expires_at: new Date(now + days(365) + 1000).toISOString() },
          'expires_at',
        ],
        [{ module: 'TR', expires_at: 'tomorrow' }, 'expires_at'],
        [{ module: 'TR', expires_at: '2031-02-30T00:00:00Z' }, 'expires_at'],
        [{ module: 'TR', expires_at: '2031-01-01' }, 'expires_at'],
        [{ module: 'TR', expires_at: 1893456000 }, 'expires_at'],
        [{ module: 'TR', token: 'mine' }, 'token'],
        [{ module: 'TR\u0000' }, 'module'],
      ];
      for (const [body, field] of cases) {
        const res = await create(who.OWNER, body);
        expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(400);
        expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
      }
      const badId = await s.send('POST', '/v1/clients/nope/share-links/', who.OWNER, {
        module: 'TR',
      });
      expect(badId.statusCode).toBe(400);
    });

    it('refuses a module switched off in the workspace (400 naming module), for everyone', async () => {
      const off = await createClient(t.ctx.db, {
        organizationId: s.orgId,
        ownerId: who.OWNER.id,
        enabledModules: [],
      });
      for (const person of [who.OWNER, who.ADMIN]) {
        const res = await s.send('POST', `/v1/clients/${off.id}/share-links/`, person, {
          module: 'TR',
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().details).toEqual([
          { field: 'module', message: expect.stringContaining('not switched on') },
        ]);
      }
    });

    it('records the creation in the organization’s log, without the token', async () => {
      const res = await create(who.MANAGER);
      const link = res.json();
      const rows = await t.ctx.db
        .select()
        .from(activities)
        .where(
          and(eq(activities.action, 'CREATE_SHARE_LINK'), eq(activities.user_id, who.MANAGER.id)),
        );
      const mine = rows.find((r) => r.data.share_link_id === link.id);
      expect(mine).toMatchObject({
        organization_id: s.orgId,
        object_type: 'client',
        object_id: clientId,
        data: { module: 'TR', client_id: clientId, client_name: 'Harbour', expires_at: null },
      });
      expect(JSON.stringify(mine)).not.toContain(link.token);
      expect(JSON.stringify(mine)).not.toContain(hashShareToken(link.token));
    });
  });

  describe('GET …/share-links/', () => {
    let ws: string;
    const list = (person: Person | 'anonymous', query = '') =>
      s.send('GET', `/v1/clients/${ws}/share-links/${query}`, person);

    beforeAll(async () => {
      const client = await createClient(t.ctx.db, {
        organizationId: s.orgId,
        ownerId: who.OWNER.id,
      });
      ws = client.id;
      await addClientMember(t.ctx.db, { clientId: ws, userId: who.MANAGER.id, role: 'MANAGER' });
      await addClientMember(t.ctx.db, { clientId: ws, userId: who.STAFF.id, role: 'STAFF' });
      await addClientMember(t.ctx.db, { clientId: ws, userId: who.CLIENT.id, role: 'CLIENT' });
      // One link each, a second apart, in this order: OWNER, STAFF, CLIENT, STAFF.
      for (const person of [who.OWNER, who.STAFF, who.CLIENT, who.STAFF]) {
        t.clock.advance(1000);
        const res = await s.send('POST', `/v1/clients/${ws}/share-links/`, person, {
          module: 'TR',
        });
        expect(res.statusCode).toBe(201);
      }
    });

    it('shows OWNERs and ADMINs every link, newest first, never a token', async () => {
      for (const person of [who.OWNER, who.ADMIN]) {
        const res = await list(person);
        expect(res.statusCode).toBe(200);
        const page = res.json();
        expect(page.count).toBe(4);
        expect(page.results.map((l: { created_by: { id: string } }) => l.created_by.id)).toEqual([
          who.STAFF.id,
          who.CLIENT.id,
          who.STAFF.id,
          who.OWNER.id,
        ]);
        for (const link of page.results) {
          expect(link).not.toHaveProperty('token');
          expect(link).not.toHaveProperty('token_hash');
          expect(link).not.toHaveProperty('url');
        }
      }
    });

    it('shows other members only the links they made', async () => {
      const staff = (await list(who.STAFF)).json();
      expect(staff.count).toBe(2);
      expect(
        staff.results.every(
          (l: { created_by: { id: string } }) => l.created_by.id === who.STAFF.id,
        ),
      ).toBe(true);
      const client = (await list(who.CLIENT)).json();
      expect(client.count).toBe(1);
      expect(client.results[0].created_by.id).toBe(who.CLIENT.id);
      const manager = (await list(who.MANAGER)).json();
      expect(manager).toEqual({ count: 0, next: null, previous: null, results: [] });
    });

    it('pages', async () => {
      const first = (await list(who.OWNER, '?limit=3')).json();
      expect(first).toMatchObject({ count: 4, next: 2, previous: null });
      expect(first.results).toHaveLength(3);
      const second = (await list(who.OWNER, '?limit=3&page=2')).json();
      expect(second).toMatchObject({ count: 4, next: null, previous: 1 });
      expect(second.results).toHaveLength(1);
      const past = (await list(who.OWNER, '?limit=3&page=9')).json();
      expect(past).toMatchObject({ count: 4, results: [] });
    });

    it('answers 401, 404 and 400 as the other tenant routes', async () => {
      expect((await list('anonymous')).statusCode).toBe(401);
      expect((await list(who.OUTSIDER)).statusCode).toBe(404);
      expect((await list(who.STRANGER)).statusCode).toBe(404);
      for (const query of ['?limit=0', '?limit=1000', '?page=0', '?page=x', '?status=ACTIVE']) {
        expect((await list(who.OWNER, query)).statusCode, query).toBe(400);
      }
    });

    it('says each link’s status by the app clock: ACTIVE, EXPIRED, REVOKED', async () => {
      // Sessions last 12 hours: the clock moves by less.
      const soon = new Date(t.clock.now().getTime() + hours(1)).toISOString();
      const expiring = (
        await s.send('POST', `/v1/clients/${ws}/share-links/`, who.OWNER, {
          module: 'TR',
          expires_at: soon,
        })
      ).json();
      const revoked = (
        await s.send('POST', `/v1/clients/${ws}/share-links/`, who.OWNER, { module: 'TR' })
      ).json();
      await s.send('DELETE', `/v1/clients/${ws}/share-links/${revoked.id}/`, who.OWNER);
      const statusOf = async (id: string) =>
        (await list(who.OWNER, '?limit=50')).json().results.find((l: { id: string }) => l.id === id)
          .status;
      expect(await statusOf(expiring.id)).toBe('ACTIVE');
      expect(await statusOf(revoked.id)).toBe('REVOKED');
      t.clock.advance(hours(1));
      expect(await statusOf(expiring.id)).toBe('EXPIRED');
    });
  });
});
