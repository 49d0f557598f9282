import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import type { TestApp } from '../../../test/support/app.ts';
import type { Person } from '../../../test/support/tenants.ts';
import { activities, organizationMembers } from '../../db/schema/index.ts';
import { createNotification } from '../notifications/index.ts';
import {
  accept,
  clientMembership,
  expectError,
  freshEmail,
  startInvitationScene,
  invitationsOf,
  notificationsOf,
  orgMembership,
  tokenFromMail,
  userByEmail,
  writtenRows,
  type InvitationScene,
} from './test-scene.ts';

/** After the invitation: sending it again, declining it, and inviting again after a removal. */
describe('resending and declining invitations', () => {
  let t: TestApp;
  let s: InvitationScene;
  beforeAll(async () => ({ t, s } = await startInvitationScene()));
  afterAll(() => t.close());

  /** Invites `email` (to the organization, or to the workspace) and answers the invitee's id. */
  const invite = async (email: string, workspace = false, role = 'STAFF') => {
    const url = (workspace ? s.clientUrl : s.orgUrl)('invitation/');
    const res = await s.send('POST', url, s.people.OWNER, { email, role });
    expect(res.statusCode).toBe(201);
    return res.json().user.id as string;
  };
  const resend = (who: Person | 'anonymous', userId: string, workspace = false) =>
    s.send('POST', (workspace ? s.clientUrl : s.orgUrl)(`${userId}/resend-invitation/`), who);
  const decline = (who: Person | 'anonymous', notificationId: string) =>
    s.send('PUT', `/v1/user/notification/${notificationId}/is-seen/decline/`, who);

  it('sends a fresh token: the old one then fails, the old notification is done', async () => {
    for (const workspace of [false, true]) {
      const email = freshEmail('resent');
      const userId = await invite(email, workspace);
      const first = await tokenFromMail(t, email);
      const res = await resend(workspace ? s.wsManager : s.people.ADMIN, userId, workspace);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ user: { id: userId }, status: 'PENDING' });
      const second = await tokenFromMail(t, email);
      expect(second).not.toBe(first);
      const kind = workspace ? 'client' : 'organization';
      expectError(await accept(t, kind, { token: first }), 404, ErrorCode.INVITATION_INVALID);
      const notes = await notificationsOf(t, userId);
      expect(notes.map((n) => [n.status, n.is_seen, n.meta.invitation_token ?? null])).toEqual(
        expect.arrayContaining([
          ['DONE', true, null],
          ['OPEN', false, second],
        ]),
      );
      expect((await invitationsOf(t, userId)).map((i) => i.status).sort()).toEqual([
        'PENDING',
        'REVOKED',
      ]);
      const done = await accept(t, kind, { token: second, password: 'Second chance 5521' });
      expect(done.statusCode).toBe(200);
    }
  });

  it('resends only a pending invitation, only for those who may, and not above their role', async () => {
    const email = freshEmail('owner-to-be');
    const userId = await invite(email, false, 'OWNER');
    expectError(await resend(s.people.ADMIN, userId), 403, ErrorCode.PERMISSION_DENIED);
    expectError(
      await resend(s.people.OWNER, s.people.STAFF.id),
      409,
      ErrorCode.INVITATION_NOT_PENDING,
    );
    expectError(await resend(s.people.OWNER, s.people.STRANGER.id), 404, ErrorCode.NOT_FOUND);
    expectError(
      await resend(s.wsManager, s.wsStaff.id, true),
      409,
      ErrorCode.INVITATION_NOT_PENDING,
    );
    const before = await writtenRows(t);
    for (const [who, status] of [
      ['anonymous', 401],
      [s.people.STAFF, 403],
      [s.people.CLIENT, 403],
      [s.people.STRANGER, 404],
    ] as const) {
      expect((await resend(who, userId)).statusCode).toBe(status);
    }
    expect((await resend(s.wsStaff, s.wsStaff.id, true)).statusCode).toBe(403);
    expect(await writtenRows(t)).toEqual(before);
    expect((await resend(s.people.OWNER, userId)).statusCode).toBe(200);
  });

  it('declines through the notification: the membership goes, the decision is recorded', async () => {
    const invitee = await s.person({ first_name: 'Dee' });
    await invite(invitee.email);
    const [notification] = await notificationsOf(t, invitee.id);
    const token = notification!.meta.invitation_token as string;

    expectError(await decline(s.people.OWNER, notification!.id), 404, ErrorCode.NOT_FOUND);
    expect((await decline('anonymous', notification!.id)).statusCode).toBe(401);
    expectError(
      await s.send('PUT', '/v1/user/notification/nope/is-seen/decline/', invitee),
      400,
      ErrorCode.VALIDATION_ERROR,
      'id',
    );

    const res = await decline(invitee, notification!.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: notification!.id,
      type: 'INVITATION',
      status: 'DONE',
      is_seen: true,
      author: { id: s.people.OWNER.id },
      organization: { id: s.orgId },
      client: null,
    });
    expect(res.json().meta).not.toHaveProperty('invitation_token');
    expect(await orgMembership(t, s.orgId, invitee.id)).toBeUndefined();
    expect((await invitationsOf(t, invitee.id))[0]).toMatchObject({ status: 'DECLINED' });
    const [recorded] = await t.ctx.db
      .select()
      .from(activities)
      .where(and(eq(activities.action, 'DECLINE_INVITATION'), eq(activities.user_id, invitee.id)));
    expect(recorded).toMatchObject({ organization_id: s.orgId, object_id: s.orgId });

    const late = await accept(t, 'organization', { token }, { token: invitee.token });
    expectError(late, 409, ErrorCode.INVITATION_ALREADY_DECLINED);
    expect(late.json().message).toContain('already declined');
    expectError(
      await decline(invitee, notification!.id),
      409,
      ErrorCode.INVITATION_ALREADY_DECLINED,
    );
    // Declined is not forever: a new invitation works.
    await invite(invitee.email);
    const fresh = (await notificationsOf(t, invitee.id)).find((n) => n.status === 'OPEN')!;
    const ok = await accept(
      t,
      'organization',
      { token: fresh.meta.invitation_token as string },
      {
        token: invitee.token,
      },
    );
    expect(ok.statusCode).toBe(200);
    expectError(await decline(invitee, fresh.id), 409, ErrorCode.INVITATION_ALREADY_ACCEPTED);
  });

  it('takes back the pending external membership a declined workspace invitation made', async () => {
    const invitee = await s.person();
    await invite(invitee.email, true);
    expect(await orgMembership(t, s.orgId, invitee.id)).toMatchObject({ status: 'PENDING' });
    const [notification] = await notificationsOf(t, invitee.id);
    expect((await decline(invitee, notification!.id)).statusCode).toBe(200);
    expect(await clientMembership(t, s.north.id, invitee.id)).toBeUndefined();
    expect(await orgMembership(t, s.orgId, invitee.id)).toBeUndefined();
  });

  it('keeps the external membership of someone still invited to the organization itself', async () => {
    const invitee = await s.person();
    await invite(invitee.email, false, 'CLIENT');
    await invite(invitee.email, true);
    const notes = await notificationsOf(t, invitee.id);
    const toWorkspace = notes.find((n) => n.meta.type === 'client')!;
    expect((await decline(invitee, toWorkspace.id)).statusCode).toBe(200);
    expect(await orgMembership(t, s.orgId, invitee.id)).toMatchObject({
      role: 'CLIENT',
      status: 'PENDING',
    });
  });

  it('leaves a workspace member external when they decline the organization’s invitation', async () => {
    const invitee = await s.person();
    await invite(invitee.email, false, 'STAFF');
    await invite(invitee.email, true);
    const notes = await notificationsOf(t, invitee.id);
    const toWorkspace = notes.find((n) => n.meta.type === 'client')!;
    const toOrganization = notes.find((n) => n.meta.type === 'organization')!;
    const joined = await accept(
      t,
      'client',
      { token: toWorkspace.meta.invitation_token as string },
      { token: invitee.token },
    );
    expect(joined.statusCode).toBe(200);
    // The organization's own invitation is still pending: the membership waits for it.
    expect(await orgMembership(t, s.orgId, invitee.id)).toMatchObject({
      role: 'STAFF',
      status: 'PENDING',
    });
    expect((await decline(invitee, toOrganization.id)).statusCode).toBe(200);
    expect(await orgMembership(t, s.orgId, invitee.id)).toMatchObject({
      role: 'CLIENT',
      status: 'MEMBER',
    });
  });

  it('refuses to decline what is not an invitation', async () => {
    const invitee = await s.person();
    const warningId = await createNotification(t.ctx.db, {
      type: 'WARNING',
      recipientId: invitee.id,
      extraMessage: 'Something to know.',
    });
    expectError(await decline(invitee, warningId), 409, ErrorCode.NOT_AN_OPEN_INVITATION);
  });

  it('invites again someone removed after they joined', async () => {
    const email = freshEmail('returning');
    await invite(email);
    const token = await tokenFromMail(t, email);
    expect(
      (await accept(t, 'organization', { token, password: 'Boomerang 7730 x' })).statusCode,
    ).toBe(200);
    const user = (await userByEmail(t, email))!;
    expectError(
      await s.send('POST', s.orgUrl('invitation/'), s.people.OWNER, { email }),
      409,
      ErrorCode.ALREADY_MEMBER,
    );
    // Removed through the members module.
    const removed = await s.send('DELETE', s.orgUrl(`${user.id}/`), s.people.OWNER);
    expect(removed.statusCode).toBeLessThan(300);
    expect(await orgMembership(t, s.orgId, user.id)).toBeUndefined();
    await invite(email);
    const again = await tokenFromMail(t, email);
    expect(again).not.toBe(token);
    const back = await accept(t, 'organization', { token: again });
    expect(back.statusCode).toBe(200);
    expect(back.json()).not.toHaveProperty('token');
    expect(await orgMembership(t, s.orgId, user.id)).toMatchObject({ status: 'MEMBER' });
  });

  it('answers the token of a removed pending member as invalid, and invites them again', async () => {
    const email = freshEmail('removed-pending');
    const userId = await invite(email);
    const token = await tokenFromMail(t, email);
    const removed = await s.send('DELETE', s.orgUrl(`${userId}/`), s.people.ADMIN);
    expect(removed.statusCode).toBeLessThan(300);
    const res = await accept(t, 'organization', { token, password: 'Too late now 4455' });
    expectError(res, 404, ErrorCode.INVITATION_INVALID);
    await invite(email);
    expect(
      (await accept(t, 'organization', { token: await tokenFromMail(t, email) })).json(),
    ).toMatchObject({
      needs_password: true,
    });
  });

  it('answers invalid when the pending membership went without its invitation', async () => {
    const email = freshEmail('stale');
    const userId = await invite(email);
    const token = await tokenFromMail(t, email);
    await t.ctx.db
      .delete(organizationMembers)
      .where(
        and(
          eq(organizationMembers.organization_id, s.orgId),
          eq(organizationMembers.user_id, userId),
        ),
      );
    const res = await accept(t, 'organization', { token, password: 'Too late now 4455' });
    expectError(res, 404, ErrorCode.INVITATION_INVALID);
    // And a new invitation is not blocked by the stale one.
    await invite(email);
  });
});
