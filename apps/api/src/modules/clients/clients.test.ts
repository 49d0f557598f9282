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
import { activities, clientModules, clients } from '../../db/schema/index.ts';
import { addClientMember, createClient } from '../../seed/factories.ts';

/**
 * Workspaces on their own: POST /v1/clients/, GET/PATCH /v1/clients/{id}/,
 * GET /v1/clients/{id}/modules/ and PATCH /v1/clients/{id}/modules/{moduleId}/.
 */
describe('/v1/clients/', () => {
  let t: TestApp;
  let s: TenantScene;
  let p: Record<OrgPerson, Person>;
  /** A workspace of the organization with members of each workspace role. */
  let clientId: string;
  let ws: Record<'OWNER' | 'ADMIN' | 'MANAGER' | 'STAFF' | 'CLIENT', Person>;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    p = s.people;
    clientId = (
      await createClient(t.ctx.db, { organizationId: s.orgId, ownerId: p.OWNER.id, name: 'Quay' })
    ).id;
    ws = {} as typeof ws;
    for (const role of ['OWNER', 'ADMIN', 'MANAGER', 'STAFF', 'CLIENT'] as const) {
      ws[role] = await s.member(role === 'CLIENT' ? 'CLIENT' : 'STAFF');
      await addClientMember(t.ctx.db, { clientId, userId: ws[role].id, role });
    }
  });
  afterAll(() => t.close());

  const recorded = (objectId: string, action: string) =>
    t.ctx.db
      .select()
      .from(activities)
      .where(and(eq(activities.object_id, objectId), eq(activities.action, action)));

  describe('POST /v1/clients/', () => {
    it('creates in the organization of the body, by the same rules as under it', async () => {
      const byOwner = await s.send('POST', '/v1/clients/', p.OWNER, {
        organization: s.orgId,
        name: 'From body',
      });
      expect(byOwner.statusCode).toBe(201);
      expect(byOwner.json()).toMatchObject({
        organization: s.orgId,
        name: 'From body',
        active: true,
        modules: [{ module: 'TR', enabled: true }],
      });
      const byStaff = await s.send('POST', '/v1/clients/', p.STAFF, {
        organization: s.orgId,
        name: 'Staff from body',
      });
      expect(byStaff.statusCode).toBe(201);
      expect(byStaff.json()).toMatchObject({ active: false, modules: [{ enabled: false }] });
      const clash = await s.send('POST', '/v1/clients/', p.ADMIN, {
        organization: s.orgId,
        name: 'FROM BODY',
      });
      expect(clash.statusCode).toBe(409);
      expect(clash.json().code).toBe(ErrorCode.NAME_TAKEN);
    });

    it('answers 403 to a CLIENT, 404 to a non-member and for no such organization, 401 anonymous', async () => {
      const body = { organization: s.orgId, name: 'Refused' };
      expect((await s.send('POST', '/v1/clients/', p.CLIENT, body)).statusCode).toBe(403);
      const stranger = await s.send('POST', '/v1/clients/', p.STRANGER, body);
      expect(stranger.statusCode).toBe(404);
      const missing = await s.send('POST', '/v1/clients/', p.OWNER, {
        organization: crypto.randomUUID(),
        name: 'Refused',
      });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual(stranger.json());
      expect((await s.send('POST', '/v1/clients/', 'anonymous', body)).statusCode).toBe(401);
      const written = await t.ctx.db.select().from(clients).where(eq(clients.name, 'Refused'));
      expect(written).toEqual([]);
    });

    it('refuses bad input with 400 naming the field', async () => {
      const cases: [unknown, string][] = [
        [{ name: 'No org' }, 'organization'],
        [{ organization: 'nope', name: 'Bad org' }, 'organization'],
        [{ organization: s.orgId }, 'name'],
        [{ organization: s.orgId, name: 'x'.repeat(121) }, 'name'],
        [{ organization: s.orgId, name: 'ok', active: true }, 'active'],
      ];
      for (const [payload, field] of cases) {
        const res = await s.send('POST', '/v1/clients/', p.OWNER, payload);
        expect({ payload, status: res.statusCode }).toEqual({ payload, status: 400 });
        expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
      }
    });
  });

  describe('GET /v1/clients/{id}/', () => {
    it('answers any member, with the role that counts', async () => {
      const expected: [Person | 'anonymous', number, string | null][] = [
        [p.OWNER, 200, 'OWNER'],
        [p.ADMIN, 200, 'ADMIN'],
        [ws.ADMIN, 200, 'ADMIN'],
        [ws.MANAGER, 200, 'MANAGER'],
        [ws.STAFF, 200, 'STAFF'],
        [ws.CLIENT, 200, 'CLIENT'],
        [p.STAFF, 404, null],
        [p.CLIENT, 404, null],
        [p.STRANGER, 404, null],
        ['anonymous', 401, null],
      ];
      for (const [i, [who, status, role]] of expected.entries()) {
        const res = await s.send('GET', `/v1/clients/${clientId}/`, who);
        expect({ i, status: res.statusCode }).toEqual({ i, status });
        if (role) expect(res.json().role.key).toBe(role);
      }
      const res = await s.send('GET', `/v1/clients/${clientId}/`, ws.CLIENT);
      expect(res.json()).toEqual({
        id: clientId,
        organization: s.orgId,
        name: 'Quay',
        logo: null,
        active: true,
        role: { key: 'CLIENT', name: 'Client' },
        modules: [{ module: 'TR', enabled: true }],
        dashboard_button_color: '#1985ac',
        created: expect.any(String),
      });
    });

    it('answers 404 for a missing workspace and 400 for a malformed id', async () => {
      const missing = await s.send('GET', `/v1/clients/${crypto.randomUUID()}/`, p.OWNER);
      expect(missing.statusCode).toBe(404);
      const bad = await s.send('GET', '/v1/clients/12/', p.OWNER);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details).toEqual([{ field: 'id', message: expect.any(String) }]);
    });
  });

  describe('PATCH /v1/clients/{id}/', () => {
    const url = () => `/v1/clients/${clientId}/`;

    it('lets workspace OWNER/ADMIN and organization OWNER/ADMIN change it', async () => {
      const expected: [Person | 'anonymous', number][] = [
        [p.OWNER, 200],
        [p.ADMIN, 200],
        [ws.OWNER, 200],
        [ws.ADMIN, 200],
        [ws.MANAGER, 403],
        [ws.STAFF, 403],
        [ws.CLIENT, 403],
        [p.STAFF, 404],
        [p.STRANGER, 404],
        ['anonymous', 401],
      ];
      for (const [i, [who, status]] of expected.entries()) {
        const res = await s.send('PATCH', url(), who, { dashboard_button_color: `#00000${i}` });
        expect({ i, status: res.statusCode }).toEqual({ i, status });
      }
      const res = await s.send('PATCH', url(), ws.ADMIN, { name: 'Quay two', logo: null });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        name: 'Quay two',
        dashboard_button_color: '#000003',
        role: { key: 'ADMIN' },
      });
      expect((await recorded(clientId, 'UPDATE_WORKSPACE')).length).toBe(5);
    });

    it('answers an empty or unchanged request with the workspace, recording nothing', async () => {
      const before = (await recorded(clientId, 'UPDATE_WORKSPACE')).length;
      const empty = await s.send('PATCH', url(), p.OWNER, {});
      expect(empty.statusCode).toBe(200);
      expect(empty.json().name).toBe('Quay two');
      const same = await s.send('PATCH', url(), p.OWNER, { name: 'Quay two' });
      expect(same.statusCode).toBe(200);
      expect((await recorded(clientId, 'UPDATE_WORKSPACE')).length).toBe(before);
    });

    it('refuses a live name of the organization with 409, and bad input with 400', async () => {
      await createClient(t.ctx.db, { organizationId: s.orgId, name: 'Other quay' });
      const clash = await s.send('PATCH', url(), p.OWNER, { name: 'other QUAY' });
      expect(clash.statusCode).toBe(409);
      expect(clash.json().code).toBe(ErrorCode.NAME_TAKEN);
      const cases: [unknown, string][] = [
        [{ name: '' }, 'name'],
        [{ dashboard_button_color: '#12345' }, 'dashboard_button_color'],
        [{ dashboard_button_color: 'red' }, 'dashboard_button_color'],
        [{ organization: s.otherOrgId }, 'organization'],
        [{ logo: '/uploads/someone-else.png' }, 'logo'],
      ];
      for (const [payload, field] of cases) {
        const res = await s.send('PATCH', url(), p.OWNER, payload);
        expect({ payload, status: res.statusCode }).toEqual({ payload, status: 400 });
        expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
      }
      const [row] = await t.ctx.db.select().from(clients).where(eq(clients.id, clientId));
      expect(row).toMatchObject({ name: 'Quay two', organization_id: s.orgId, logo: null });
    });
  });

  describe('GET and PATCH /v1/clients/{id}/modules/', () => {
    const modulesUrl = () => `/v1/clients/${clientId}/modules/`;
    const trState = async () => {
      const [row] = await t.ctx.db
        .select()
        .from(clientModules)
        .where(and(eq(clientModules.client_id, clientId), eq(clientModules.module, 'TR')));
      return row!;
    };

    it('lists the modules to any member', async () => {
      for (const who of [p.OWNER, ws.CLIENT, ws.STAFF]) {
        const res = await s.send('GET', modulesUrl(), who);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual([
          { id: expect.any(String), module: 'TR', name: '2D Transit', enabled: true },
        ]);
      }
      expect((await s.send('GET', modulesUrl(), p.STAFF)).statusCode).toBe(404);
      expect((await s.send('GET', modulesUrl(), p.STRANGER)).statusCode).toBe(404);
      expect((await s.send('GET', modulesUrl(), 'anonymous')).statusCode).toBe(401);
    });

    it('sets the requested state: two identical calls leave it as asked', async () => {
      for (let i = 0; i < 2; i++) {
        const res = await s.send('PATCH', `${modulesUrl()}TR/`, ws.MANAGER, { enabled: false });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ module: 'TR', enabled: false });
        expect((await trState()).enabled).toBe(false);
      }
      // By the row's id, too.
      const { id } = await trState();
      for (let i = 0; i < 2; i++) {
        const res = await s.send('PATCH', `${modulesUrl()}${id}/`, p.ADMIN, { enabled: true });
        expect(res.json()).toEqual({ id, module: 'TR', name: '2D Transit', enabled: true });
      }
      // Each real change is recorded once.
      const changes = await recorded(clientId, 'UPDATE_WORKSPACE_MODULES');
      expect(changes.map((c) => c.data.enabled)).toEqual([false, true]);
      expect(changes[0]!.data).toMatchObject({ module: 'TR', client_id: clientId });
    });

    it('answers the permission matrix', async () => {
      const expected: [Person | 'anonymous', number][] = [
        [p.OWNER, 200],
        [p.ADMIN, 200],
        [ws.OWNER, 200],
        [ws.ADMIN, 200],
        [ws.MANAGER, 200],
        [ws.STAFF, 403],
        [ws.CLIENT, 403],
        [p.STAFF, 404],
        [p.CLIENT, 404],
        [p.STRANGER, 404],
        ['anonymous', 401],
      ];
      for (const [i, [who, status]] of expected.entries()) {
        const res = await s.send('PATCH', `${modulesUrl()}TR/`, who, { enabled: true });
        expect({ i, status: res.statusCode }).toEqual({ i, status });
      }
    });

    it('answers 404 for a module the workspace does not have', async () => {
      const other = await createClient(t.ctx.db, { organizationId: s.orgId, name: 'Elsewhere' });
      const [foreignRow] = await t.ctx.db
        .select()
        .from(clientModules)
        .where(eq(clientModules.client_id, other.id));
      for (const moduleId of ['XYZ', 'tr', 'MAP', foreignRow!.id, crypto.randomUUID()]) {
        const res = await s.send('PATCH', `${modulesUrl()}${moduleId}/`, p.OWNER, {
          enabled: true,
        });
        expect({ moduleId, status: res.statusCode }).toEqual({ moduleId, status: 404 });
      }
      // The other workspace's module was not touched through this one.
      const [after] = await t.ctx.db
        .select()
        .from(clientModules)
        .where(eq(clientModules.id, foreignRow!.id));
      expect(after!.modified_at).toEqual(foreignRow!.modified_at);
    });

    it('refuses bad input with 400 naming the field', async () => {
      const cases: [string, unknown, string][] = [
        ['TR', {}, 'enabled'],
        ['TR', { enabled: 'false' }, 'enabled'],
        ['TR', { enabled: true, module: 'MAP' }, 'module'],
        ['T%20R', { enabled: true }, 'moduleId'],
        ['x'.repeat(65), { enabled: true }, 'moduleId'],
      ];
      for (const [moduleId, payload, field] of cases) {
        const res = await s.send('PATCH', `${modulesUrl()}${moduleId}/`, p.OWNER, payload);
        expect({ moduleId, status: res.statusCode }).toEqual({ moduleId, status: 400 });
        expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
      }
      const bad = await s.send('PATCH', '/v1/clients/nope/modules/TR/', p.OWNER, {
        enabled: true,
      });
      expect(bad.json().details.map((d: { field: string }) => d.field)).toEqual(['id']);
    });

    it('creates the row of a module of the app profile that a workspace lacks', async () => {
      const bare = await createClient(t.ctx.db, {
        organizationId: s.orgId,
        ownerId: p.OWNER.id,
        appProfile: 'skuflex',
      });
      const res = await s.send('PATCH', `/v1/clients/${bare.id}/modules/TR/`, p.OWNER, {
        enabled: true,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ module: 'TR', enabled: true });
      const listed = await s.send('GET', `/v1/clients/${bare.id}/modules/`, p.OWNER);
      expect(listed.json().map((m: { module: string }) => m.module)).toEqual(['TR', 'SKUF']);
    });
  });
});
