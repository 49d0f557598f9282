import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  createTenantScene,
  type OrgPerson,
  type Person,
  type TenantScene,
} from '../../../test/support/tenants.ts';
import {
  activities,
  clientMembers,
  clientModules,
  clients,
  uploads,
} from '../../db/schema/index.ts';
import { addClientMember, createClient } from '../../seed/factories.ts';

/**
 * Workspaces under their organization: GET/POST /v1/organizations/{orgId}/clients/, PUT/DELETE
 * .../{clientId}/, POST .../approve/, GET/POST .../apps/{appId}/.
 */
describe('workspaces of an organization', () => {
  let t: TestApp;
  let s: TenantScene;
  let p: Record<OrgPerson, Person>;
  const base = () => `/v1/organizations/${s.orgId}/clients/`;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    p = s.people;
  });
  afterAll(() => t.close());

  const liveClients = () =>
    t.ctx.db
      .select()
      .from(clients)
      .where(and(eq(clients.organization_id, s.orgId), isNull(clients.deleted_at)));
  const membersOf = async (clientId: string) =>
    Object.fromEntries(
      (
        await t.ctx.db.select().from(clientMembers).where(eq(clientMembers.client_id, clientId))
      ).map((m) => [m.user_id, m.role]),
    );
  const activitiesOf = (objectId: string) =>
    t.ctx.db.select().from(activities).where(eq(activities.object_id, objectId));

  describe('POST /v1/organizations/{orgId}/clients/', () => {
    it('lets an OWNER create an active workspace: modules on, OWNERs and ADMINs its OWNERs', async () => {
      const res = await s.send('POST', base(), p.OWNER, { name: '  Harbour One  ' });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({
        organization: s.orgId,
        name: 'Harbour One',
        logo: null,
        active: true,
        role: { key: 'OWNER', name: 'Owner' },
        modules: [{ module: 'TR', enabled: true }],
        dashboard_button_color: '#1985ac',
      });
      const [row] = await t.ctx.db.select().from(clients).where(eq(clients.id, body.id));
      expect(row!.owner_id).toBe(p.OWNER.id);
      expect(await membersOf(body.id)).toEqual({ [p.OWNER.id]: 'OWNER', [p.ADMIN.id]: 'OWNER' });
      const recorded = await activitiesOf(body.id);
      expect(recorded).toHaveLength(1);
      expect(recorded[0]).toMatchObject({
        user_id: p.OWNER.id,
        action: 'CREATE_WORKSPACE',
        object_type: 'client',
        organization_id: s.orgId,
        data: { app_profile: 'transit', client_id: body.id, client_name: 'Harbour One' },
      });
    });

    it('lets an ADMIN create an active workspace', async () => {
      const res = await s.send('POST', base(), p.ADMIN, { name: 'Admin made' });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ active: true, role: { key: 'OWNER' } });
      expect(await membersOf(res.json().id)).toEqual({
        [p.OWNER.id]: 'OWNER',
        [p.ADMIN.id]: 'OWNER',
      });
    });

    it('makes a STAFF-created workspace pending, modules off, visible to its creator only among non-admins', async () => {
      const res = await s.send('POST', base(), p.STAFF, { name: 'Staff idea' });
      expect(res.statusCode).toBe(201);
      const created = res.json();
      expect(created).toMatchObject({
        active: false,
        modules: [{ module: 'TR', enabled: false }],
      });
      expect(await membersOf(created.id)).toEqual({ [p.STAFF.id]: 'OWNER' });
      // The creator sees it among the pending ones; another STAFF does not; OWNER does.
      const mine = await s.send('GET', `${base()}?status=pending`, p.STAFF);
      expect(mine.json().results.map((c: { id: string }) => c.id)).toContain(created.id);
      const otherStaff = await s.member('STAFF');
      const theirs = await s.send('GET', `${base()}?status=pending`, otherStaff);
      expect(theirs.json().results.map((c: { id: string }) => c.id)).not.toContain(created.id);
      const owners = await s.send('GET', `${base()}?status=pending`, p.OWNER);
      expect(owners.json().results.map((c: { id: string }) => c.id)).toContain(created.id);
      // It is not usable until approved, even by its creator.
      expect((await s.send('GET', `/v1/clients/${created.id}/`, p.STAFF)).statusCode).toBe(404);
    });

    it('answers the permission matrix: CLIENT 403, another organization 404, anonymous 401', async () => {
      const before = (await liveClients()).length;
      expect((await s.send('POST', base(), p.CLIENT, { name: 'No' })).statusCode).toBe(403);
      expect((await s.send('POST', base(), p.STRANGER, { name: 'No' })).statusCode).toBe(404);
      expect((await s.send('POST', base(), 'anonymous', { name: 'No' })).statusCode).toBe(401);
      const missing = `/v1/organizations/${crypto.randomUUID()}/clients/`;
      expect((await s.send('POST', missing, p.OWNER, { name: 'No' })).statusCode).toBe(404);
      expect((await liveClients()).length).toBe(before);
    });

    it('refuses a live name of the organization, whatever its case, with 409 NAME_TAKEN', async () => {
      await s.send('POST', base(), p.OWNER, { name: 'Pier 9' });
      const before = (await liveClients()).length;
      const res = await s.send('POST', base(), p.STAFF, { name: 'PIER 9' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: ErrorCode.NAME_TAKEN,
        details: [{ field: 'name', message: expect.any(String) }],
      });
      expect((await liveClients()).length).toBe(before);
      // Another organization may use it.
      const elsewhere = await s.send(
        'POST',
        `/v1/organizations/${s.otherOrgId}/clients/`,
        p.STRANGER,
        { name: 'Pier 9' },
      );
      expect(elsewhere.statusCode).toBe(201);
    });

    it('refuses bad input with 400 naming the field, and writes nothing', async () => {
      const before = (await liveClients()).length;
      const cases: [unknown, string][] = [
        [{}, 'name'],
        [{ name: '' }, 'name'],
        [{ name: '   ' }, 'name'],
        [{ name: 'x'.repeat(121) }, 'name'],
        [{ name: 'tab\there' }, 'name'],
        [{ name: 'ok', colour: 'red' }, 'colour'],
        [{ name: 'ok', logo: 42 }, 'logo'],
        [{ name: 'ok', logo: '/uploads/not-mine.png' }, 'logo'],
      ];
      for (const [payload, field] of cases) {
        const res = await s.send('POST', base(), p.OWNER, payload);
        expect({ payload, status: res.statusCode }).toEqual({ payload, status: 400 });
        expect(res.json().code).toBe(ErrorCode.VALIDATION_ERROR);
        expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
      }
      const bad = await s.send('POST', '/v1/organizations/nope/clients/', p.OWNER, { name: 'a' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details).toEqual([{ field: 'orgId', message: expect.any(String) }]);
      expect((await liveClients()).length).toBe(before);
    });

    it('takes a logo the caller uploaded', async () => {
      const key = `${crypto.randomUUID()}.png`;
      await t.ctx.db.insert(uploads).values({
        user_id: p.ADMIN.id,
        storage_key: key,
        content_type: 'image/png',
        size: 10,
      });
      const res = await s.send('POST', base(), p.ADMIN, {
        name: 'With logo',
        logo: `/uploads/${key}`,
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().logo).toBe(`/uploads/${key}`);
      // Someone else's upload is refused.
      const theirs = await s.send('POST', base(), p.OWNER, {
        name: 'Theirs',
        logo: `/uploads/${key}`,
      });
      expect(theirs.statusCode).toBe(400);
    });
  });

  describe('GET /v1/organizations/{orgId}/clients/', () => {
    let ids: Record<string, string>;

    beforeAll(async () => {
      // A scene of its own: a fresh organization keeps the counts exact.
      s = await createTenantScene(t);
      p = s.people;
      type Fields = Omit<Parameters<typeof createClient>[1], 'organizationId' | 'name'>;
      const ws = (name: string, fields: Fields = {}) =>
        createClient(t.ctx.db, { ...fields, organizationId: s.orgId, name });
      const alpha = await ws('Alpha 100%', { ownerId: p.OWNER.id });
      const beta = await ws('beta', { ownerId: p.OWNER.id });
      await addClientMember(t.ctx.db, { clientId: beta.id, userId: p.STAFF.id, role: 'STAFF' });
      await addClientMember(t.ctx.db, { clientId: beta.id, userId: p.CLIENT.id, role: 'CLIENT' });
      const staffPending = await ws('Gamma pending', {
        ownerId: p.STAFF.id,
        active: false,
        enabledModules: [],
      });
      const otherPending = await ws('Delta pending', { active: false });
      // STAFF is a PENDING (invited) member here: not listed for them.
      const epsilon = await ws('Epsilon');
      await addClientMember(t.ctx.db, {
        clientId: epsilon.id,
        userId: p.STAFF.id,
        role: 'STAFF',
        status: 'PENDING',
      });
      // A workspace of another app profile, and a deleted one: never listed.
      const matrix = await ws('Matrix only', { appProfile: 'matrix' });
      const gone = await ws('Gone', { ownerId: p.STAFF.id });
      await t.ctx.db.update(clients).set({ deleted_at: new Date() }).where(eq(clients.id, gone.id));
      ids = {
        alpha: alpha.id,
        beta: beta.id,
        staffPending: staffPending.id,
        otherPending: otherPending.id,
        epsilon: epsilon.id,
        matrix: matrix.id,
      };
    });

    const names = async (who: Person | 'anonymous', query = '') => {
      const res = await s.send('GET', `${base()}${query}`, who as Person);
      expect(res.statusCode).toBe(200);
      return res.json().results.map((c: { name: string }) => c.name);
    };

    it('shows OWNER and ADMIN every live workspace of the app profile, by name', async () => {
      const all = ['Alpha 100%', 'beta', 'Delta pending', 'Epsilon', 'Gamma pending'];
      expect(await names(p.OWNER)).toEqual(all);
      expect(await names(p.ADMIN)).toEqual(all);
      const res = await s.send('GET', base(), p.ADMIN);
      expect(res.json()).toMatchObject({ count: 5, next: null, previous: null });
      const beta = res.json().results.find((c: { name: string }) => c.name === 'beta');
      // An organization ADMIN acts as ADMIN of every workspace.
      expect(beta).toMatchObject({
        id: ids.beta,
        role: { key: 'ADMIN', name: 'Admin' },
        modules: [{ module: 'TR', enabled: true }],
      });
    });

    it('shows others the active workspaces they belong to and the pending ones they created', async () => {
      expect(await names(p.STAFF)).toEqual(['beta', 'Gamma pending']);
      expect(await names(p.CLIENT)).toEqual(['beta']);
      const staffView = await s.send('GET', base(), p.STAFF);
      expect(staffView.json().results[0].role).toEqual({ key: 'STAFF', name: 'Staff' });
    });

    it('filters by status and searches the name (case-insensitively, wildcards literal)', async () => {
      expect(await names(p.OWNER, '?status=enabled')).toEqual(['Alpha 100%', 'beta', 'Epsilon']);
      expect(await names(p.OWNER, '?status=pending')).toEqual(['Delta pending', 'Gamma pending']);
      expect(await names(p.OWNER, '?status=all&key=PENDING')).toEqual([
        'Delta pending',
        'Gamma pending',
      ]);
      expect(await names(p.OWNER, '?key=100%25')).toEqual(['Alpha 100%']);
      expect(await names(p.OWNER, '?key=_')).toEqual([]);
      expect(await names(p.STAFF, '?status=pending')).toEqual(['Gamma pending']);
    });

    it('pages: count, next and previous; a page past the end keeps the count', async () => {
      const second = await s.send('GET', `${base()}?limit=2&page=2`, p.OWNER);
      expect(second.json()).toMatchObject({ count: 5, next: 3, previous: 1 });
      expect(second.json().results.map((c: { name: string }) => c.name)).toEqual([
        'Delta pending',
        'Epsilon',
      ]);
      const past = await s.send('GET', `${base()}?limit=2&page=9`, p.OWNER);
      expect(past.json()).toEqual({ count: 5, next: null, previous: 8, results: [] });
    });

    it('answers the permission matrix: anonymous 401, another organization 404', async () => {
      expect((await s.send('GET', base(), 'anonymous')).statusCode).toBe(401);
      expect((await s.send('GET', base(), p.STRANGER)).statusCode).toBe(404);
    });

    it('refuses bad queries with 400 naming the parameter', async () => {
      const cases: [string, string][] = [
        ['?limit=1000', 'limit'],
        ['?limit=0', 'limit'],
        ['?page=0', 'page'],
        ['?status=active', 'status'],
        ['?colour=red', 'colour'],
        [`?key=${'k'.repeat(121)}`, 'key'],
      ];
      for (const [query, field] of cases) {
        const res = await s.send('GET', `${base()}${query}`, p.OWNER);
        expect({ query, status: res.statusCode }).toEqual({ query, status: 400 });
        expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
      }
    });
  });

  describe('PUT and DELETE /v1/organizations/{orgId}/clients/{clientId}/', () => {
    let clientId: string;
    let wsOwner: Person;
    let wsAdmin: Person;
    let wsManager: Person;
    const url = () => `${base()}${clientId}/`;

    beforeAll(async () => {
      const made = await s.send('POST', base(), p.OWNER, { name: 'Editable' });
      clientId = made.json().id;
      // Organization STAFF who hold OWNER, ADMIN and MANAGER in the workspace.
      wsOwner = await s.member('STAFF');
      wsAdmin = await s.member('STAFF');
      wsManager = await s.member('STAFF');
      await addClientMember(t.ctx.db, { clientId, userId: wsOwner.id, role: 'OWNER' });
      await addClientMember(t.ctx.db, { clientId, userId: wsAdmin.id, role: 'ADMIN' });
      await addClientMember(t.ctx.db, { clientId, userId: wsManager.id, role: 'MANAGER' });
      await addClientMember(t.ctx.db, { clientId, userId: p.CLIENT.id, role: 'CLIENT' });
    });

    it('lets organization OWNER/ADMIN and workspace OWNER/ADMIN change it', async () => {
      const expected: [Person, number][] = [
        [p.OWNER, 200],
        [p.ADMIN, 200],
        [wsOwner, 200],
        [wsAdmin, 200],
        [wsManager, 403],
        [p.CLIENT, 403],
        [p.STAFF, 404],
        [p.STRANGER, 404],
      ];
      for (const [i, [who, status]] of expected.entries()) {
        const res = await s.send('PUT', url(), who, { name: `Editable ${i}` });
        expect({ i, status: res.statusCode }).toEqual({ i, status });
      }
      expect((await s.send('PUT', url(), 'anonymous', { name: 'x' })).statusCode).toBe(401);
      const res = await s.send('PUT', url(), p.ADMIN, {
        name: 'Renamed',
        dashboard_button_color: '#00AA11',
      });
      expect(res.json()).toMatchObject({
        id: clientId,
        name: 'Renamed',
        dashboard_button_color: '#00AA11',
        // The organization's ADMINs became OWNER members when an ADMIN created it.
        role: { key: 'OWNER' },
      });
      const recorded = (await activitiesOf(clientId)).filter(
        (a) => a.action === 'UPDATE_WORKSPACE',
      );
      expect(recorded.length).toBe(5);
      expect(recorded.at(-1)!.data).toMatchObject({
        client_name: 'Renamed',
        previous_name: 'Editable 3',
        changes: ['name', 'dashboard_button_color'],
      });
    });

    it('answers 404 for a workspace under another organization’s path', async () => {
      const crossed = `/v1/organizations/${s.otherOrgId}/clients/${clientId}/`;
      expect((await s.send('PUT', crossed, p.STRANGER, { name: 'Mine' })).statusCode).toBe(404);
      expect((await s.send('DELETE', crossed, p.STRANGER)).statusCode).toBe(404);
    });

    it('refuses a name taken by another live workspace (409) but not its own in another case', async () => {
      await s.send('POST', base(), p.OWNER, { name: 'Taken name' });
      const clash = await s.send('PUT', url(), p.OWNER, { name: 'taken NAME' });
      expect(clash.statusCode).toBe(409);
      expect(clash.json().code).toBe(ErrorCode.NAME_TAKEN);
      const own = await s.send('PUT', url(), p.OWNER, { name: 'RENAMED' });
      expect(own.statusCode).toBe(200);
      expect(own.json().name).toBe('RENAMED');
    });

    it('refuses bad input with 400 naming the field', async () => {
      const cases: [unknown, string][] = [
        [{}, 'name'],
        [{ name: '' }, 'name'],
        [{ name: 'ok', dashboard_button_color: 'blue' }, 'dashboard_button_color'],
        [{ name: 'ok', active: true }, 'active'],
      ];
      for (const [payload, field] of cases) {
        const res = await s.send('PUT', url(), p.OWNER, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
      }
      const bad = await s.send('PUT', `${base()}not-a-uuid/`, p.OWNER, { name: 'x' });
      expect(bad.json().details).toEqual([{ field: 'clientId', message: expect.any(String) }]);
    });

    it('deletes softly (organization OWNER or ADMIN only) and frees the name', async () => {
      for (const who of [wsOwner, wsAdmin, p.CLIENT]) {
        expect((await s.send('DELETE', url(), who)).statusCode).toBe(403);
      }
      expect((await s.send('DELETE', url(), p.STAFF)).statusCode).toBe(404);
      expect((await s.send('DELETE', url(), 'anonymous')).statusCode).toBe(401);
      const name = (await s.send('GET', `/v1/clients/${clientId}/`, p.OWNER)).json().name;
      const res = await s.send('DELETE', url(), p.ADMIN);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      const [row] = await t.ctx.db.select().from(clients).where(eq(clients.id, clientId));
      expect(row!.deleted_at).not.toBeNull();
      expect((await s.send('GET', `/v1/clients/${clientId}/`, p.OWNER)).statusCode).toBe(404);
      expect((await s.send('DELETE', url(), p.ADMIN)).statusCode).toBe(404);
      const listed = await s.send('GET', base(), p.OWNER);
      expect(listed.json().results.map((c: { id: string }) => c.id)).not.toContain(clientId);
      expect((await activitiesOf(clientId)).map((a) => a.action)).toContain('DELETE_WORKSPACE');
      // The name of a deleted workspace can be used again.
      const again = await s.send('POST', base(), p.OWNER, { name });
      expect(again.statusCode).toBe(201);
      expect(again.json().id).not.toBe(clientId);
    });
  });

  describe('POST /v1/organizations/{orgId}/clients/{clientId}/approve/', () => {
    const approve = (clientId: string, who: Person | 'anonymous') =>
      s.send('POST', `${base()}${clientId}/approve/`, who);

    it('activates a STAFF-created workspace, grants access, switches its modules on', async () => {
      const created = (await s.send('POST', base(), p.STAFF, { name: 'To approve' })).json();
      expect((await approve(created.id, p.STAFF)).statusCode).toBe(404);
      expect((await approve(created.id, p.CLIENT)).statusCode).toBe(404);
      expect((await approve(created.id, p.STRANGER)).statusCode).toBe(404);
      expect((await approve(created.id, 'anonymous')).statusCode).toBe(401);
      const res = await approve(created.id, p.ADMIN);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: created.id,
        active: true,
        modules: [{ module: 'TR', enabled: true }],
        role: { key: 'OWNER' },
      });
      expect(await membersOf(created.id)).toEqual({
        [p.OWNER.id]: 'OWNER',
        [p.ADMIN.id]: 'OWNER',
        [p.STAFF.id]: 'OWNER',
      });
      // Its creator now uses it.
      const seen = await s.send('GET', `/v1/clients/${created.id}/`, p.STAFF);
      expect(seen.json()).toMatchObject({ active: true, role: { key: 'OWNER' } });
      const actions = (await activitiesOf(created.id)).map((a) => a.action);
      expect(actions.sort()).toEqual(['APPROVE_WORKSPACE', 'CREATE_WORKSPACE']);
    });

    it('answers 400 ALREADY_APPROVED for an active workspace, changing nothing', async () => {
      const active = (await s.send('POST', base(), p.OWNER, { name: 'Already on' })).json();
      const res = await approve(active.id, p.OWNER);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe(ErrorCode.ALREADY_APPROVED);
      expect((await activitiesOf(active.id)).map((a) => a.action)).toEqual(['CREATE_WORKSPACE']);
    });

    it('makes exactly one of two approvals at once succeed', async () => {
      const created = (await s.send('POST', base(), p.STAFF, { name: 'Twice' })).json();
      const both = await Promise.all([approve(created.id, p.OWNER), approve(created.id, p.ADMIN)]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    });

    it('leaves the modules as they are when one was already on', async () => {
      const pending = await createClient(t.ctx.db, {
        organizationId: s.orgId,
        ownerId: p.STAFF.id,
        active: false,
        appProfile: 'matrix',
        enabledModules: ['MAP'],
      });
      const res = await approve(pending.id, p.OWNER);
      expect(res.statusCode).toBe(200);
      // Every module of the app profile gets its row; MAP stays the only one on.
      expect(res.json().modules).toEqual([
        { module: 'MAP', enabled: true },
        { module: 'RA', enabled: false },
        { module: 'DS', enabled: false },
        { module: 'MT', enabled: false },
        { module: 'TR', enabled: false },
      ]);
    });

    it('refuses a malformed id with 400', async () => {
      const res = await approve('x', p.OWNER);
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual([{ field: 'clientId', message: expect.any(String) }]);
    });
  });

  describe('GET and POST /v1/organizations/{orgId}/clients/{clientId}/apps/{appId}/', () => {
    let clientId: string;
    let wsManager: Person;
    let wsStaff: Person;
    const app = (name: string) => `${base()}${clientId}/apps/${name}/`;
    const states = async () =>
      Object.fromEntries(
        (
          await t.ctx.db.select().from(clientModules).where(eq(clientModules.client_id, clientId))
        ).map((m) => [m.module, m.enabled]),
      );

    beforeAll(async () => {
      clientId = (await s.send('POST', base(), p.OWNER, { name: 'Apps' })).json().id;
      wsManager = await s.member('CLIENT');
      wsStaff = await s.member('CLIENT');
      await addClientMember(t.ctx.db, { clientId, userId: wsManager.id, role: 'MANAGER' });
      await addClientMember(t.ctx.db, { clientId, userId: wsStaff.id, role: 'STAFF' });
    });

    it('lists the modules of an application and their states', async () => {
      const transit = await s.send('GET', app('transit'), wsStaff);
      expect(transit.statusCode).toBe(200);
      expect(transit.json()).toEqual({
        app: 'transit',
        modules: [{ module: 'TR', name: '2D Transit', enabled: true }],
        enabled: true,
      });
      const matrix = await s.send('GET', app('matrix'), p.OWNER);
      expect(matrix.json()).toEqual({
        app: 'matrix',
        modules: [
          { module: 'DS', name: 'Data Sources', enabled: false },
          { module: 'RA', name: 'Reporting Application', enabled: false },
          { module: 'MT', name: 'Matrix', enabled: false },
          { module: 'MAP', name: 'MAP Watcher', enabled: false },
        ],
        enabled: false,
      });
    });

    it('switches every module of an application as asked, twice the same is the same', async () => {
      for (let i = 0; i < 2; i++) {
        const on = await s.send('POST', app('matrix'), wsManager, { enabled: true });
        expect(on.statusCode).toBe(200);
        expect(on.json().enabled).toBe(true);
        expect(on.json().modules.every((m: { enabled: boolean }) => m.enabled)).toBe(true);
      }
      expect(await states()).toEqual({ TR: true, DS: true, RA: true, MT: true, MAP: true });
      // One change recorded, not two.
      const changes = (
        await t.ctx.db.select().from(activities).where(eq(activities.object_id, clientId))
      ).filter((a) => a.action === 'UPDATE_WORKSPACE_MODULES');
      expect(changes).toHaveLength(1);
      expect(changes[0]!.data).toMatchObject({ app: 'matrix', enabled: true });
      const off = await s.send('POST', app('transit'), p.ADMIN, { enabled: false });
      expect(off.statusCode).toBe(200);
      expect(off.json()).toMatchObject({ enabled: false, modules: [{ enabled: false }] });
    });

    it('refuses switching off only the real last application', async () => {
      // Matrix holds the only enabled modules now.
      const refused = await s.send('POST', app('matrix'), p.OWNER, { enabled: false });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().code).toBe(ErrorCode.LAST_ENABLED_MODULE);
      expect(await states()).toEqual({ TR: false, DS: true, RA: true, MT: true, MAP: true });
      // An application with nothing on can be switched off (it changes nothing).
      expect((await s.send('POST', app('skuflex'), p.OWNER, { enabled: false })).statusCode).toBe(
        200,
      );
      // With another application on, matrix may go off.
      await s.send('POST', app('transit'), p.OWNER, { enabled: true });
      const ok = await s.send('POST', app('matrix'), p.OWNER, { enabled: false });
      expect(ok.statusCode).toBe(200);
      expect(await states()).toMatchObject({ TR: true, DS: false, MAP: false, SKUF: false });
    });

    it('answers the permission matrix', async () => {
      const expected: [Person | 'anonymous', number, number][] = [
        [p.OWNER, 200, 200],
        [p.ADMIN, 200, 200],
        [wsManager, 200, 200],
        [wsStaff, 200, 403],
        [p.STAFF, 404, 404],
        [p.CLIENT, 404, 404],
        [p.STRANGER, 404, 404],
        ['anonymous', 401, 401],
      ];
      for (const [i, [who, get, post]] of expected.entries()) {
        const read = await s.send('GET', app('transit'), who);
        const write = await s.send('POST', app('transit'), who, { enabled: true });
        expect({ i, get: read.statusCode, post: write.statusCode }).toEqual({ i, get, post });
      }
    });

    it('refuses bad input with 400 naming the field', async () => {
      const unknownApp = await s.send('GET', app('billing'), p.OWNER);
      expect(unknownApp.statusCode).toBe(400);
      expect(unknownApp.json().details[0].field).toBe('appId');
      for (const [payload, field] of [
        [{}, 'enabled'],
        [{ enabled: 'yes' }, 'enabled'],
        [{ enabled: true, modules: ['TR'] }, 'modules'],
      ] as const) {
        const res = await s.send('POST', app('transit'), p.OWNER, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
      }
    });
  });
});
