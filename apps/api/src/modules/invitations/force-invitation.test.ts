import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import { signIn, type TestApp } from '../../../test/support/app.ts';
import type { Person } from '../../../test/support/tenants.ts';
import { activities, clientMembers } from '../../db/schema/index.ts';
import { FACTORY_PASSWORD } from '../../seed/factories.ts';
import {
  clientMembership,
  expectError,
  freshEmail,
  startInvitationScene,
  orgMembership,
  userByEmail,
  writtenRows,
  type InvitationScene,
} from './test-scene.ts';

const PASSWORD = 'Chosen by inviter 4410';

/** Force-invitations add a member at once; the inviter never learns or sets a stranger's password. */
describe('force invitations', () => {
  let t: TestApp;
  let s: InvitationScene;
  beforeAll(async () => ({ t, s } = await startInvitationScene()));
  afterAll(() => t.close());

  const forceAs = (who: Person | 'anonymous', body: Record<string, unknown>, workspace = false) =>
    s.send('POST', (workspace ? s.clientUrl : s.orgUrl)('force-invitation/'), who, body);

  it('makes a new, verified account with the password given, without mailing it', async () => {
    const email = freshEmail('added');
    const res = await forceAs(s.people.ADMIN, {
      email,
      role: 'ADMIN',
      password: PASSWORD,
      first_name: 'Ada',
      last_name: 'Added',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      user: { email, first_name: 'Ada', last_name: 'Added' },
      role: { key: 'ADMIN', name: 'Admin' },
      status: 'MEMBER',
    });
    const user = (await userByEmail(t, email))!;
    expect(user.email_verified_at).not.toBeNull();
    await signIn(t, email, PASSWORD);
    expect(await orgMembership(t, s.orgId, user.id)).toMatchObject({ status: 'MEMBER' });
    // An ADMIN has every active workspace (not the one waiting for approval).
    const workspaces = await t.ctx.db
      .select({ id: clientMembers.client_id })
      .from(clientMembers)
      .where(eq(clientMembers.user_id, user.id));
    expect(workspaces).toEqual([{ id: s.north.id }]);

    const mail = await t.mailTo(email);
    expect(mail.subject).toContain('added');
    expect(mail.text).toContain('/login');
    expect(mail.text).toContain('/forgot-password');
    expect(mail.text).not.toContain(PASSWORD);
    expect(mail.html).not.toContain(PASSWORD);
    const [added] = await t.ctx.db
      .select()
      .from(activities)
      .where(and(eq(activities.action, 'ADD_MEMBER'), eq(activities.organization_id, s.orgId)));
    expect(added).toMatchObject({
      user_id: s.people.ADMIN.id,
      data: { user_id: user.id, role: 'ADMIN', via: 'force-invitation' },
    });
  });

  it('lets an existing account keep its own password and just join', async () => {
    const existing = await s.person();
    const res = await forceAs(s.people.OWNER, { email: existing.email, password: PASSWORD });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ role: { key: 'STAFF' }, status: 'MEMBER' });
    await signIn(t, existing.email, FACTORY_PASSWORD);
    await expect(signIn(t, existing.email, PASSWORD)).rejects.toThrow(/sign-in failed/);
    const mail = await t.mailTo(existing.email);
    expect(mail.text).not.toContain(PASSWORD);
    expect(mail.text).not.toContain('/forgot-password');
  });

  it('adds an outsider to a workspace and to the organization as an external member', async () => {
    const email = freshEmail('ws-added');
    const res = await forceAs(s.wsManager, { email, role: 'STAFF', password: PASSWORD }, true);
    expect(res.statusCode).toBe(201);
    const user = (await userByEmail(t, email))!;
    expect(await clientMembership(t, s.north.id, user.id)).toMatchObject({
      role: 'STAFF',
      status: 'MEMBER',
    });
    expect(await orgMembership(t, s.orgId, user.id)).toMatchObject({
      role: 'CLIENT',
      status: 'MEMBER',
    });
    const workspaces = await s.send('GET', `/v1/clients/${s.north.id}/`, {
      id: user.id,
      email,
      token: await signIn(t, email, PASSWORD),
    });
    expect(workspaces.statusCode).toBe(200);
  });

  it('refuses a member, a pending invitee, a role above the inviter’s, and bad input', async () => {
    expectError(
      await forceAs(s.people.OWNER, { email: s.people.CLIENT.email, password: PASSWORD }),
      409,
      ErrorCode.ALREADY_MEMBER,
    );
    const pending = freshEmail('pending');
    await s.send('POST', s.orgUrl('invitation/'), s.people.OWNER, { email: pending });
    expectError(
      await forceAs(s.people.OWNER, { email: pending, password: PASSWORD }),
      409,
      ErrorCode.INVITATION_PENDING,
    );
    expectError(
      await forceAs(s.people.ADMIN, { email: freshEmail(), role: 'OWNER', password: PASSWORD }),
      403,
      ErrorCode.PERMISSION_DENIED,
    );
    const before = await writtenRows(t);
    const email = freshEmail('weak');
    for (const [body, field, code] of [
      [{ email, password: 'short' }, 'password', ErrorCode.WEAK_PASSWORD],
      [{ email, password: 'password123' }, 'password', ErrorCode.WEAK_PASSWORD],
      [{ email, password: email.toLowerCase() }, 'password', ErrorCode.WEAK_PASSWORD],
      [{ email }, 'password', ErrorCode.VALIDATION_ERROR],
      [{ email, password: 'a\u0000bcdefghij' }, 'password', ErrorCode.VALIDATION_ERROR],
      [{ email: 'x', password: PASSWORD }, 'email', ErrorCode.VALIDATION_ERROR],
    ] as const) {
      expectError(await forceAs(s.people.OWNER, body), 400, code, field);
    }
    expect(await writtenRows(t)).toEqual(before);
  });

  it('answers the permission matrix on both levels', async () => {
    const cases: [string, Person | 'anonymous', boolean, number][] = [
      ['anonymous', 'anonymous', false, 401],
      ['OWNER', s.people.OWNER, false, 201],
      ['ADMIN', s.people.ADMIN, false, 201],
      ['STAFF', s.people.STAFF, false, 403],
      ['CLIENT', s.people.CLIENT, false, 403],
      ['STRANGER', s.people.STRANGER, false, 404],
      ['workspace MANAGER', s.wsManager, true, 201],
      ['workspace STAFF', s.wsStaff, true, 403],
      ['STRANGER on the workspace', s.people.STRANGER, true, 404],
    ];
    for (const [who, person, workspace, status] of cases) {
      const res = await forceAs(person, { email: freshEmail(), password: PASSWORD }, workspace);
      expect({ who, status: res.statusCode }).toEqual({ who, status });
    }
  });
});
