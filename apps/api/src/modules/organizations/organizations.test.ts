import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { activities, organizationMembers, organizations } from '../../db/schema/index.ts';
import { addOrganizationMember, createOrganization } from '../../seed/factories.ts';
import { person, tenantScene, uploadImage, type Person, type TenantScene } from './test-scene.ts';

/** GET/POST /v1/organizations/ and GET/PUT /v1/organizations/{id}/, billing on (the default). */
describe('organizations', () => {
  let t: TestApp;
  let s: TenantScene;
  beforeAll(async () => {
    t = await createTestApp();
    s = await tenantScene(t);
  });
  afterAll(() => t.close());

  const get = (url: string, who?: Person) =>
    t.app.inject({ method: 'GET', url, headers: who?.headers ?? {} });
  const send = (method: 'POST' | 'PUT', url: string, payload: unknown, who?: Person) =>
    t.app.inject({ method, url, payload: payload as object, headers: who?.headers ?? {} });
  const orgCount = async () => (await t.ctx.db.select().from(organizations)).length;
  const fields = (res: { json(): { details?: { field: string }[] } }) =>
    res.json().details?.map((d) => d.field);

  describe('GET /v1/organizations/', () => {
    it('lists each member’s organizations with their role; a pending invitation has no access', async () => {
      const { owner, admin, staff, client } = s.people;
      for (const [who, role] of [
        [owner, 'OWNER'],
        [admin, 'ADMIN'],
        [staff, 'STAFF'],
        [client, 'CLIENT'],
      ] as const) {
        const res = await get('/v1/organizations/', who);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          count: 1,
          next: null,
          previous: null,
          results: [
            {
              id: s.org.id,
              name: 'Acme Freight',
              logo: null,
              has_access: true,
              role: { key: role, name: expect.any(String) },
              created: expect.any(String),
            },
          ],
        });
      }
      const pending = (await get('/v1/organizations/', s.pending)).json();
      expect(pending.results).toEqual([
        expect.objectContaining({ id: s.org.id, has_access: false, role: expect.anything() }),
      ]);
      const stranger = (await get('/v1/organizations/', s.stranger)).json();
      expect(stranger.results.map((o: { id: string }) => o.id)).toEqual([s.otherOrg.id]);
    });

    it('sorts by name case-insensitively, pages, and leaves deleted organizations out', async () => {
      const who = await person(t);
      for (const name of ['beta co', 'Gamma', 'Alpha Co', 'Deleted Co']) {
        await createOrganization(t.ctx.db, { ownerId: who.id, name });
      }
      await t.ctx.db
        .update(organizations)
        .set({ deleted_at: new Date() })
        .where(eq(organizations.name, 'Deleted Co'));
      const all = (await get('/v1/organizations/', who)).json();
      expect(all.results.map((o: { name: string }) => o.name)).toEqual([
        'Alpha Co',
        'beta co',
        'Gamma',
      ]);
      const first = (await get('/v1/organizations/?limit=2', who)).json();
      expect(first).toMatchObject({ count: 3, next: 2, previous: null });
      expect(first.results.map((o: { name: string }) => o.name)).toEqual(['Alpha Co', 'beta co']);
      const second = (await get('/v1/organizations/?limit=2&page=2', who)).json();
      expect(second).toMatchObject({ count: 3, next: null, previous: 1 });
      expect(second.results.map((o: { name: string }) => o.name)).toEqual(['Gamma']);
    });

    it('answers 400 naming the parameter for a bad page or limit, and 401 anonymous', async () => {
      for (const [query, field] of [
        ['limit=1000', 'limit'],
        ['limit=0', 'limit'],
        ['page=0', 'page'],
        ['page=x', 'page'],
        ['owner=1', 'owner'],
      ] as const) {
        const res = await get(`/v1/organizations/?${query}`, s.people.owner);
        expect(res.statusCode, query).toBe(400);
        expect(res.json().code).toBe(ErrorCode.VALIDATION_ERROR);
        expect(fields(res)).toContain(field);
      }
      expect((await get('/v1/organizations/')).statusCode).toBe(401);
    });
  });

  describe('POST /v1/organizations/', () => {
    it('creates the first organization: the creator is its OWNER and the creation is recorded', async () => {
      const who = await person(t);
      const logo = await uploadImage(t, who);
      const res = await send('POST', '/v1/organizations/', { name: ' Harbour Ltd ', logo }, who);
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toEqual({
        id: expect.any(String),
        name: 'Harbour Ltd',
        logo,
        has_access: true,
        role: { key: 'OWNER', name: 'Owner' },
        created: expect.any(String),
      });
      const [membership] = await t.ctx.db
        .select()
        .from(organizationMembers)
        .where(eq(organizationMembers.organization_id, body.id));
      expect(membership).toMatchObject({ user_id: who.id, role: 'OWNER', status: 'MEMBER' });
      const [activity] = await t.ctx.db
        .select()
        .from(activities)
        .where(and(eq(activities.object_id, body.id), eq(activities.user_id, who.id)));
      expect(activity).toMatchObject({
        action: 'CREATE_ORGANIZATION',
        object_type: 'organization',
        organization_id: body.id,
      });
      expect((await get(`/v1/organizations/${body.id}/`, who)).statusCode).toBe(200);
    });

    it('refuses a second organization while billing is on (ORGANIZATION_LIMIT), even at once', async () => {
      const who = await person(t);
      const tries = await Promise.all(
        ['One', 'Two', 'Three'].map((name) => send('POST', '/v1/organizations/', { name }, who)),
      );
      expect(tries.map((r) => r.statusCode).sort()).toEqual([201, 403, 403]);
      const refused = tries.find((r) => r.statusCode === 403)!;
      expect(refused.json()).toEqual({
        code: ErrorCode.ORGANIZATION_LIMIT,
        message: expect.any(String),
      });
      // A member of someone else's organization has one already.
      const res = await send('POST', '/v1/organizations/', { name: 'Mine' }, s.people.staff);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe(ErrorCode.ORGANIZATION_LIMIT);
    });

    it('refuses a user without can_create_client (403) and an anonymous caller (401)', async () => {
      const who = await person(t, { can_create_client: false });
      const before = await orgCount();
      const res = await send('POST', '/v1/organizations/', { name: 'Nope' }, who);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe(ErrorCode.PERMISSION_DENIED);
      expect((await send('POST', '/v1/organizations/', { name: 'Nope' })).statusCode).toBe(401);
      expect(await orgCount()).toBe(before);
    });

    it('answers 400 naming the field for a bad body, and writes nothing', async () => {
      const who = await person(t);
      const someoneElses = await uploadImage(t, s.people.owner);
      const before = await orgCount();
      for (const [body, field] of [
        [{}, 'name'],
        [{ name: '' }, 'name'],
        [{ name: '   ' }, 'name'],
        [{ name: 'x'.repeat(121) }, 'name'],
        [{ name: 'Line\nbreak' }, 'name'],
        [{ name: 42 }, 'name'],
        [{ name: 'Fine', owner: who.id }, 'owner'],
        [{ name: 'Fine', logo: 'https://evil.example/logo.png' }, 'logo'],
        [{ name: 'Fine', logo: someoneElses }, 'logo'],
        [{ name: 'Fine', logo: 'x'.repeat(2000) }, 'logo'],
      ] as const) {
        const res = await send('POST', '/v1/organizations/', body, who);
        expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(res.json().code).toBe(ErrorCode.VALIDATION_ERROR);
        expect(fields(res)).toContain(field);
      }
      expect(await orgCount()).toBe(before);
    });
  });

  describe('without billing', () => {
    let free: TestApp;
    beforeAll(async () => {
      free = await createTestApp({ FEATURE_BILLING: 'false' });
    });
    afterAll(() => free.close());

    it('lets a user create as many organizations as they like', async () => {
      const who = await person(free);
      for (const name of ['First', 'Second']) {
        const res = await free.app.inject({
          method: 'POST',
          url: '/v1/organizations/',
          headers: who.headers,
          payload: { name },
        });
        expect(res.statusCode).toBe(201);
      }
      const list = await free.app.inject({ url: '/v1/organizations/', headers: who.headers });
      expect(list.json().count).toBe(2);
    });
  });

  describe('GET /v1/organizations/{id}/', () => {
    it('answers any member with their role; 404 to a pending invitee, a stranger or a missing id', async () => {
      const url = `/v1/organizations/${s.org.id}/`;
      for (const [who, role] of [
        [s.people.owner, 'OWNER'],
        [s.people.admin, 'ADMIN'],
        [s.people.staff, 'STAFF'],
        [s.people.client, 'CLIENT'],
      ] as const) {
        const res = await get(url, who);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({
          id: s.org.id,
          name: 'Acme Freight',
          has_access: true,
          role: { key: role },
        });
      }
      for (const who of [s.pending, s.stranger]) {
        const res = await get(url, who);
        expect(res.statusCode).toBe(404);
        expect(res.json().code).toBe(ErrorCode.NOT_FOUND);
      }
      const missing = await get(`/v1/organizations/${crypto.randomUUID()}/`, s.people.owner);
      expect(missing.statusCode).toBe(404);
      expect((await get(url)).statusCode).toBe(401);
    });

    it('answers 400 naming the id for a malformed one', async () => {
      const res = await get('/v1/organizations/not-a-uuid/', s.people.owner);
      expect(res.statusCode).toBe(400);
      expect(fields(res)).toEqual(['id']);
    });
  });

  describe('PUT /v1/organizations/{id}/', () => {
    const url = () => `/v1/organizations/${s.org.id}/`;
    const current = async () =>
      (await t.ctx.db.select().from(organizations).where(eq(organizations.id, s.org.id)))[0]!;

    it('lets OWNER and ADMIN rename it and set the logo; the change is recorded', async () => {
      const res = await send('PUT', url(), { name: 'Acme Freight Europe' }, s.people.admin);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ name: 'Acme Freight Europe', role: { key: 'ADMIN' } });
      const logo = await uploadImage(t, s.people.owner);
      const withLogo = await send('PUT', url(), { name: 'Acme Freight', logo }, s.people.owner);
      expect(withLogo.json()).toMatchObject({ name: 'Acme Freight', logo });
      // The ADMIN may send back the logo the OWNER uploaded; leaving it out keeps it.
      expect(
        (await send('PUT', url(), { name: 'Acme Freight', logo }, s.people.admin)).statusCode,
      ).toBe(200);
      expect((await send('PUT', url(), { name: 'Acme Freight' }, s.people.admin)).json().logo).toBe(
        logo,
      );
      const cleared = await send(
        'PUT',
        url(),
        { name: 'Acme Freight', logo: null },
        s.people.owner,
      );
      expect(cleared.json().logo).toBeNull();
      const log = await t.ctx.db
        .select()
        .from(activities)
        .where(
          and(
            eq(activities.organization_id, s.org.id),
            eq(activities.action, 'UPDATE_ORGANIZATION'),
          ),
        );
      expect(log.length).toBe(5);
      expect(log.find((a) => a.user_id === s.people.admin.id)?.data).toMatchObject({
        organization_name: 'Acme Freight Europe',
        previous_name: 'Acme Freight',
      });
    });

    it('answers 403 to STAFF and CLIENT, 404 to a pending invitee and a stranger, 401 anonymous', async () => {
      const before = await current();
      for (const [who, status] of [
        [s.people.staff, 403],
        [s.people.client, 403],
        [s.pending, 404],
        [s.stranger, 404],
        [undefined, 401],
      ] as const) {
        const res = await send('PUT', url(), { name: 'Taken over' }, who);
        expect(res.statusCode).toBe(status);
      }
      // An OWNER of another organization cannot reach this one either.
      const other = await send(
        'PUT',
        `/v1/organizations/${s.otherOrg.id}/`,
        { name: 'X' },
        s.people.owner,
      );
      expect(other.statusCode).toBe(404);
      expect(await current()).toEqual(before);
    });

    it('answers 400 naming the field for a bad body or id, and changes nothing', async () => {
      const before = await current();
      const strangersLogo = await uploadImage(t, s.stranger);
      for (const [body, field] of [
        [{}, 'name'],
        [{ name: '' }, 'name'],
        [{ name: 'y'.repeat(121) }, 'name'],
        [{ name: 'Ok', extra: true }, 'extra'],
        [{ name: 'Ok', logo: strangersLogo }, 'logo'],
        [{ name: 'Ok', logo: '/uploads/../../etc/passwd' }, 'logo'],
      ] as const) {
        const res = await send('PUT', url(), body, s.people.owner);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(fields(res)).toContain(field);
      }
      const bad = await send('PUT', '/v1/organizations/123/', { name: 'Ok' }, s.people.owner);
      expect(bad.statusCode).toBe(400);
      expect(fields(bad)).toContain('id');
      expect(await current()).toEqual(before);
    });
  });

  it('keeps a membership of a deleted organization out of every answer', async () => {
    const who = await person(t);
    const org = await createOrganization(t.ctx.db, { ownerId: s.people.owner.id, name: 'Closed' });
    await addOrganizationMember(t.ctx.db, {
      organizationId: org.id,
      userId: who.id,
      role: 'ADMIN',
    });
    await t.ctx.db
      .update(organizations)
      .set({ deleted_at: new Date() })
      .where(eq(organizations.id, org.id));
    expect((await get('/v1/organizations/', who)).json().count).toBe(0);
    expect((await get(`/v1/organizations/${org.id}/`, who)).statusCode).toBe(404);
  });
});
