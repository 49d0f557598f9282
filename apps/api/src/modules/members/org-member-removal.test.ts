import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type OrgRole } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  createTenantScene,
  type OrgPerson,
  type Person,
  type TenantScene,
} from '../../../test/support/tenants.ts';
import { addClientMember, addOrganizationMember, createClient } from '../../seed/factories.ts';
import { NOTIFICATION_CHANNEL } from '../notifications/index.ts';
import {
  activitiesOf,
  givePermissions,
  invitationRow,
  notificationRow,
  orgMembership,
  pendingInvitation,
  permissionRows,
  snapshot,
  workspaceMembership,
} from './test-scene.ts';

/** DELETE /v1/organizations/{orgId}/users/{userId}/?choice= */
describe('organization members: removal', () => {
  let t: TestApp;
  let s: TenantScene;
  let p: Record<OrgPerson, Person>;
  let w1: string;
  let w2: string;
  /** A workspace of the stranger's organization. */
  let elsewhere: string;
  const url = (userId: string, query = '') =>
    `/v1/organizations/${s.orgId}/users/${userId}/${query}`;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    p = s.people;
    const db = t.ctx.db;
    w1 = (await createClient(db, { organizationId: s.orgId, ownerId: p.OWNER.id })).id;
    w2 = (await createClient(db, { organizationId: s.orgId, ownerId: p.OWNER.id })).id;
    elsewhere = (await createClient(db, { organizationId: s.otherOrgId, ownerId: p.STRANGER.id }))
      .id;
  });
  afterAll(() => t.close());

  /** A STAFF member of W1 with a custom role and an override there. */
  async function staffInW1() {
    const member = await s.member('STAFF');
    await addClientMember(t.ctx.db, { clientId: w1, userId: member.id, role: 'STAFF' });
    await givePermissions(t.ctx.db, { organizationId: s.orgId, clientId: w1, userId: member.id });
    return member;
  }

  it('asks what to do with a member still in workspaces: 400 naming choice and the choices, nothing written', async () => {
    const member = await staffInW1();
    const before = await snapshot(t);
    const res = await s.send('DELETE', url(member.id), p.ADMIN);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
      details: [{ field: 'choice' }],
    });
    expect(res.json().message).toContain('remove_everywhere');
    expect(res.json().message).toContain('keep_as_external');
    expect(await snapshot(t)).toEqual(before);
  });

  it('remove_everywhere: out of the organization and its workspaces, roles, overrides and invitations with it', async () => {
    const db = t.ctx.db;
    const member = await staffInW1();
    // Invited to W2, and a member of another organization's workspace (untouched).
    await addClientMember(db, {
      clientId: w2,
      userId: member.id,
      role: 'STAFF',
      status: 'PENDING',
    });
    const invited = await pendingInvitation(db, {
      kind: 'client',
      organizationId: s.orgId,
      clientId: w2,
      userId: member.id,
      role: 'STAFF',
      invitedBy: p.OWNER.id,
    });
    await addOrganizationMember(db, {
      organizationId: s.otherOrgId,
      userId: member.id,
      role: 'CLIENT',
    });
    await addClientMember(db, { clientId: elsewhere, userId: member.id, role: 'CLIENT' });
    await givePermissions(db, {
      organizationId: s.otherOrgId,
      clientId: elsewhere,
      userId: member.id,
    });

    const res = await s.send('DELETE', url(member.id, '?choice=remove_everywhere'), p.ADMIN);
    expect(res.statusCode).toBe(204);
    expect(await orgMembership(db, s.orgId, member.id)).toBeUndefined();
    expect(await workspaceMembership(db, w1, member.id)).toBeUndefined();
    expect(await workspaceMembership(db, w2, member.id)).toBeUndefined();
    expect(await permissionRows(db, w1, member.id)).toBe(0);
    expect(await invitationRow(db, invited.invitation.id)).toMatchObject({
      status: 'REVOKED',
      decided_at: t.clock.now(),
    });
    const notification = await notificationRow(db, invited.notification.id);
    expect(notification).toMatchObject({ status: 'DONE', is_seen: true });
    expect(notification.meta).not.toHaveProperty('invitation_token');
    // The other organization is not touched.
    expect(await orgMembership(db, s.otherOrgId, member.id)).toMatchObject({ role: 'CLIENT' });
    expect(await workspaceMembership(db, elsewhere, member.id)).toBeDefined();
    expect(await permissionRows(db, elsewhere, member.id)).toBe(2);
    expect((await activitiesOf(db, s.orgId, 'DELETE_MEMBER')).at(-1)).toMatchObject({
      user_id: p.ADMIN.id,
      object_type: 'user',
      object_id: member.id,
      data: { email: member.email, role: 'STAFF', status: 'MEMBER', choice: 'remove_everywhere' },
    });
    // They can be found no more.
    expect((await s.send('GET', url(member.id), p.ADMIN)).statusCode).toBe(404);
  });

  it('keep_as_external: an external (CLIENT) member, workspaces, roles and overrides kept', async () => {
    const db = t.ctx.db;
    const member = await staffInW1();
    const res = await s.send('DELETE', url(member.id, '?choice=keep_as_external'), p.OWNER);
    expect(res.statusCode).toBe(204);
    expect(await orgMembership(db, s.orgId, member.id)).toMatchObject({
      role: 'CLIENT',
      status: 'MEMBER',
    });
    expect(await workspaceMembership(db, w1, member.id)).toMatchObject({ role: 'STAFF' });
    expect(await permissionRows(db, w1, member.id)).toBe(2);
    expect((await activitiesOf(db, s.orgId, 'DELETE_MEMBER')).at(-1)).toMatchObject({
      data: { email: member.email, role: 'STAFF', choice: 'keep_as_external' },
    });
    // External already: only removing them is left.
    const again = await s.send('DELETE', url(member.id, '?choice=keep_as_external'), p.OWNER);
    expect(again.statusCode).toBe(400);
    expect(again.json().details).toEqual([{ field: 'choice', message: expect.any(String) }]);
  });

  it('removes a member in no workspace without a choice', async () => {
    const member = await s.member('CLIENT');
    expect((await s.send('DELETE', url(member.id), p.ADMIN)).statusCode).toBe(204);
    expect(await orgMembership(t.ctx.db, s.orgId, member.id)).toBeUndefined();
  });

  it('cancels a pending member’s invitation, and what it offered in workspaces, without a choice', async () => {
    const db = t.ctx.db;
    const invitee = await s.person();
    await addOrganizationMember(db, {
      organizationId: s.orgId,
      userId: invitee.id,
      role: 'STAFF',
      status: 'PENDING',
    });
    const invited = await pendingInvitation(db, {
      kind: 'organization',
      organizationId: s.orgId,
      userId: invitee.id,
      role: 'STAFF',
      invitedBy: p.ADMIN.id,
    });
    await addClientMember(db, {
      clientId: w2,
      userId: invitee.id,
      role: 'CLIENT',
      status: 'PENDING',
    });
    // The invitee's open bells are told (their invitation notification closes).
    const told: string[] = [];
    const listener = t.ctx.database.listen(NOTIFICATION_CHANNEL, {
      notify: (payload) => told.push(payload),
      listening: () => {},
    });
    await listener.ready;
    const res = await s.send('DELETE', url(invitee.id), p.ADMIN);
    expect(res.statusCode).toBe(204);
    await expect.poll(() => told, { timeout: 3_000 }).toContain(invitee.id);
    await listener.close();
    expect(await orgMembership(db, s.orgId, invitee.id)).toBeUndefined();
    expect(await workspaceMembership(db, w2, invitee.id)).toBeUndefined();
    expect(await invitationRow(db, invited.invitation.id)).toMatchObject({ status: 'REVOKED' });
    expect((await activitiesOf(db, s.orgId, 'DELETE_MEMBER')).at(-1)).toMatchObject({
      data: { email: invitee.email, status: 'PENDING', choice: null },
    });
  });

  it('never removes oneself (403 OWN_MEMBERSHIP) nor, unless an OWNER, an OWNER; writes nothing', async () => {
    const before = await snapshot(t);
    for (const who of [p.OWNER, p.ADMIN]) {
      const res = await s.send('DELETE', url(who.id, '?choice=remove_everywhere'), who);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe(ErrorCode.OWN_MEMBERSHIP);
    }
    const owner = await s.send('DELETE', url(p.OWNER.id, '?choice=remove_everywhere'), p.ADMIN);
    expect(owner.statusCode).toBe(403);
    expect(owner.json().code).toBe(ErrorCode.PERMISSION_DENIED);
    expect(await snapshot(t)).toEqual(before);
  });

  // [who acts, the member's role, status] — a fresh member per row, in no workspace.
  const matrix: [OrgPerson | 'anonymous', OrgRole, number][] = [
    ['OWNER', 'OWNER', 204],
    ['OWNER', 'ADMIN', 204],
    ['OWNER', 'CLIENT', 204],
    ['ADMIN', 'OWNER', 403],
    ['ADMIN', 'ADMIN', 204],
    ['ADMIN', 'STAFF', 204],
    ['ADMIN', 'CLIENT', 204],
    ['STAFF', 'CLIENT', 403],
    ['CLIENT', 'STAFF', 403],
    ['STRANGER', 'STAFF', 404],
    ['anonymous', 'STAFF', 401],
  ];
  it.each(matrix)('%s removing a %s: %i', async (who, role, status) => {
    const member = await s.member(role);
    const res = await s.send('DELETE', url(member.id), who === 'anonymous' ? who : p[who]);
    expect(res.statusCode).toBe(status);
    const row = await orgMembership(t.ctx.db, s.orgId, member.id);
    if (status === 204) expect(row).toBeUndefined();
    else expect(row).toMatchObject({ role });
  });

  it('answers 404 for someone not a member of this organization', async () => {
    for (const userId of [p.STRANGER.id, crypto.randomUUID()]) {
      const res = await s.send('DELETE', url(userId, '?choice=remove_everywhere'), p.OWNER);
      expect(res.statusCode).toBe(404);
    }
  });

  it('refuses bad input with 400 naming the field, writing nothing', async () => {
    const member = await staffInW1();
    const before = await snapshot(t);
    const cases: [string, string][] = [
      [url(member.id, '?choice=everywhere'), 'choice'],
      [url(member.id, '?choice='), 'choice'],
      [url(member.id, '?choice=remove_everywhere&force=1'), 'force'],
      [url('nope', '?choice=remove_everywhere'), 'userId'],
    ];
    for (const [target, field] of cases) {
      const res = await s.send('DELETE', target, p.OWNER);
      expect({ target, status: res.statusCode }).toEqual({ target, status: 400 });
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect(await snapshot(t)).toEqual(before);
  });
});
