import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type MembershipStatus, type OrgRole, type Role } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  createTenantScene,
  type OrgPerson,
  type Person,
  type TenantScene,
} from '../../../test/support/tenants.ts';
import { addClientMember, addOrganizationMember, createClient } from '../../seed/factories.ts';
import {
  activitiesOf,
  givePermissions,
  invitationRow,
  orgMembership,
  pendingInvitation,
  permissionRows,
  snapshot,
  workspaceMembership,
} from './test-scene.ts';

/**
 * Workspace members: GET /v1/clients/{id}/users/, PUT /v1/clients/{id}/users/{userId}/roles/,
 * DELETE /v1/clients/{id}/users/{userId}/.
 */
describe('workspace members', () => {
  let t: TestApp;
  let s: TenantScene;
  let p: Record<OrgPerson, Person>;
  let clientId: string;
  /** Members of the workspace by their workspace role (STAFF of the organization, CLIENT for CLIENT). */
  let ws: Record<Role, Person>;
  type Who = `org ${OrgPerson}` | `ws ${Role}` | 'anonymous';
  const as = (who: Who): Person | 'anonymous' => {
    if (who === 'anonymous') return who;
    const [level, role] = who.split(' ') as ['org' | 'ws', string];
    return level === 'org' ? p[role as OrgPerson] : ws[role as Role];
  };
  const users = () => `/v1/clients/${clientId}/users/`;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    p = s.people;
    clientId = (
      await createClient(t.ctx.db, { organizationId: s.orgId, ownerId: p.OWNER.id, name: 'Quay' })
    ).id;
    ws = {} as typeof ws;
    for (const role of ['OWNER', 'ADMIN', 'MANAGER', 'STAFF', 'CLIENT'] as const) {
      ws[role] = await member(role, role === 'CLIENT' ? 'CLIENT' : 'STAFF');
    }
  });
  afterAll(() => t.close());

  /** A new member of the organization (orgRole) and of the workspace (role). */
  async function member(
    role: Role,
    orgRole: OrgRole = 'STAFF',
    status: MembershipStatus = 'MEMBER',
  ) {
    const person = await s.member(orgRole);
    await addClientMember(t.ctx.db, { clientId, userId: person.id, role, status });
    return person;
  }

  describe('GET /v1/clients/{id}/users/', () => {
    it('lists the members, pending ones too, by workspace role then e-mail, with their organization role', async () => {
      const invited = await member('STAFF', 'CLIENT', 'PENDING');
      const res = await s.send('GET', users(), ws.MANAGER);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.count).toBe(7);
      expect(body.results.map((m: { role: { key: string } }) => m.role.key)).toEqual([
        'OWNER',
        'OWNER',
        'ADMIN',
        'MANAGER',
        'STAFF',
        'STAFF',
        'CLIENT',
      ]);
      const row = body.results.find((m: { user: { id: string } }) => m.user.id === invited.id);
      expect(row).toEqual({
        id: expect.any(String),
        user: {
          id: invited.id,
          email: invited.email,
          first_name: 'Client',
          last_name: 'User',
          avatar: null,
        },
        role: { key: 'STAFF', name: 'Staff' },
        status: 'PENDING',
        organization_role: { key: 'CLIENT', name: 'Client' },
        last_active_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), // signed in for the scene
        created: expect.any(String),
      });
      const found = await s.send('GET', `${users()}?key=${ws.ADMIN.email}`, ws.STAFF);
      expect(found.json().results.map((m: { user: { id: string } }) => m.user.id)).toEqual([
        ws.ADMIN.id,
      ]);
      const page = await s.send('GET', `${users()}?limit=3&page=2`, p.ADMIN);
      expect(page.json()).toMatchObject({ count: 7, next: 3, previous: 1 });
    });

    it('answers the workspace’s OWNER, ADMIN, MANAGER, STAFF and the organization’s OWNER and ADMIN only', async () => {
      const expected: [Who, number][] = [
        ['org OWNER', 200],
        ['org ADMIN', 200],
        ['ws OWNER', 200],
        ['ws ADMIN', 200],
        ['ws MANAGER', 200],
        ['ws STAFF', 200],
        ['ws CLIENT', 403],
        ['org STAFF', 404],
        ['org CLIENT', 404],
        ['org STRANGER', 404],
        ['anonymous', 401],
      ];
      for (const [who, status] of expected) {
        const res = await s.send('GET', users(), as(who));
        expect({ who, status: res.statusCode }).toEqual({ who, status });
      }
    });

    it('refuses bad input with 400 naming the field', async () => {
      const cases: [string, string][] = [
        ['/v1/clients/nope/users/', 'id'],
        [`${users()}?limit=1000`, 'limit'],
        [`${users()}?key=%01`, 'key'],
        [`${users()}?roles=OWNER`, 'roles'],
      ];
      for (const [url, field] of cases) {
        const res = await s.send('GET', url, p.OWNER);
        expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
        expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
      }
    });
  });

  describe('GET /v1/clients/{id}/users/{userId}/', () => {
    it('answers one member to those who may read the members; 404 for a non-member; 400 for a bad id', async () => {
      const url = `${users()}${ws.STAFF.id}/`;
      const res = await s.send('GET', url, ws.MANAGER);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        user: { id: ws.STAFF.id },
        role: { key: 'STAFF' },
        status: 'MEMBER',
        organization_role: { key: 'STAFF' },
      });
      const expected: [Who, number][] = [
        ['org OWNER', 200],
        ['org ADMIN', 200],
        ['ws STAFF', 200],
        ['ws CLIENT', 403],
        ['org STAFF', 404],
        ['org STRANGER', 404],
        ['anonymous', 401],
      ];
      for (const [who, status] of expected) {
        const answer = await s.send('GET', url, as(who));
        expect({ who, status: answer.statusCode }).toEqual({ who, status });
      }
      expect((await s.send('GET', `${users()}${p.STRANGER.id}/`, p.OWNER)).statusCode).toBe(404);
      const bad = await s.send('GET', `${users()}nope/`, p.OWNER);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details.map((d: { field: string }) => d.field)).toContain('userId');
    });
  });

  describe('PUT /v1/clients/{id}/users/{userId}/roles/', () => {
    const roles = (userId: string) => `${users()}${userId}/roles/`;

    // [who acts, the member's workspace role, the role asked, status, code] — a fresh member each.
    const matrix: [Who, Role, Role, number, string | null][] = [
      ['org OWNER', 'OWNER', 'STAFF', 200, null],
      ['org ADMIN', 'OWNER', 'MANAGER', 200, null],
      ['org ADMIN', 'STAFF', 'OWNER', 403, ErrorCode.PERMISSION_DENIED],
      ['ws OWNER', 'OWNER', 'ADMIN', 403, ErrorCode.PERMISSION_DENIED],
      ['ws OWNER', 'STAFF', 'OWNER', 200, null],
      ['ws ADMIN', 'ADMIN', 'STAFF', 200, null],
      ['ws ADMIN', 'STAFF', 'OWNER', 403, ErrorCode.PERMISSION_DENIED],
      ['ws MANAGER', 'ADMIN', 'STAFF', 403, ErrorCode.PERMISSION_DENIED],
      ['ws MANAGER', 'STAFF', 'MANAGER', 200, null],
      ['ws MANAGER', 'CLIENT', 'ADMIN', 403, ErrorCode.PERMISSION_DENIED],
      ['ws STAFF', 'CLIENT', 'STAFF', 403, ErrorCode.PERMISSION_DENIED],
      ['ws CLIENT', 'CLIENT', 'STAFF', 403, ErrorCode.PERMISSION_DENIED],
      ['org STAFF', 'CLIENT', 'STAFF', 404, ErrorCode.NOT_FOUND],
      ['org STRANGER', 'CLIENT', 'STAFF', 404, ErrorCode.NOT_FOUND],
      ['anonymous', 'CLIENT', 'STAFF', 401, ErrorCode.NOT_AUTHENTICATED],
    ];
    it.each(matrix)('%s changing a %s to %s: %i', async (who, from, to, status, code) => {
      const target = await member(from);
      const res = await s.send('PUT', roles(target.id), as(who), { role: to });
      expect(res.statusCode).toBe(status);
      if (code) expect(res.json().code).toBe(code);
      expect(await workspaceMembership(t.ctx.db, clientId, target.id)).toMatchObject({
        role: status === 200 ? to : from,
      });
      if (status === 200) {
        expect(res.json()).toMatchObject({
          user: { id: target.id },
          role: { key: to },
          organization_role: { key: 'STAFF' },
        });
        expect((await activitiesOf(t.ctx.db, s.orgId, 'UPDATE_MEMBER')).at(-1)).toMatchObject({
          object_type: 'client',
          object_id: clientId,
          data: { email: target.email, user_id: target.id, from, to, client_name: 'Quay' },
        });
      }
    });

    it('refuses an organization ADMIN the organization OWNER’s workspace role, and a MANAGER their removal (§6: 403)', async () => {
      // The organization's OWNER is this workspace's OWNER; another is only its MANAGER.
      const second = await member('MANAGER', 'OWNER');
      const before = await snapshot(t);
      for (const target of [p.OWNER, second]) {
        const res = await s.send('PUT', roles(target.id), p.ADMIN, { role: 'STAFF' });
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json().code).toBe(ErrorCode.PERMISSION_DENIED);
      }
      const removal = await s.send('DELETE', `${users()}${second.id}/`, ws.MANAGER);
      expect(removal.statusCode, removal.body).toBe(403);
      expect(removal.json().code).toBe(ErrorCode.PERMISSION_DENIED);
      expect(await snapshot(t)).toEqual(before);
      // An organization OWNER may.
      const byOwner = await s.send('PUT', roles(second.id), p.OWNER, { role: 'STAFF' });
      expect(byOwner.statusCode, byOwner.body).toBe(200);
    });

    it('refuses one’s own role (403 OWN_MEMBERSHIP), a pending member (409) and a non-member (404), writing nothing', async () => {
      const invited = await member('STAFF', 'STAFF', 'PENDING');
      const before = await snapshot(t);
      const self = await s.send('PUT', roles(ws.MANAGER.id), ws.MANAGER, { role: 'STAFF' });
      expect(self.statusCode).toBe(403);
      expect(self.json().code).toBe(ErrorCode.OWN_MEMBERSHIP);
      const pending = await s.send('PUT', roles(invited.id), p.OWNER, { role: 'MANAGER' });
      expect(pending.statusCode).toBe(409);
      expect(pending.json().code).toBe(ErrorCode.MEMBERSHIP_PENDING);
      for (const userId of [p.STAFF.id, p.STRANGER.id, crypto.randomUUID()]) {
        expect((await s.send('PUT', roles(userId), p.OWNER, { role: 'STAFF' })).statusCode).toBe(
          404,
        );
      }
      expect(await snapshot(t)).toEqual(before);
    });

    it('refuses bad input with 400 naming the field', async () => {
      const target = ws.CLIENT.id;
      const cases: [string, unknown, string][] = [
        [roles(target), { role: 'BOSS' }, 'role'],
        [roles(target), {}, 'role'],
        [roles(target), { role: 'STAFF', priority: 1 }, 'priority'],
        [roles('nope'), { role: 'STAFF' }, 'userId'],
      ];
      for (const [url, payload, field] of cases) {
        const res = await s.send('PUT', url, p.OWNER, payload);
        expect({ payload, status: res.statusCode }).toEqual({ payload, status: 400 });
        expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
      }
    });
  });

  describe('DELETE /v1/clients/{id}/users/{userId}/', () => {
    const one = (userId: string) => `${users()}${userId}/`;

    it('removes the membership with its custom roles and overrides, and records it', async () => {
      const db = t.ctx.db;
      const target = await member('STAFF');
      await givePermissions(db, { organizationId: s.orgId, clientId, userId: target.id });
      const res = await s.send('DELETE', one(target.id), ws.MANAGER);
      expect(res.statusCode).toBe(204);
      expect(await workspaceMembership(db, clientId, target.id)).toBeUndefined();
      expect(await permissionRows(db, clientId, target.id)).toBe(0);
      // Still a member of the organization.
      expect(await orgMembership(db, s.orgId, target.id)).toMatchObject({ role: 'STAFF' });
      expect((await activitiesOf(db, s.orgId, 'DELETE_MEMBER')).at(-1)).toMatchObject({
        user_id: ws.MANAGER.id,
        object_type: 'client',
        object_id: clientId,
        data: { email: target.email, user_id: target.id, role: 'STAFF', status: 'MEMBER' },
      });
    });

    it('cancels a pending membership’s invitation; someone invited only through it leaves the organization too', async () => {
      const db = t.ctx.db;
      const outsider = await s.person();
      await addOrganizationMember(db, {
        organizationId: s.orgId,
        userId: outsider.id,
        role: 'CLIENT',
        status: 'PENDING',
      });
      await addClientMember(db, {
        clientId,
        userId: outsider.id,
        role: 'CLIENT',
        status: 'PENDING',
      });
      const { invitation } = await pendingInvitation(db, {
        kind: 'client',
        organizationId: s.orgId,
        clientId,
        userId: outsider.id,
        role: 'CLIENT',
        invitedBy: ws.ADMIN.id,
      });
      const insider = await member('STAFF', 'STAFF', 'PENDING');
      for (const who of [outsider, insider]) {
        expect((await s.send('DELETE', one(who.id), ws.ADMIN)).statusCode).toBe(204);
        expect(await workspaceMembership(db, clientId, who.id)).toBeUndefined();
      }
      expect(await invitationRow(db, invitation.id)).toMatchObject({ status: 'REVOKED' });
      expect(await orgMembership(db, s.orgId, outsider.id)).toBeUndefined();
      expect(await orgMembership(db, s.orgId, insider.id)).toMatchObject({ status: 'MEMBER' });
    });

    it('never removes a workspace OWNER (409 WORKSPACE_OWNER) nor oneself (403), writing nothing', async () => {
      const before = await snapshot(t);
      for (const who of [p.OWNER, p.ADMIN, ws.ADMIN]) {
        const res = await s.send('DELETE', one(ws.OWNER.id), who);
        expect(res.statusCode).toBe(409);
        expect(res.json().code).toBe(ErrorCode.WORKSPACE_OWNER);
      }
      const self = await s.send('DELETE', one(ws.MANAGER.id), ws.MANAGER);
      expect(self.statusCode).toBe(403);
      expect(self.json().code).toBe(ErrorCode.OWN_MEMBERSHIP);
      expect(await snapshot(t)).toEqual(before);
    });

    // [who acts, the member's workspace role, status] — a fresh member each.
    const matrix: [Who, Role, number][] = [
      ['org OWNER', 'ADMIN', 204],
      ['org ADMIN', 'ADMIN', 204],
      ['ws OWNER', 'ADMIN', 204],
      ['ws ADMIN', 'MANAGER', 204],
      ['ws MANAGER', 'ADMIN', 403],
      ['ws MANAGER', 'MANAGER', 204],
      ['ws MANAGER', 'CLIENT', 204],
      ['ws STAFF', 'CLIENT', 403],
      ['ws CLIENT', 'CLIENT', 403],
      ['org STAFF', 'CLIENT', 404],
      ['org STRANGER', 'CLIENT', 404],
      ['anonymous', 'CLIENT', 401],
    ];
    it.each(matrix)('%s removing a %s: %i', async (who, role, status) => {
      const target = await member(role);
      expect((await s.send('DELETE', one(target.id), as(who))).statusCode).toBe(status);
      const row = await workspaceMembership(t.ctx.db, clientId, target.id);
      if (status === 204) expect(row).toBeUndefined();
      else expect(row).toMatchObject({ role });
    });

    it('answers 404 for someone not a member of the workspace, 400 for a malformed id', async () => {
      for (const userId of [p.STAFF.id, crypto.randomUUID()]) {
        expect((await s.send('DELETE', one(userId), p.OWNER)).statusCode).toBe(404);
      }
      const bad = await s.send('DELETE', one('nope'), p.OWNER);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0].field).toBe('userId');
    });
  });
});
