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
  addClientMember,
  addOrganizationMember,
  createClient,
  createUser,
} from '../../seed/factories.ts';

/** GET /v1/organizations/{orgId}/users/ and GET /v1/organizations/{orgId}/users/{userId}/. */
describe('organization members: reading', () => {
  let t: TestApp;
  let s: TenantScene;
  let p: Record<OrgPerson, Person>;
  let list: string;
  /** Invited, not yet accepted. */
  let pendingId: string;
  /** A second STAFF member whose e-mail sorts before the first one's. */
  let earlyStaffId: string;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    p = s.people;
    list = `/v1/organizations/${s.orgId}/users/`;
    const db = t.ctx.db;
    const pending = await createUser(db, { email: 'zed.pending@example.com', first_name: 'Zed' });
    pendingId = pending.id;
    await addOrganizationMember(db, {
      organizationId: s.orgId,
      userId: pending.id,
      role: 'STAFF',
      status: 'PENDING',
    });
    const early = await createUser(db, {
      email: 'aaa.staff@example.com',
      first_name: 'Ann',
      last_name: 'Early',
    });
    earlyStaffId = early.id;
    await addOrganizationMember(db, { organizationId: s.orgId, userId: early.id, role: 'STAFF' });
    // STAFF belongs to two live workspaces and a deleted one (not counted).
    for (const name of ['One', 'Two']) {
      const c = await createClient(db, { organizationId: s.orgId, ownerId: p.OWNER.id, name });
      await addClientMember(db, { clientId: c.id, userId: p.STAFF.id, role: 'STAFF' });
    }
  });
  afterAll(() => t.close());

  it('lists every member, pending ones too, by role then e-mail, with their workspaces counted', async () => {
    const res = await s.send('GET', list, p.OWNER);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ count: 6, next: null, previous: null });
    expect(body.results.map((m: { user: { id: string } }) => m.user.id)).toEqual([
      p.OWNER.id,
      p.ADMIN.id,
      earlyStaffId, // aaa.staff@…
      p.STAFF.id, // user.…@…
      pendingId, // zed.pending@…
      p.CLIENT.id,
    ]);
    const staff = body.results.find((m: { user: { id: string } }) => m.user.id === p.STAFF.id);
    expect(staff).toEqual({
      id: expect.any(String),
      user: {
        id: p.STAFF.id,
        email: p.STAFF.email,
        first_name: 'Staff',
        last_name: 'User',
        avatar: null,
      },
      role: { key: 'STAFF', name: 'Staff' },
      status: 'MEMBER',
      last_active_at: t.clock.now().toISOString(), // their requests of the scene (last-active.test.ts)
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      client_count: 2,
    });
    const pending = body.results.find((m: { user: { id: string } }) => m.user.id === pendingId);
    expect(pending).toMatchObject({ status: 'PENDING', client_count: 0 });
  });

  it('filters by roles (internal, external) and searches by key, page by page', async () => {
    const ids = async (query: string) => {
      const res = await s.send('GET', `${list}?${query}`, p.ADMIN);
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    const internal = await ids('roles=OWNER,ADMIN,STAFF');
    expect(internal.count).toBe(5);
    expect(internal.results.every((m: { role: { key: string } }) => m.role.key !== 'CLIENT')).toBe(
      true,
    );
    const external = await ids('roles=client');
    expect(external.results.map((m: { user: { id: string } }) => m.user.id)).toEqual([p.CLIENT.id]);
    expect(
      (await ids('key=EARLY')).results.map((m: { user: { id: string } }) => m.user.id),
    ).toEqual([earlyStaffId]);
    expect((await ids('key=aaa.staff@')).count).toBe(1);
    expect((await ids('key=%25')).count).toBe(0);
    const first = await ids('limit=2');
    expect(first).toMatchObject({ count: 6, next: 2, previous: null });
    expect(first.results).toHaveLength(2);
    const last = await ids('limit=2&page=3');
    expect(last).toMatchObject({ count: 6, next: null, previous: 2 });
    expect(await ids('limit=2&page=9')).toMatchObject({ count: 6, next: null, results: [] });
  });

  it('reads one member by user id, pending ones too; 404 for anyone not a member', async () => {
    const one = await s.send('GET', `${list}${p.STAFF.id}/`, p.STAFF);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ user: { id: p.STAFF.id }, client_count: 2 });
    const pending = await s.send('GET', `${list}${pendingId}/`, p.ADMIN);
    expect(pending.json()).toMatchObject({ status: 'PENDING', role: { key: 'STAFF' } });
    for (const userId of [p.STRANGER.id, crypto.randomUUID()]) {
      const res = await s.send('GET', `${list}${userId}/`, p.OWNER);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe(ErrorCode.NOT_FOUND);
    }
  });

  it('answers OWNER, ADMIN and STAFF; 403 to CLIENT; 404 to a stranger and for no such organization; 401 anonymous', async () => {
    const expected: [Person | 'anonymous', number][] = [
      [p.OWNER, 200],
      [p.ADMIN, 200],
      [p.STAFF, 200],
      [p.CLIENT, 403],
      [p.STRANGER, 404],
      ['anonymous', 401],
    ];
    for (const [who, status] of expected) {
      for (const url of [list, `${list}${p.CLIENT.id}/`]) {
        const res = await s.send('GET', url, who);
        expect({ url, who: who === 'anonymous' ? who : who.id, status: res.statusCode }).toEqual({
          url,
          who: who === 'anonymous' ? who : who.id,
          status,
        });
      }
    }
    const elsewhere = await s.send('GET', `/v1/organizations/${s.otherOrgId}/users/`, p.OWNER);
    expect(elsewhere.statusCode).toBe(404);
    const missing = await s.send('GET', `/v1/organizations/${crypto.randomUUID()}/users/`, p.OWNER);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual(elsewhere.json());
  });

  it('refuses bad input with 400 naming the field', async () => {
    const cases: [string, string][] = [
      [`/v1/organizations/nope/users/`, 'orgId'],
      [`${list}nope/`, 'userId'],
      [`${list}?limit=1000`, 'limit'],
      [`${list}?limit=0`, 'limit'],
      [`${list}?page=0`, 'page'],
      [`${list}?roles=OWNER,BOSS`, 'roles'],
      [`${list}?roles=MANAGER`, 'roles'],
      [`${list}?roles=`, 'roles'],
      [`${list}?roles=OWNER,,ADMIN`, 'roles'],
      [`${list}?key=a%00b`, 'key'],
      [`${list}?sort=email`, 'sort'],
    ];
    for (const [url, field] of cases) {
      const res = await s.send('GET', url, p.OWNER);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
      expect(res.json().code).toBe(ErrorCode.VALIDATION_ERROR);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const roles = await s.send('GET', `${list}?roles=BOSS`, p.OWNER);
    expect(roles.json().message).toContain('OWNER, ADMIN, STAFF, CLIENT');
  });
});
