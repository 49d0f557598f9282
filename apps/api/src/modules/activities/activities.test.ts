import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  createTenantScene,
  type OrgPerson,
  type Person,
  type TenantScene,
} from '../../../test/support/tenants.ts';
import { activities } from '../../db/schema/index.ts';
import { minutes } from '../../lib/clock.ts';
import { addClientMember, createClient } from '../../seed/factories.ts';

/** POST /v1/activities/ and GET /v1/organizations/{orgId}/activities/. */
describe('activities', () => {
  let t: TestApp;
  let s: TenantScene;
  let p: Record<OrgPerson, Person>;
  let clientId: string;
  let member: Person;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    p = s.people;
    clientId = (
      await createClient(t.ctx.db, { organizationId: s.orgId, ownerId: p.OWNER.id, name: 'Dock' })
    ).id;
    member = await s.member('CLIENT');
    await addClientMember(t.ctx.db, { clientId, userId: member.id, role: 'CLIENT' });
  });
  afterAll(() => t.close());

  const access = (who: Person | 'anonymous', fields: Record<string, unknown> = {}) =>
    s.send('POST', '/v1/activities/', who, {
      action: 'ACCESS_WORKSPACE',
      object_id: clientId,
      object_type: 'client',
      data: { app_profile: 'matrix', module: 'TR' },
      ...fields,
    });

  const accessRows = (userId: string) =>
    t.ctx.db
      .select()
      .from(activities)
      .where(
        and(
          eq(activities.user_id, userId),
          eq(activities.object_id, clientId),
          eq(activities.action, 'ACCESS_WORKSPACE'),
        ),
      );

  describe('POST /v1/activities/', () => {
    it('records ACCESS_WORKSPACE once per user and workspace, with what the server knows', async () => {
      const first = await access(member);
      expect(first.statusCode).toBe(201);
      expect(first.json()).toEqual({
        id: expect.any(String),
        user: { id: member.id, email: member.email, first_name: 'Client', last_name: 'User' },
        action: 'ACCESS_WORKSPACE',
        object_id: clientId,
        object_type: 'client',
        // The app profile is the server's, whatever the caller sent.
        data: { app_profile: 'transit', module: 'TR', client_id: clientId, client_name: 'Dock' },
        created: t.clock.now().toISOString(),
      });
      const [row] = await accessRows(member.id);
      expect(row!.organization_id).toBe(s.orgId);
      t.clock.advance(minutes(1));
      const again = await access(member, { data: {} });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
      expect(await accessRows(member.id)).toHaveLength(1);
    });

    it('keeps one record when the same user reports access ten times at once', async () => {
      const answers = await Promise.all(Array.from({ length: 10 }, () => access(p.ADMIN)));
      const statuses = answers.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
      expect(new Set(answers.map((r) => r.json().id)).size).toBe(1);
      expect(await accessRows(p.ADMIN.id)).toHaveLength(1);
    });

    it('records each report download', async () => {
      const report = { action: 'DOWNLOAD_REPORT', data: { module: 'TR', report: 'Efficiency' } };
      expect((await access(member, report)).statusCode).toBe(201);
      expect((await access(member, report)).statusCode).toBe(201);
      const rows = await t.ctx.db
        .select()
        .from(activities)
        .where(and(eq(activities.user_id, member.id), eq(activities.action, 'DOWNLOAD_REPORT')));
      expect(rows).toHaveLength(2);
    });

    it('answers 404 for a workspace the caller cannot read, 401 anonymous', async () => {
      // Organization STAFF and CLIENT who are not members of it, and another organization.
      for (const who of [p.STAFF, p.CLIENT, p.STRANGER]) {
        expect((await access(who)).statusCode).toBe(404);
      }
      expect((await access(p.OWNER, { object_id: crypto.randomUUID() })).statusCode).toBe(404);
      // A pending workspace is not usable by its STAFF creator yet.
      const pending = await createClient(t.ctx.db, {
        organizationId: s.orgId,
        ownerId: p.STAFF.id,
        active: false,
      });
      expect((await access(p.STAFF, { object_id: pending.id })).statusCode).toBe(404);
      expect((await access('anonymous')).statusCode).toBe(401);
      for (const who of [p.STAFF, p.CLIENT, p.STRANGER]) {
        expect(await accessRows(who.id)).toHaveLength(0);
      }
    });

    it('refuses bad input with 400 naming the field, and writes nothing', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ action: 'SIGN_IN' }, 'action'],
        [{ action: 'APPROVE_WORKSPACE' }, 'action'],
        [{ action: undefined }, 'action'],
        [{ object_id: 'nope' }, 'object_id'],
        [{ object_type: 'organization' }, 'object_type'],
        [{ data: { module: 'XYZ' } }, 'data.module'],
        [{ data: { secret: 1 } }, 'data.secret'],
        [{ data: { report: 'a\u0000b' } }, 'data.report'],
        [{ extra: true }, 'extra'],
      ];
      for (const [fields, field] of cases) {
        const res = await access(p.OWNER, fields);
        expect({ fields, status: res.statusCode }).toEqual({ fields, status: 400 });
        expect(res.json().code).toBe(ErrorCode.VALIDATION_ERROR);
        expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
      }
      expect(await accessRows(p.OWNER.id)).toHaveLength(0);
    });
  });

  describe('GET /v1/organizations/{orgId}/activities/', () => {
    const url = (query = '') => `/v1/organizations/${s.orgId}/activities/${query}`;
    const list = async (query = '') => {
      const res = await s.send('GET', url(query), p.OWNER);
      expect(res.statusCode).toBe(200);
      return res.json();
    };

    beforeAll(async () => {
      // A workspace change by the ADMIN and an access by a member named for the search.
      t.clock.advance(minutes(1));
      await s.send('POST', `/v1/organizations/${s.orgId}/clients/`, p.ADMIN, { name: 'Wharf' });
      const named = await s.person({ first_name: 'Zelda', last_name: 'Quist' });
      await t.ctx.db.insert(activities).values({
        user_id: named.id,
        action: 'DOWNLOAD_REPORT',
        object_type: 'client',
        object_id: clientId,
        organization_id: s.orgId,
        data: { module: 'MAP' },
        created_at: new Date(t.clock.now().getTime() + minutes(1)),
      });
      // Another organization's activity never shows.
      await s.send('POST', `/v1/organizations/${s.otherOrgId}/clients/`, p.STRANGER, {
        name: 'Theirs',
      });
    });

    it('lists the organization’s activities newest first, with who did them', async () => {
      const page = await list();
      expect(page.count).toBe(6);
      const actions = page.results.map((a: { action: string }) => a.action);
      expect(actions[0]).toBe('DOWNLOAD_REPORT');
      expect(actions[1]).toBe('CREATE_WORKSPACE');
      expect(actions.filter((a: string) => a === 'ACCESS_WORKSPACE')).toHaveLength(2);
      expect(page.results[1]).toMatchObject({
        user: { id: p.ADMIN.id, email: p.ADMIN.email },
        object_type: 'client',
        data: { client_name: 'Wharf', app_profile: 'transit' },
      });
      const times = page.results.map((a: { created: string }) => a.created);
      expect([...times].sort().reverse()).toEqual(times);
    });

    it('filters by action and searches names, e-mails and module labels', async () => {
      expect((await list('?action=CREATE_WORKSPACE')).count).toBe(1);
      expect((await list('?action=ACCESS_WORKSPACE')).count).toBe(2);
      expect((await list('?action=SIGN_IN')).count).toBe(0);
      const byName = await list('?key=zelda%20q');
      expect(
        byName.results.map((a: { user: { first_name: string } }) => a.user.first_name),
      ).toEqual(['Zelda']);
      expect((await list(`?key=${encodeURIComponent(p.ADMIN.email.toUpperCase())}`)).count).toBe(2);
      // "watcher" is in the label of MAP (MAP Watcher); "transit" in TR's (2D Transit).
      expect((await list('?key=watcher')).count).toBe(1);
      const transit = await list('?key=transit');
      expect(
        transit.results.every((a: { data: { module: string } }) => a.data.module === 'TR'),
      ).toBe(true);
      expect(transit.count).toBe(4);
      expect((await list('?key=%25')).count).toBe(0);
    });

    it('pages', async () => {
      const second = await list('?limit=2&page=2');
      expect(second).toMatchObject({ count: 6, next: 3, previous: 1 });
      expect(second.results).toHaveLength(2);
      const last = await list('?limit=2&page=3');
      expect(last).toMatchObject({ count: 6, next: null, previous: 2 });
      const past = await list('?limit=2&page=5');
      expect(past).toEqual({ count: 6, next: null, previous: 4, results: [] });
    });

    it('is for OWNER and ADMIN: STAFF and CLIENT 403, another organization 404, anonymous 401', async () => {
      const expected: [Person | 'anonymous', number][] = [
        [p.OWNER, 200],
        [p.ADMIN, 200],
        [p.STAFF, 403],
        [p.CLIENT, 403],
        [p.STRANGER, 404],
        ['anonymous', 401],
      ];
      for (const [i, [who, status]] of expected.entries()) {
        expect({ i, status: (await s.send('GET', url(), who)).statusCode }).toEqual({ i, status });
      }
    });

    it('refuses bad queries with 400 naming the parameter', async () => {
      const cases: [string, string][] = [
        ['?limit=1000', 'limit'],
        ['?page=-1', 'page'],
        ['?action=EATING', 'action'],
        ['?id=1', 'id'],
        [`?key=${'k'.repeat(201)}`, 'key'],
      ];
      for (const [query, field] of cases) {
        const res = await s.send('GET', url(query), p.OWNER);
        expect({ query, status: res.statusCode }).toEqual({ query, status: 400 });
        expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
      }
      const bad = await s.send('GET', '/v1/organizations/x/activities/', p.OWNER);
      expect(bad.json().details).toEqual([{ field: 'orgId', message: expect.any(String) }]);
    });
  });
});
