import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, GRANT_ACCESS_MAX } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  createTenantScene,
  type OrgPerson,
  type Person,
  type TenantScene,
} from '../../../test/support/tenants.ts';
import { clients } from '../../db/schema/index.ts';
import { addClientMember, addOrganizationMember, createClient } from '../../seed/factories.ts';
import {
  activitiesOf,
  invitationRow,
  pendingInvitation,
  snapshot,
  workspaceMembership,
} from './test-scene.ts';

/**
 * The client-access screen: GET /v1/organizations/{orgId}/users/{userId}/client/ and
 * POST /v1/organizations/{orgId}/users/{userId}/clients/grant_access/.
 */
describe('organization members: workspace access', () => {
  let t: TestApp;
  let s: TenantScene;
  let p: Record<OrgPerson, Person>;
  /** Active; OWNER is its OWNER, STAFF and CLIENT members. */
  let north: string;
  /** Active; only OWNER. */
  let south: string;
  /** Waiting for approval, created by STAFF. */
  let draft: string;
  let mapOnly: string;
  let gone: string;
  let elsewhere: string;
  const base = (userId: string) => `/v1/organizations/${s.orgId}/users/${userId}`;
  const grant = (userId: string) => `${base(userId)}/clients/grant_access/`;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    p = s.people;
    const db = t.ctx.db;
    const org = s.orgId;
    north = (await createClient(db, { organizationId: org, ownerId: p.OWNER.id, name: 'North' }))
      .id;
    await addClientMember(db, { clientId: north, userId: p.STAFF.id, role: 'STAFF' });
    await addClientMember(db, { clientId: north, userId: p.CLIENT.id, role: 'CLIENT' });
    south = (await createClient(db, { organizationId: org, ownerId: p.OWNER.id, name: 'south' }))
      .id;
    draft = (
      await createClient(db, {
        organizationId: org,
        ownerId: p.STAFF.id,
        name: 'Draft',
        active: false,
      })
    ).id;
    mapOnly = (
      await createClient(db, { organizationId: org, name: 'Map only', appProfile: 'mwrw' })
    ).id;
    gone = (await createClient(db, { organizationId: org, name: 'Gone' })).id;
    await db.update(clients).set({ deleted_at: new Date() }).where(eq(clients.id, gone));
    elsewhere = (await createClient(db, { organizationId: s.otherOrgId, ownerId: p.STRANGER.id }))
      .id;
  });
  afterAll(() => t.close());

  const entry = (id: string, role: string | null, status: string | null = role && 'MEMBER') => ({
    client: { id, name: expect.any(String), logo: null, active: id !== draft },
    role: role && { key: role, name: expect.any(String) },
    status,
  });

  describe('GET …/users/{userId}/client/', () => {
    it('lists the workspaces the caller sees, by name, with the member’s place in each', async () => {
      const asOwner = await s.send('GET', `${base(p.STAFF.id)}/client/`, p.OWNER);
      expect(asOwner.statusCode).toBe(200);
      expect(asOwner.json()).toEqual([
        entry(draft, 'OWNER'),
        entry(north, 'STAFF'),
        entry(south, null),
      ]);
      // STAFF sees the active workspaces they belong to and the pending ones they created.
      const asStaff = await s.send('GET', `${base(p.CLIENT.id)}/client/`, p.STAFF);
      expect(asStaff.json()).toEqual([entry(draft, null), entry(north, 'CLIENT')]);
    });

    it('answers OWNER, ADMIN, STAFF; 403 CLIENT; 404 a stranger or a non-member; 401 anonymous', async () => {
      const url = `${base(p.CLIENT.id)}/client/`;
      const expected: [Person | 'anonymous', number][] = [
        [p.OWNER, 200],
        [p.ADMIN, 200],
        [p.STAFF, 200],
        [p.CLIENT, 403],
        [p.STRANGER, 404],
        ['anonymous', 401],
      ];
      for (const [who, status] of expected) {
        expect((await s.send('GET', url, who)).statusCode).toBe(status);
      }
      const outsider = await s.send('GET', `${base(p.STRANGER.id)}/client/`, p.OWNER);
      expect(outsider.statusCode).toBe(404);
      const bad = await s.send('GET', `${base('nope')}/client/`, p.OWNER);
      expect(bad.statusCode).toBe(400);
    });
  });

  describe('POST …/users/{userId}/clients/grant_access/', () => {
    it('adds memberships and changes roles in one go, recording each', async () => {
      const member = await s.member('CLIENT');
      await addClientMember(t.ctx.db, { clientId: north, userId: member.id, role: 'CLIENT' });
      const res = await s.send('POST', grant(member.id), p.ADMIN, {
        clients: [
          { client_id: south, role: 'CLIENT' },
          { client_id: north, role: 'MANAGER' },
          { client_id: draft, role: 'STAFF' },
        ],
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([
        entry(draft, 'STAFF'),
        entry(north, 'MANAGER'),
        entry(south, 'CLIENT'),
      ]);
      const added = await activitiesOf(t.ctx.db, s.orgId, 'ADD_MEMBER');
      expect(added.filter((a) => a.data.user_id === member.id)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            user_id: p.ADMIN.id,
            object_type: 'client',
            object_id: south,
            data: expect.objectContaining({ email: member.email, role: 'CLIENT' }),
          }),
          expect.objectContaining({ object_id: draft }),
        ]),
      );
      const updated = await activitiesOf(t.ctx.db, s.orgId, 'UPDATE_MEMBER');
      expect(updated.at(-1)).toMatchObject({
        object_id: north,
        data: { user_id: member.id, from: 'CLIENT', to: 'MANAGER' },
      });
      // The same grant again changes and records nothing.
      const before = await snapshot(t);
      const again = await s.send('POST', grant(member.id), p.ADMIN, {
        clients: [{ client_id: south, role: 'CLIENT' }],
      });
      expect(again.statusCode).toBe(200);
      expect(await snapshot(t)).toEqual(before);
    });

    it('accepts a pending workspace membership, revoking its invitation', async () => {
      const db = t.ctx.db;
      const member = await s.member('STAFF');
      await addClientMember(db, {
        clientId: south,
        userId: member.id,
        role: 'STAFF',
        status: 'PENDING',
      });
      const { invitation } = await pendingInvitation(db, {
        kind: 'client',
        organizationId: s.orgId,
        clientId: south,
        userId: member.id,
        role: 'STAFF',
        invitedBy: p.OWNER.id,
      });
      const res = await s.send('POST', grant(member.id), p.OWNER, {
        clients: [{ client_id: south, role: 'STAFF' }],
      });
      expect(res.statusCode).toBe(200);
      expect(await workspaceMembership(db, south, member.id)).toMatchObject({
        role: 'STAFF',
        status: 'MEMBER',
      });
      expect(await invitationRow(db, invitation.id)).toMatchObject({ status: 'REVOKED' });
      expect((await activitiesOf(db, s.orgId, 'ADD_MEMBER')).at(-1)).toMatchObject({
        object_id: south,
        data: { user_id: member.id, role: 'STAFF' },
      });
    });

    it('writes nothing when one workspace is not a live one of this organization (404)', async () => {
      const member = await s.member('STAFF');
      const before = await snapshot(t);
      for (const other of [elsewhere, gone, mapOnly, crypto.randomUUID()]) {
        const res = await s.send('POST', grant(member.id), p.OWNER, {
          clients: [
            { client_id: south, role: 'STAFF' },
            { client_id: other, role: 'STAFF' },
          ],
        });
        expect({ other, status: res.statusCode }).toEqual({ other, status: 404 });
        expect(res.json().code).toBe(ErrorCode.NOT_FOUND);
      }
      expect(await snapshot(t)).toEqual(before);
    });

    it('writes nothing when one role is beyond the caller (403), nor for oneself or a pending member', async () => {
      const member = await s.member('STAFF');
      await s.member('ADMIN');
      const invitee = await s.person();
      await addOrganizationMember(t.ctx.db, {
        organizationId: s.orgId,
        userId: invitee.id,
        role: 'STAFF',
        status: 'PENDING',
      });
      const before = await snapshot(t);
      // The ADMIN holds no workspace membership: an ADMIN there, who cannot make an OWNER.
      const owner = await s.send('POST', grant(member.id), p.ADMIN, {
        clients: [
          { client_id: south, role: 'STAFF' },
          { client_id: north, role: 'OWNER' },
        ],
      });
      expect(owner.statusCode).toBe(403);
      expect(owner.json().code).toBe(ErrorCode.PERMISSION_DENIED);
      const self = await s.send('POST', grant(p.ADMIN.id), p.ADMIN, {
        clients: [{ client_id: south, role: 'STAFF' }],
      });
      expect(self.statusCode).toBe(403);
      expect(self.json().code).toBe(ErrorCode.OWN_MEMBERSHIP);
      const pending = await s.send('POST', grant(invitee.id), p.OWNER, {
        clients: [{ client_id: south, role: 'STAFF' }],
      });
      expect(pending.statusCode).toBe(409);
      expect(pending.json().code).toBe(ErrorCode.MEMBERSHIP_PENDING);
      const outsider = await s.send('POST', grant(p.STRANGER.id), p.OWNER, {
        clients: [{ client_id: south, role: 'STAFF' }],
      });
      expect(outsider.statusCode).toBe(404);
      expect(await snapshot(t)).toEqual(before);
    });

    it('answers OWNER and ADMIN; 403 STAFF and CLIENT; 404 a stranger; 401 anonymous', async () => {
      const member = await s.member('CLIENT');
      const body = { clients: [{ client_id: south, role: 'CLIENT' }] };
      const expected: [Person | 'anonymous', number][] = [
        [p.STAFF, 403],
        [p.CLIENT, 403],
        [p.STRANGER, 404],
        ['anonymous', 401],
        [p.ADMIN, 200],
        [p.OWNER, 200],
      ];
      for (const [who, status] of expected) {
        expect((await s.send('POST', grant(member.id), who, body)).statusCode).toBe(status);
      }
    });

    it('refuses bad input with 400 naming the field, writing nothing', async () => {
      const member = await s.member('STAFF');
      const before = await snapshot(t);
      const many = Array.from({ length: GRANT_ACCESS_MAX + 1 }, () => ({
        client_id: crypto.randomUUID(),
        role: 'STAFF',
      }));
      const cases: [unknown, string][] = [
        [{ clients: [] }, 'clients'],
        [{}, 'clients'],
        [{ clients: [{ client_id: south, role: 'BOSS' }] }, 'clients.0.role'],
        [{ clients: [{ client_id: 'nope', role: 'STAFF' }] }, 'clients.0.client_id'],
        [{ clients: [{ client_id: south, role: 'STAFF', status: 'MEMBER' }] }, 'clients.0.status'],
        [
          {
            clients: [
              { client_id: south, role: 'STAFF' },
              { client_id: south, role: 'CLIENT' },
            ],
          },
          'clients',
        ],
        [{ clients: many }, 'clients'],
        [{ clients: [{ client_id: south, role: 'STAFF' }], notify: true }, 'notify'],
      ];
      for (const [payload, field] of cases) {
        const res = await s.send('POST', grant(member.id), p.OWNER, payload);
        expect({ field, status: res.statusCode }).toEqual({ field, status: 400 });
        expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
      }
      expect(await snapshot(t)).toEqual(before);
    });
  });
});
