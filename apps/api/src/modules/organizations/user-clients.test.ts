import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  clientMembers,
  clientModules,
  clients,
  organizationMembers,
} from '../../db/schema/index.ts';
import { person, tenantScene, type Person, type TenantScene } from './test-scene.ts';

/** GET /v1/user/clients/ and GET /v1/user/clients/all-settings-data/. */
describe('the caller’s workspaces', () => {
  let t: TestApp;
  let s: TenantScene;
  beforeAll(async () => {
    t = await createTestApp();
    s = await tenantScene(t);
  });
  afterAll(() => t.close());

  const get = (url: string, who?: Person) =>
    t.app.inject({ method: 'GET', url, headers: who?.headers ?? {} });
  const names = (body: { results: { name: string }[] }) => body.results.map((c) => c.name);
  const fields = (res: { json(): { details?: { field: string }[] } }) =>
    res.json().details?.map((d) => d.field);

  describe('GET /v1/user/clients/', () => {
    it('lists the workspaces each member sees, flat, with their organization and role', async () => {
      const expected: [Person, string[]][] = [
        [s.people.owner, ['alpha lane', 'North', 'Pending by admin', 'Pending by staff']],
        [s.people.admin, ['alpha lane', 'North', 'Pending by admin', 'Pending by staff']],
        [s.people.staff, ['North', 'Pending by staff']],
        [s.people.client, ['North']],
        [s.pending, ['North']],
        [s.stranger, ['Elsewhere']],
      ];
      for (const [who, list] of expected) {
        const res = await get('/v1/user/clients/', who);
        expect(res.statusCode).toBe(200);
        expect(names(res.json()), who.email).toEqual(list);
      }
      const north = (await get('/v1/user/clients/', s.people.client))
        .json()
        .results.find((c: { name: string }) => c.name === 'North');
      expect(north).toEqual({
        id: s.clients.north.id,
        organization: s.org.id,
        name: 'North',
        logo: null,
        active: true,
        role: { key: 'CLIENT', name: 'Client' },
        modules: [{ module: 'TR', enabled: true }],
        dashboard_button_color: '#1985ac',
        created: expect.any(String),
      });
    });

    it('pages', async () => {
      const first = (await get('/v1/user/clients/?limit=3', s.people.owner)).json();
      expect(first).toMatchObject({ count: 4, next: 2, previous: null });
      expect(names(first)).toEqual(['alpha lane', 'North', 'Pending by admin']);
      const second = (await get('/v1/user/clients/?limit=3&page=2', s.people.owner)).json();
      expect(second).toMatchObject({ count: 4, next: null, previous: 1 });
      expect(names(second)).toEqual(['Pending by staff']);
    });

    it('answers 400 naming the parameter, and 401 anonymous', async () => {
      for (const [query, field] of [
        ['limit=1000', 'limit'],
        ['limit=0', 'limit'],
        ['page=-2', 'page'],
        ['organization=x', 'organization'],
      ] as const) {
        const res = await get(`/v1/user/clients/?${query}`, s.people.owner);
        expect(res.statusCode, query).toBe(400);
        expect(fields(res)).toContain(field);
      }
      expect((await get('/v1/user/clients/')).statusCode).toBe(401);
    });
  });

  it('answers empty lists to a user in no organization', async () => {
    const nobody = await person(t);
    for (const url of [
      '/v1/user/clients/',
      '/v1/user/clients/all-settings-data/',
      '/v1/me/organizations/and/clients/',
      '/v1/organizations/',
    ]) {
      const res = await get(url, nobody);
      expect(res.statusCode, url).toBe(200);
      expect(res.json(), url).toMatchObject({ count: 0, next: null, previous: null, results: [] });
    }
  });

  describe('GET /v1/user/clients/all-settings-data/', () => {
    const URL = '/v1/user/clients/all-settings-data/';
    /** Moves every change of the scene an hour back, so "since a minute ago" starts empty. */
    const ageScene = async () => {
      const past = new Date(Date.now() - 3_600_000);
      await t.ctx.db.update(clients).set({ modified_at: past });
      await t.ctx.db.update(clientModules).set({ modified_at: past });
      await t.ctx.db.update(clientMembers).set({ modified_at: past });
      await t.ctx.db.update(organizationMembers).set({ modified_at: past });
    };
    const since = (ms: number) => new Date(Date.now() - ms).toISOString();

    it('answers every workspace without a timestamp, and a timestamp to send next time', async () => {
      const res = await get(URL, s.people.staff);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(names(body)).toEqual(['North', 'Pending by staff']);
      expect(body.results[0]).toMatchObject({
        id: s.clients.north.id,
        organization: s.org.id,
        role: { key: 'STAFF' },
        modules: [{ module: 'TR', enabled: true }],
        modified: expect.any(String),
      });
      const stamp = Date.parse(body.timestamp);
      expect(stamp).toBeGreaterThan(Date.now() - 60_000);
      expect(stamp).toBeLessThanOrEqual(Date.now());
    });

    it('answers only the workspaces whose data changed since the timestamp', async () => {
      await ageScene();
      const minuteAgo = since(60_000);
      const quiet = (await get(`${URL}?timestamp=${minuteAgo}`, s.people.owner)).json();
      expect(quiet).toMatchObject({ count: 0, results: [] });

      // The workspace itself changes.
      await t.ctx.db
        .update(clients)
        .set({ dashboard_button_color: '#000000' })
        .where(eq(clients.id, s.clients.north.id));
      let body = (await get(`${URL}?timestamp=${minuteAgo}`, s.people.owner)).json();
      expect(names(body)).toEqual(['North']);
      expect(body.results[0].dashboard_button_color).toBe('#000000');
      // The staff member sees the same change; the client too.
      expect(names((await get(`${URL}?timestamp=${minuteAgo}`, s.people.staff)).json())).toEqual([
        'North',
      ]);

      // A module is switched on (epoch milliseconds work as well as ISO 8601).
      await ageScene();
      await t.ctx.db
        .update(clientModules)
        .set({ enabled: true })
        .where(eq(clientModules.client_id, s.clients.alpha.id));
      body = (await get(`${URL}?timestamp=${Date.now() - 60_000}`, s.people.owner)).json();
      expect(names(body)).toEqual(['alpha lane']);
      expect(body.results[0].modules).toEqual([{ module: 'TR', enabled: true }]);

      // The caller's own role changes: only their answer moves.
      await ageScene();
      await t.ctx.db
        .update(clientMembers)
        .set({ role: 'MANAGER' })
        .where(inArray(clientMembers.user_id, [s.people.client.id]));
      body = (await get(`${URL}?timestamp=${since(60_000)}`, s.people.client)).json();
      expect(names(body)).toEqual(['North']);
      expect(body.results[0].role.key).toBe('MANAGER');
      expect((await get(`${URL}?timestamp=${since(60_000)}`, s.people.staff)).json().count).toBe(0);
    });

    it('answers 400 naming the timestamp when it is not a time, and 401 anonymous', async () => {
      for (const value of [
        'yesterday',
        '-1',
        '2026-13-01T00:00:00Z',
        '2026-01-01T00:00:00',
        '0000-01-01T00:00:00Z',
        '99999999999999999',
        '',
      ]) {
        const res = await get(`${URL}?timestamp=${encodeURIComponent(value)}`, s.people.owner);
        expect(res.statusCode, value).toBe(400);
        expect(res.json().code).toBe(ErrorCode.VALIDATION_ERROR);
        expect(fields(res)).toContain('timestamp');
      }
      for (const [query, field] of [
        ['limit=1000', 'limit'],
        ['since=1', 'since'],
      ] as const) {
        expect(fields(await get(`${URL}?${query}`, s.people.owner))).toContain(field);
      }
      expect((await get(URL)).statusCode).toBe(401);
    });
  });
});
