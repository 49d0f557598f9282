import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, Messages } from '@portolan/contract';
import type { TestApp } from '../../../test/support/app.ts';
import type { Person } from '../../../test/support/tenants.ts';
import {
  accept,
  clientMembership,
  expectError,
  freshEmail,
  startInvitationScene,
  notificationsOf,
  orgMembership,
  tokenFromMail,
  userByEmail,
  writtenRows,
  type InvitationScene,
} from './test-scene.ts';

/** Workspace invitations: the same rules as the organization's, with the workspace's roles. */
describe('workspace invitations', () => {
  let t: TestApp;
  let s: InvitationScene;
  beforeAll(async () => ({ t, s } = await startInvitationScene()));
  afterAll(() => t.close());

  const inviteAs = (who: Person | 'anonymous', body: Record<string, unknown>) =>
    s.send('POST', s.clientUrl('invitation/'), who, body);

  it('makes an outsider a pending workspace member and a pending external organization member', async () => {
    const email = freshEmail('outsider');
    const res = await inviteAs(s.people.ADMIN, { email, role: 'MANAGER', last_name: 'Out' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      role: { key: 'MANAGER', name: 'Manager' },
      status: 'PENDING',
    });
    const user = (await userByEmail(t, email))!;
    expect(await clientMembership(t, s.north.id, user.id)).toMatchObject({
      role: 'MANAGER',
      status: 'PENDING',
    });
    expect(await orgMembership(t, s.orgId, user.id)).toMatchObject({
      role: 'CLIENT',
      status: 'PENDING',
    });
    const [notification] = await notificationsOf(t, user.id);
    expect(notification).toMatchObject({
      client_id: s.north.id,
      organization_id: s.orgId,
      meta: {
        type: 'client',
        id: s.north.id,
        client: { id: s.north.id, name: 'North' },
        organization: { id: s.orgId, name: expect.any(String) },
        role: 'MANAGER',
      },
    });
    expect((await t.mailTo(email)).text).toContain('/ps/clients/invitation?token=');
    const token = await tokenFromMail(t, email);
    expect(notification!.meta.invitation_token).toBe(token);
    expectError(await accept(t, 'organization', { token }), 404, ErrorCode.INVITATION_INVALID);

    const ask = await accept(t, 'client', { token });
    expect(ask.json()).toMatchObject({
      needs_password: true,
      type: 'client',
      client: { id: s.north.id, name: 'North' },
    });
    const done = await accept(t, 'client', { token, password: 'Quiet river 8812' });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({
      needs_password: false,
      detail: Messages.invitationAcceptedWorkspace,
      type: 'client',
      organization: { id: s.orgId },
      client: { id: s.north.id, name: 'North' },
      token: expect.any(String),
    });
    expect(await clientMembership(t, s.north.id, user.id)).toMatchObject({
      role: 'MANAGER',
      status: 'MEMBER',
    });
    expect(await orgMembership(t, s.orgId, user.id)).toMatchObject({
      role: 'CLIENT',
      status: 'MEMBER',
    });
  });

  it('leaves an organization member’s own membership as it is', async () => {
    const res = await inviteAs(s.wsManager, { email: s.people.STAFF.email });
    expect(res.statusCode).toBe(201);
    expect(await orgMembership(t, s.orgId, s.people.STAFF.id)).toMatchObject({
      role: 'STAFF',
      status: 'MEMBER',
    });
    const token = await tokenFromMail(t, s.people.STAFF.email);
    const done = await accept(t, 'client', { token }, { token: s.people.STAFF.token });
    expect(done.statusCode).toBe(200);
    expect(await clientMembership(t, s.north.id, s.people.STAFF.id)).toMatchObject({
      role: 'STAFF',
      status: 'MEMBER',
    });
    expect(await orgMembership(t, s.orgId, s.people.STAFF.id)).toMatchObject({
      role: 'STAFF',
      status: 'MEMBER',
    });
  });

  it('answers the permission matrix: workspace MANAGER may invite, its STAFF may not', async () => {
    const outsider = await s.member('STAFF'); // of the organization, not of the workspace
    const expected: [string, Person | 'anonymous', number][] = [
      ['anonymous', 'anonymous', 401],
      ['OWNER', s.people.OWNER, 201],
      ['ADMIN', s.people.ADMIN, 201],
      ['workspace MANAGER', s.wsManager, 201],
      ['workspace STAFF', s.wsStaff, 403],
      ['organization STAFF outside it', outsider, 404],
      ['CLIENT', s.people.CLIENT, 404],
      ['STRANGER', s.people.STRANGER, 404],
    ];
    for (const [who, person, status] of expected) {
      const before = await writtenRows(t);
      const res = await inviteAs(person, { email: freshEmail() });
      expect({ who, status: res.statusCode }).toEqual({ who, status });
      if (status !== 201) expect(await writtenRows(t)).toEqual(before);
    }
  });

  it('lets a MANAGER offer no role above their own', async () => {
    for (const [role, status] of [
      ['OWNER', 403],
      ['ADMIN', 403],
      ['MANAGER', 201],
      ['CLIENT', 201],
    ] as const) {
      const res = await inviteAs(s.wsManager, { email: freshEmail(), role });
      expect({ role, status: res.statusCode }).toEqual({ role, status });
    }
  });

  it('refuses a member, a second pending invitation and bad input, writing nothing', async () => {
    expectError(
      await inviteAs(s.people.OWNER, { email: s.wsStaff.email }),
      409,
      ErrorCode.ALREADY_MEMBER,
    );
    const email = freshEmail('again');
    expect((await inviteAs(s.people.OWNER, { email })).statusCode).toBe(201);
    const before = await writtenRows(t);
    expectError(await inviteAs(s.wsManager, { email }), 409, ErrorCode.INVITATION_PENDING);
    for (const [body, field] of [
      [{ email: freshEmail(), role: 'KING' }, 'role'],
      [{ email: 'nobody@', role: 'STAFF' }, 'email'],
      [{ email: freshEmail(), organization: s.orgId }, 'organization'],
    ] as const) {
      expectError(await inviteAs(s.people.OWNER, body), 400, ErrorCode.VALIDATION_ERROR, field);
    }
    expect(await writtenRows(t)).toEqual(before);
  });
});
