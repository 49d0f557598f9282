import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, INVITATION_TTL_MS, Messages } from '@portolan/contract';
import { and, eq } from 'drizzle-orm';
import { bearer, signIn, type TestApp } from '../../../test/support/app.ts';
import { activities, clientMembers } from '../../db/schema/index.ts';
import { FACTORY_PASSWORD } from '../../seed/factories.ts';
import {
  accept,
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

/** Organization invitations end to end: invite, the e-mailed link, accepting, and the refusals. */
describe('organization invitations', () => {
  let t: TestApp;
  let s: InvitationScene;
  beforeAll(async () => ({ t, s } = await startInvitationScene()));
  afterAll(() => t.close());

  const inviteAs = (who: Parameters<InvitationScene['send']>[2], body: Record<string, unknown>) =>
    s.send('POST', s.orgUrl('invitation/'), who, body);

  it('lets a new person join through the e-mailed link, choose a password and sign in', async () => {
    const email = freshEmail('newcomer');
    const res = await inviteAs(s.people.OWNER, { email: `  ${email} `, first_name: 'Nina' });
    expect(res.statusCode).toBe(201);
    const user = (await userByEmail(t, email))!;
    expect(res.json()).toEqual({
      id: expect.any(String),
      user: { id: user.id, email, first_name: 'Nina', last_name: '' },
      role: { key: 'STAFF', name: 'Staff' },
      status: 'PENDING',
    });
    // A new account: unverified, no password, may not create organizations.
    expect(user).toMatchObject({
      password_hash: null,
      email_verified_at: null,
      can_create_client: false,
    });
    expect(await orgMembership(t, s.orgId, user.id)).toMatchObject({
      role: 'STAFF',
      status: 'PENDING',
      invited_by: s.people.OWNER.id,
    });

    const mail = await t.mailTo(email);
    expect(mail.subject).toContain('invited');
    expect(mail.text).toContain('http://localhost:3000/ps/organizations/invitation?token=');
    expect(mail.html).toContain('/ps/organizations/invitation?token=');
    const token = await tokenFromMail(t, email);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    // Only the hash is stored, and the row expires in 7 days by the app's clock.
    const [row] = await invitationsOf(t, user.id);
    expect(row).toMatchObject({
      kind: 'organization',
      status: 'PENDING',
      role: 'STAFF',
      token_hash: crypto.createHash('sha256').update(token).digest('hex'),
      expires_at: new Date(t.clock.now().getTime() + INVITATION_TTL_MS),
    });

    // Without a password: asked for one, and nothing is used up.
    const ask = await accept(t, 'organization', { token });
    expect(ask.statusCode).toBe(200);
    expect(ask.json()).toEqual({
      needs_password: true,
      email,
      first_name: 'Nina',
      last_name: '',
      type: 'organization',
      organization: { id: s.orgId, name: expect.any(String) },
      client: null,
    });
    const weak = await accept(t, 'organization', { token, password: 'password' });
    expectError(weak, 400, ErrorCode.WEAK_PASSWORD, 'password');
    expect((await orgMembership(t, s.orgId, user.id))!.status).toBe('PENDING');

    const password = 'Lantern harbour 2031';
    const done = await accept(t, 'organization', {
      token,
      password,
      first_name: 'Nina',
      last_name: 'Newcomer',
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({
      needs_password: false,
      detail: Messages.invitationAcceptedOrganization,
      type: 'organization',
      organization: { id: s.orgId, name: expect.any(String) },
      client: null,
      token: expect.any(String),
    });
    // The answer signs them in; the password works for a new sign-in too.
    const me = await t.app.inject({
      method: 'GET',
      url: '/v1/rest-auth/user/',
      headers: bearer(done.json().token),
    });
    expect(me.json()).toMatchObject({ email, first_name: 'Nina', last_name: 'Newcomer' });
    await signIn(t, email, password);

    expect(await orgMembership(t, s.orgId, user.id)).toMatchObject({
      role: 'STAFF',
      status: 'MEMBER',
    });
    expect((await userByEmail(t, email))!.email_verified_at).not.toBeNull();
    expect((await invitationsOf(t, user.id))[0]).toMatchObject({ status: 'ACCEPTED' });
    const [notification] = await notificationsOf(t, user.id);
    expect(notification).toMatchObject({ status: 'DONE', is_seen: true });
    expect(notification!.meta).not.toHaveProperty('invitation_token');
    const added = await t.ctx.db
      .select()
      .from(activities)
      .where(and(eq(activities.action, 'ADD_MEMBER'), eq(activities.object_id, s.orgId)));
    expect(added.filter((a) => a.data.user_id === user.id)).toEqual([
      expect.objectContaining({ user_id: s.people.OWNER.id, organization_id: s.orgId }),
    ]);

    const again = await accept(t, 'organization', { token });
    expectError(again, 409, ErrorCode.INVITATION_ALREADY_ACCEPTED);
    expect(again.json().message).toContain('already accepted');
  });

  it('lets an existing user accept from the bell; an ADMIN gets every active workspace', async () => {
    const existing = await s.person({ first_name: 'Erin', last_name: 'Existing' });
    const res = await inviteAs(s.people.OWNER, {
      email: existing.email.toUpperCase(),
      role: 'ADMIN',
      first_name: 'Renamed',
    });
    expect(res.statusCode).toBe(201);
    // Nobody renames someone else's account.
    expect(res.json().user).toEqual({
      id: existing.id,
      email: existing.email,
      first_name: 'Erin',
      last_name: 'Existing',
    });
    const [notification] = await notificationsOf(t, existing.id);
    expect(notification).toMatchObject({
      type: 'INVITATION',
      status: 'OPEN',
      is_seen: false,
      author_id: s.people.OWNER.id,
      organization_id: s.orgId,
      meta: {
        invitation_token: expect.any(String),
        type: 'organization',
        id: s.orgId,
        organization: { id: s.orgId, name: expect.any(String) },
        role: 'ADMIN',
      },
    });
    const token = notification!.meta.invitation_token as string;
    expect(token).toBe(await tokenFromMail(t, existing.email));

    // Another signed-in account cannot accept it for them.
    const other = await accept(t, 'organization', { token }, { token: s.people.STAFF.token });
    expectError(other, 403, ErrorCode.INVITATION_OTHER_ACCOUNT);
    // Nor does it work on the workspace route.
    expectError(await accept(t, 'client', { token }), 404, ErrorCode.INVITATION_INVALID);

    const done = await accept(t, 'organization', { token }, { token: existing.token });
    expect(done.statusCode).toBe(200);
    expect(done.json()).not.toHaveProperty('token');
    expect(done.json()).toMatchObject({ needs_password: false, type: 'organization' });
    expect(await orgMembership(t, s.orgId, existing.id)).toMatchObject({
      role: 'ADMIN',
      status: 'MEMBER',
    });
    const workspaces = await t.ctx.db
      .select()
      .from(clientMembers)
      .where(eq(clientMembers.user_id, existing.id));
    expect(workspaces.map((w) => [w.client_id, w.role, w.status])).toEqual([
      [s.north.id, 'OWNER', 'MEMBER'],
    ]);
  });

  it('answers an unknown or malformed token as invalid', async () => {
    const unknown = await accept(t, 'organization', {
      token: crypto.randomBytes(32).toString('base64url'),
    });
    expectError(unknown, 404, ErrorCode.INVITATION_INVALID);
    expectError(await accept(t, 'organization', { token: '' }), 400, 'VALIDATION_ERROR', 'token');
  });

  it('expires after 7 days by the clock; a new invitation then replaces the expired one', async () => {
    const email = freshEmail('late');
    expect((await inviteAs(s.people.ADMIN, { email })).statusCode).toBe(201);
    const token = await tokenFromMail(t, email);
    const start = t.clock.now();
    try {
      t.clock.advance(INVITATION_TTL_MS - 1000);
      expect((await accept(t, 'organization', { token })).json().needs_password).toBe(true);
      t.clock.advance(1000);
      expectError(await accept(t, 'organization', { token }), 410, ErrorCode.INVITATION_EXPIRED);

      // A week on, the admin signs in again and invites anew: the expired row is revoked.
      const admin = {
        ...s.people.ADMIN,
        token: await signIn(t, s.people.ADMIN.email, FACTORY_PASSWORD),
      };
      expect((await inviteAs(admin, { email })).statusCode).toBe(201);
      const fresh = await tokenFromMail(t, email);
      expect(fresh).not.toBe(token);
      expectError(await accept(t, 'organization', { token }), 404, ErrorCode.INVITATION_INVALID);
      expect((await accept(t, 'organization', { token: fresh })).json().needs_password).toBe(true);
      const user = (await userByEmail(t, email))!;
      const rows = await invitationsOf(t, user.id);
      expect(rows.map((r) => r.status).sort()).toEqual(['PENDING', 'REVOKED']);
    } finally {
      // The other tests' sessions were signed at the start.
      t.clock.set(start);
    }
  });

  it('refuses a member (409 ALREADY_MEMBER) and a second pending invitation (409)', async () => {
    for (const member of [s.people.ADMIN, s.people.CLIENT]) {
      const res = await inviteAs(s.people.OWNER, { email: member.email });
      expectError(res, 409, ErrorCode.ALREADY_MEMBER);
    }
    const email = freshEmail('twice');
    expect((await inviteAs(s.people.OWNER, { email })).statusCode).toBe(201);
    const before = await writtenRows(t);
    const again = await inviteAs(s.people.ADMIN, { email: ` ${email.toLowerCase()} ` });
    expectError(again, 409, ErrorCode.INVITATION_PENDING);
    expect(await writtenRows(t)).toEqual(before);
  });

  it('lets an inviter offer only a role they may act on (spec §6)', async () => {
    const offered = [
      ['ADMIN', 'OWNER', 403],
      ['ADMIN', 'ADMIN', 201],
      ['ADMIN', 'CLIENT', 201],
      ['OWNER', 'OWNER', 201],
    ] as const;
    for (const [who, role, status] of offered) {
      const res = await inviteAs(s.people[who], { email: freshEmail(), role });
      expect({ who, role, status: res.statusCode }).toEqual({ who, role, status });
      if (status === 403) expect(res.json().code).toBe(ErrorCode.PERMISSION_DENIED);
    }
  });

  it('answers the permission matrix: 401, 201 for OWNER and ADMIN, 403, 404 for a stranger', async () => {
    const expected = {
      anonymous: 401,
      OWNER: 201,
      ADMIN: 201,
      STAFF: 403,
      CLIENT: 403,
      STRANGER: 404,
    } as const;
    for (const [who, status] of Object.entries(expected)) {
      const person = who === 'anonymous' ? 'anonymous' : s.people[who as keyof typeof s.people];
      const before = await writtenRows(t);
      const res = await inviteAs(person, { email: freshEmail() });
      expect({ who, status: res.statusCode }).toEqual({ who, status });
      if (status !== 201) expect(await writtenRows(t)).toEqual(before);
    }
  });

  it('refuses bad input with 400 naming the field, and writes nothing', async () => {
    const cases = [
      [{ email: 'not-an-email' }, 'email'],
      [{}, 'email'],
      [{ email: freshEmail(), role: 'MANAGER' }, 'role'],
      [{ email: freshEmail(), role: 'owner' }, 'role'],
      [{ email: freshEmail(), first_name: 'a\u0000b' }, 'first_name'],
      [{ email: freshEmail(), first_name: 'x'.repeat(151) }, 'first_name'],
      [{ email: freshEmail(), password: 'Lantern harbour 2031' }, 'password'],
    ] as const;
    const before = await writtenRows(t);
    for (const [body, field] of cases) {
      expectError(await inviteAs(s.people.OWNER, body), 400, ErrorCode.VALIDATION_ERROR, field);
    }
    const badId = await s.send(
      'POST',
      '/v1/organizations/not-a-uuid/users/invitation/',
      s.people.OWNER,
      { email: freshEmail() },
    );
    expectError(badId, 400, ErrorCode.VALIDATION_ERROR, 'orgId');
    expect(await writtenRows(t)).toEqual(before);
  });
});
