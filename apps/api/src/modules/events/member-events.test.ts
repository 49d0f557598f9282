import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type Person, type TenantScene } from '../../../test/support/tenants.ts';
import { invitations, notifications } from '../../db/schema/index.ts';
import { addClientMember, createClient } from '../../seed/factories.ts';
import { recordedBy } from './test-events.ts';

/**
 * Issue 21 item 3: memberships and invitations record their events in the transaction of the
 * change, through the real routes: member.added, member.removed, member.role_changed,
 * invitation.sent, invitation.accepted, invitation.declined. A refused change records none.
 */
describe('member and invitation events', () => {
  let t: TestApp;
  let s: TenantScene;
  let north: string;
  let south: string;
  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    const workspace = async (name: string) =>
      (await createClient(t.ctx.db, { organizationId: s.orgId, ownerId: s.people.OWNER.id, name }))
        .id;
    north = await workspace('North');
    south = await workspace('South');
  });
  afterAll(() => t.close());

  const orgUsers = (rest = '') => `/v1/organizations/${s.orgId}/users/${rest}`;
  const clientUsers = (clientId: string, rest = '') => `/v1/clients/${clientId}/users/${rest}`;
  const ORG = { scope: 'organization', client_id: null } as const;
  const inWorkspace = (clientId: string) => ({ scope: 'workspace', client_id: clientId }) as const;
  let n = 0;
  const freshEmail = () => `member.${Date.now().toString(36)}.${n++}@example.com`;
  /** Runs a request that must answer `status`, and answers the events it recorded. */
  const eventsOf = (
    status: number,
    method: 'POST' | 'PUT' | 'DELETE',
    url: string,
    who: Person,
    body?: unknown,
  ) =>
    recordedBy(t, s.orgId, async () => {
      const res = await s.send(method, url, who, body);
      expect(res.statusCode, res.body).toBe(status);
      return res;
    });
  const invitationOf = async (userId: string) =>
    (
      await t.ctx.db
        .select()
        .from(invitations)
        .where(and(eq(invitations.user_id, userId), eq(invitations.status, 'PENDING')))
    )[0]!;

  it('force-invitation: member.added', async () => {
    const email = freshEmail();
    const recorded = await eventsOf(201, 'POST', orgUsers('force-invitation/'), s.people.ADMIN, {
      email,
      role: 'STAFF',
      password: 'A long enough passphrase 7',
    });
    const user = recorded[0]?.subject.split(':')[1];
    expect(recorded).toEqual([
      {
        type: 'member.added',
        subject: `member:${user}`,
        data: { ...ORG, user_id: user, email, role: 'STAFF', via: 'force_invitation' },
      },
    ]);
  });

  it('invitation: sent, sent again, accepted (with member.added)', async () => {
    const email = freshEmail();
    const sent = await eventsOf(201, 'POST', orgUsers('invitation/'), s.people.OWNER, {
      email,
      role: 'STAFF',
    });
    const userId = sent[0]!.data.user_id as string;
    const first = await invitationOf(userId);
    expect(sent).toEqual([
      {
        type: 'invitation.sent',
        subject: `invitation:${first.id}`,
        data: {
          ...ORG,
          invitation_id: first.id,
          user_id: userId,
          email,
          role: 'STAFF',
          expires_at: first.expires_at.toISOString(),
        },
      },
    ]);

    const resent = await eventsOf(
      200,
      'POST',
      orgUsers(`${userId}/resend-invitation/`),
      s.people.OWNER,
    );
    const second = await invitationOf(userId);
    expect(second.id).not.toBe(first.id);
    expect(resent).toEqual([
      expect.objectContaining({ type: 'invitation.sent', subject: `invitation:${second.id}` }),
    ]);

    const mail = await t.mailTo(email);
    const token = /invitation\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    const accepted = await recordedBy(t, s.orgId, async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/organizations/users/invitation/accept/',
        payload: { token, password: 'Accepted passphrase 88' },
        remoteAddress: '10.91.0.1',
      });
      expect(res.statusCode, res.body).toBe(200);
    });
    const who = { ...ORG, user_id: userId, email, role: 'STAFF' };
    expect(accepted).toEqual([
      {
        type: 'invitation.accepted',
        subject: `invitation:${second.id}`,
        data: { ...who, invitation_id: second.id },
      },
      { type: 'member.added', subject: `member:${userId}`, data: { ...who, via: 'invitation' } },
    ]);
  });

  it('invitation to a workspace, declined through the notification', async () => {
    const invitee = await s.person();
    const sent = await eventsOf(201, 'POST', clientUsers(north, 'invitation/'), s.people.OWNER, {
      email: invitee.email,
      role: 'MANAGER',
    });
    const invitation = await invitationOf(invitee.id);
    expect(sent).toEqual([
      expect.objectContaining({
        type: 'invitation.sent',
        data: expect.objectContaining({ ...inWorkspace(north), role: 'MANAGER' }),
      }),
    ]);
    const [notification] = await t.ctx.db
      .select()
      .from(notifications)
      .where(eq(notifications.recipient_id, invitee.id));
    const declined = await eventsOf(
      200,
      'PUT',
      `/v1/user/notification/${notification!.id}/is-seen/decline/`,
      invitee,
    );
    expect(declined).toEqual([
      {
        type: 'invitation.declined',
        subject: `invitation:${invitation.id}`,
        data: {
          ...inWorkspace(north),
          invitation_id: invitation.id,
          user_id: invitee.id,
          role: 'MANAGER',
        },
      },
    ]);
  });

  it('role changes in the organization and in a workspace: member.role_changed', async () => {
    const member = await s.member('STAFF');
    const email = member.email;
    expect(
      await eventsOf(200, 'PUT', orgUsers(`${member.id}/role/`), s.people.ADMIN, {
        role: 'CLIENT',
      }),
    ).toEqual([
      {
        type: 'member.role_changed',
        subject: `member:${member.id}`,
        data: { ...ORG, user_id: member.id, email, from: 'STAFF', to: 'CLIENT' },
      },
    ]);
    await addClientMember(t.ctx.db, { clientId: north, userId: member.id, role: 'STAFF' });
    expect(
      await eventsOf(200, 'PUT', clientUsers(north, `${member.id}/roles/`), s.people.OWNER, {
        role: 'MANAGER',
      }),
    ).toEqual([
      {
        type: 'member.role_changed',
        subject: `member:${member.id}`,
        data: { ...inWorkspace(north), user_id: member.id, email, from: 'STAFF', to: 'MANAGER' },
      },
    ]);
  });

  it('workspace access granted: member.added for a new membership, role_changed for a changed one', async () => {
    const member = await s.member('STAFF');
    await addClientMember(t.ctx.db, { clientId: north, userId: member.id, role: 'STAFF' });
    const recorded = await eventsOf(
      200,
      'POST',
      orgUsers(`${member.id}/clients/grant_access/`),
      s.people.OWNER,
      {
        clients: [
          { client_id: north, role: 'MANAGER' },
          { client_id: south, role: 'STAFF' },
        ],
      },
    );
    const who = { user_id: member.id, email: member.email };
    expect(recorded).toEqual(
      expect.arrayContaining([
        {
          type: 'member.role_changed',
          subject: `member:${member.id}`,
          data: { ...inWorkspace(north), ...who, from: 'STAFF', to: 'MANAGER' },
        },
        {
          type: 'member.added',
          subject: `member:${member.id}`,
          data: { ...inWorkspace(south), ...who, role: 'STAFF', via: 'grant' },
        },
      ]),
    );
    expect(recorded).toHaveLength(2);
  });

  it('removals: member.removed; kept in their workspaces as external: member.role_changed', async () => {
    const a = await s.member('STAFF');
    await addClientMember(t.ctx.db, { clientId: north, userId: a.id, role: 'STAFF' });
    expect(await eventsOf(204, 'DELETE', clientUsers(north, `${a.id}/`), s.people.OWNER)).toEqual([
      {
        type: 'member.removed',
        subject: `member:${a.id}`,
        data: {
          ...inWorkspace(north),
          user_id: a.id,
          email: a.email,
          role: 'STAFF',
          status: 'MEMBER',
        },
      },
    ]);
    expect(await eventsOf(204, 'DELETE', orgUsers(`${a.id}/`), s.people.OWNER)).toEqual([
      {
        type: 'member.removed',
        subject: `member:${a.id}`,
        data: { ...ORG, user_id: a.id, email: a.email, role: 'STAFF', status: 'MEMBER' },
      },
    ]);

    const b = await s.member('STAFF');
    await addClientMember(t.ctx.db, { clientId: south, userId: b.id, role: 'STAFF' });
    expect(
      await eventsOf(204, 'DELETE', orgUsers(`${b.id}/?choice=keep_as_external`), s.people.OWNER),
    ).toEqual([
      {
        type: 'member.role_changed',
        subject: `member:${b.id}`,
        data: { ...ORG, user_id: b.id, email: b.email, from: 'STAFF', to: 'CLIENT' },
      },
    ]);
  });

  it('records nothing for a change refused', async () => {
    // The last OWNER, a member already there, an unknown workspace, an invitation over the role.
    expect(
      await eventsOf(409, 'PUT', orgUsers(`${s.people.OWNER.id}/role/`), s.people.OWNER, {
        role: 'STAFF',
      }),
    ).toEqual([]);
    const already = await eventsOf(409, 'POST', orgUsers('invitation/'), s.people.OWNER, {
      email: s.people.STAFF.email,
      role: 'STAFF',
    });
    expect(already).toEqual([]);
    const member = await s.member('STAFF');
    expect(
      await eventsOf(404, 'POST', orgUsers(`${member.id}/clients/grant_access/`), s.people.OWNER, {
        clients: [
          { client_id: north, role: 'STAFF' },
          { client_id: crypto.randomUUID(), role: 'STAFF' },
        ],
      }),
    ).toEqual([]);
    expect(
      await eventsOf(403, 'POST', orgUsers('invitation/'), s.people.ADMIN, {
        email: freshEmail(),
        role: 'OWNER',
      }),
    ).toEqual([]);
  });

  it('records nothing when the change fails after its event was written', async () => {
    // The role change notifies the member after recording its event: that insert fails here.
    const member = await s.member('STAFF');
    await t.ctx.db.execute(sql`
      create function events_test_refuse() returns trigger language plpgsql
        as $$ begin raise exception 'refused by the test'; end $$`);
    await t.ctx.db.execute(sql`
      create trigger events_test_refuse before insert on notifications
        for each row execute function events_test_refuse()`);
    try {
      const failed = await eventsOf(500, 'PUT', orgUsers(`${member.id}/role/`), s.people.OWNER, {
        role: 'CLIENT',
      });
      expect(failed).toEqual([]);
    } finally {
      await t.ctx.db.execute(sql`drop trigger events_test_refuse on notifications`);
      await t.ctx.db.execute(sql`drop function events_test_refuse()`);
    }
    const done = await eventsOf(200, 'PUT', orgUsers(`${member.id}/role/`), s.people.OWNER, {
      role: 'CLIENT',
    });
    expect(done.map((e) => e.type)).toEqual(['member.role_changed']);
  });
});
