import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type OrgRole } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  createTenantScene,
  type OrgPerson,
  type Person,
  type TenantScene,
} from '../../../test/support/tenants.ts';
import { eq } from 'drizzle-orm';
import { clients } from '../../db/schema/index.ts';
import { addClientMember, addOrganizationMember, createClient } from '../../seed/factories.ts';
import { activitiesOf, orgMembership, snapshot, workspaceMembership } from './test-scene.ts';

/** PUT /v1/organizations/{orgId}/users/{userId}/role/ */
describe('organization members: role changes', () => {
  let t: TestApp;
  let s: TenantScene;
  let p: Record<OrgPerson, Person>;
  const url = (userId: string, orgId = s.orgId) =>
    `/v1/organizations/${orgId}/users/${userId}/role/`;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    p = s.people;
  });
  afterAll(() => t.close());

  // [who acts, the member's role, the role asked, status, code] — a fresh member per row.
  const matrix: [OrgPerson | 'anonymous', OrgRole, OrgRole, number, string | null][] = [
    ['OWNER', 'OWNER', 'ADMIN', 200, null],
    ['OWNER', 'ADMIN', 'STAFF', 200, null],
    ['OWNER', 'STAFF', 'OWNER', 200, null],
    ['OWNER', 'CLIENT', 'ADMIN', 200, null],
    ['ADMIN', 'OWNER', 'STAFF', 403, ErrorCode.PERMISSION_DENIED],
    ['ADMIN', 'STAFF', 'OWNER', 403, ErrorCode.PERMISSION_DENIED],
    ['ADMIN', 'ADMIN', 'CLIENT', 200, null],
    ['ADMIN', 'STAFF', 'ADMIN', 200, null],
    ['ADMIN', 'CLIENT', 'STAFF', 200, null],
    ['STAFF', 'CLIENT', 'STAFF', 403, ErrorCode.PERMISSION_DENIED],
    ['CLIENT', 'STAFF', 'CLIENT', 403, ErrorCode.PERMISSION_DENIED],
    ['STRANGER', 'STAFF', 'CLIENT', 404, ErrorCode.NOT_FOUND],
    ['anonymous', 'STAFF', 'CLIENT', 401, ErrorCode.NOT_AUTHENTICATED],
  ];
  it.each(matrix)('%s changing a %s to %s: %i', async (who, from, to, status, code) => {
    const member = await s.member(from);
    const res = await s.send('PUT', url(member.id), who === 'anonymous' ? who : p[who], {
      role: to,
    });
    expect(res.statusCode).toBe(status);
    if (code) expect(res.json().code).toBe(code);
    const row = await orgMembership(t.ctx.db, s.orgId, member.id);
    expect(row!.role).toBe(status === 200 ? to : from);
    if (status === 200) {
      expect(res.json()).toMatchObject({ user: { id: member.id }, role: { key: to } });
      const recorded = await activitiesOf(t.ctx.db, s.orgId, 'UPDATE_MEMBER');
      expect(recorded.at(-1)).toMatchObject({
        user_id: p[who as OrgPerson].id,
        object_type: 'user',
        object_id: member.id,
        data: { email: member.email, from, to },
      });
    }
  });

  it('makes a new OWNER or ADMIN an OWNER member of every active workspace, keeping memberships there', async () => {
    const db = t.ctx.db;
    const org = s.orgId;
    const active = await createClient(db, { organizationId: org, ownerId: p.OWNER.id });
    const already = await createClient(db, { organizationId: org, ownerId: p.OWNER.id });
    const pending = await createClient(db, { organizationId: org, active: false });
    const gone = await createClient(db, { organizationId: org, ownerId: p.OWNER.id });
    await db.update(clients).set({ deleted_at: new Date() }).where(eq(clients.id, gone.id));
    const member = await s.member('STAFF');
    await addClientMember(db, { clientId: already.id, userId: member.id, role: 'CLIENT' });
    const res = await s.send('PUT', url(member.id), p.ADMIN, { role: 'ADMIN' });
    expect(res.statusCode).toBe(200);
    expect(await workspaceMembership(db, active.id, member.id)).toMatchObject({
      role: 'OWNER',
      status: 'MEMBER',
    });
    expect(await workspaceMembership(db, already.id, member.id)).toMatchObject({ role: 'CLIENT' });
    expect(await workspaceMembership(db, pending.id, member.id)).toBeUndefined();
    expect(await workspaceMembership(db, gone.id, member.id)).toBeUndefined();
    // Stepping down keeps the memberships (the workspaces' own roles stay as they are).
    expect((await s.send('PUT', url(member.id), p.OWNER, { role: 'STAFF' })).statusCode).toBe(200);
    expect(await workspaceMembership(db, active.id, member.id)).toMatchObject({ role: 'OWNER' });
  });

  it('changes nothing and records nothing for the role the member has', async () => {
    const member = await s.member('STAFF');
    const before = await snapshot(t);
    const res = await s.send('PUT', url(member.id), p.ADMIN, { role: 'STAFF' });
    expect(res.statusCode).toBe(200);
    expect(res.json().role).toEqual({ key: 'STAFF', name: 'Staff' });
    expect(await snapshot(t)).toEqual(before);
  });

  it('never demotes the last OWNER (409 LAST_OWNER); an OWNER among several may step down', async () => {
    const t2 = await createTestApp();
    try {
      const s2 = await createTenantScene(t2);
      const owner = s2.people.OWNER;
      const before = await snapshot(t2);
      const last = await s2.send('PUT', url(owner.id, s2.orgId), owner, { role: 'ADMIN' });
      expect(last.statusCode).toBe(409);
      expect(last.json().code).toBe(ErrorCode.LAST_OWNER);
      expect(await snapshot(t2)).toEqual(before);
      const second = await s2.member('OWNER');
      const down = await s2.send('PUT', url(owner.id, s2.orgId), owner, { role: 'STAFF' });
      expect(down.statusCode).toBe(200);
      // The remaining OWNER is now the last one.
      const again = await s2.send('PUT', url(second.id, s2.orgId), second, { role: 'ADMIN' });
      expect(again.json().code).toBe(ErrorCode.LAST_OWNER);
    } finally {
      await t2.close();
    }
  });

  it('lets an ADMIN step down, never up', async () => {
    const admin = await s.member('ADMIN');
    const up = await s.send('PUT', url(admin.id), admin, { role: 'OWNER' });
    expect(up.statusCode).toBe(403);
    const down = await s.send('PUT', url(admin.id), admin, { role: 'STAFF' });
    expect(down.statusCode).toBe(200);
    // Now STAFF, they cannot change roles at all.
    const after = await s.send('PUT', url(admin.id), admin, { role: 'ADMIN' });
    expect(after.statusCode).toBe(403);
  });

  it('refuses a pending member (409 MEMBERSHIP_PENDING) and a non-member (404), writing nothing', async () => {
    const invited = await s.person();
    await addOrganizationMember(t.ctx.db, {
      organizationId: s.orgId,
      userId: invited.id,
      role: 'STAFF',
      status: 'PENDING',
    });
    const before = await snapshot(t);
    const pending = await s.send('PUT', url(invited.id), p.OWNER, { role: 'ADMIN' });
    expect(pending.statusCode).toBe(409);
    expect(pending.json().code).toBe(ErrorCode.MEMBERSHIP_PENDING);
    for (const userId of [p.STRANGER.id, crypto.randomUUID()]) {
      const res = await s.send('PUT', url(userId), p.OWNER, { role: 'ADMIN' });
      expect(res.statusCode).toBe(404);
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuses bad input with 400 naming the field, writing nothing', async () => {
    const member = await s.member('STAFF');
    const before = await snapshot(t);
    const cases: [string, unknown, string][] = [
      [url(member.id), { role: 'MANAGER' }, 'role'],
      [url(member.id), { role: 'owner' }, 'role'],
      [url(member.id), {}, 'role'],
      [url(member.id), { role: 'ADMIN', status: 'MEMBER' }, 'status'],
      [url(member.id), { role: 7 }, 'role'],
      [url('nope'), { role: 'ADMIN' }, 'userId'],
      [`/v1/organizations/nope/users/${member.id}/role/`, { role: 'ADMIN' }, 'orgId'],
    ];
    for (const [target, payload, field] of cases) {
      const res = await s.send('PUT', target, p.OWNER, payload);
      expect({ payload, status: res.statusCode }).toEqual({ payload, status: 400 });
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect(await snapshot(t)).toEqual(before);
  });
});
