// engine-parity: locking and concurrency; twenty or more requests at once
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import type { TestApp } from '../../../test/support/app.ts';
import { activities, sessions } from '../../db/schema/index.ts';
import {
  accept,
  freshEmail,
  startInvitationScene,
  invitationsOf,
  notificationsOf,
  orgMembership,
  tokenFromMail,
  userByEmail,
  type InvitationScene,
} from './test-scene.ts';

/**
 * Races, on both engines: the invitation's row lock makes one acceptance of many; the
 * organization's row lock (and the partial unique indexes) one invitation of many; the users'
 * unique index one account of many.
 */
describe('invitations under concurrency', () => {
  let t: TestApp;
  let s: InvitationScene;
  beforeAll(async () => ({ t, s } = await startInvitationScene()));
  afterAll(() => t.close());

  const addedMembers = async (userId: string) =>
    (
      await t.ctx.db
        .select()
        .from(activities)
        .where(and(eq(activities.action, 'ADD_MEMBER'), eq(activities.organization_id, s.orgId)))
    ).filter((a) => a.data.user_id === userId);

  const statuses = (answers: { statusCode: number }[]) => {
    const tally: Record<number, number> = {};
    for (const a of answers) tally[a.statusCode] = (tally[a.statusCode] ?? 0) + 1;
    return tally;
  };

  it('makes one membership of fifty parallel acceptances of one token', async () => {
    const invitee = await s.person({ first_name: 'Parallel' });
    const invited = await s.send('POST', s.orgUrl('invitation/'), s.people.OWNER, {
      email: invitee.email,
      role: 'ADMIN',
    });
    expect(invited.statusCode).toBe(201);
    const token = await tokenFromMail(t, invitee.email);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        accept(
          t,
          'organization',
          { token },
          { from: `10.90.0.${i + 1}`, ...(i % 2 === 0 && { token: invitee.token }) },
        ),
      ),
    );
    expect(statuses(answers)).toEqual({ 200: 1, 409: 49 });
    for (const res of answers.filter((r) => r.statusCode === 409)) {
      expect(res.json().code).toBe(ErrorCode.INVITATION_ALREADY_ACCEPTED);
    }
    expect(await orgMembership(t, s.orgId, invitee.id)).toMatchObject({
      role: 'ADMIN',
      status: 'MEMBER',
    });
    expect(await addedMembers(invitee.id)).toHaveLength(1);
    expect((await invitationsOf(t, invitee.id)).map((i) => i.status)).toEqual(['ACCEPTED']);
  });

  it('sets one first password and opens one session of twenty parallel acceptances', async () => {
    const email = freshEmail('racer');
    await s.send('POST', s.clientUrl('invitation/'), s.people.ADMIN, { email });
    const token = await tokenFromMail(t, email);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        accept(
          t,
          'client',
          { token, password: `Parallel passphrase ${i}` },
          { from: `10.91.0.${i + 1}` },
        ),
      ),
    );
    expect(statuses(answers)).toEqual({ 200: 1, 409: 19 });
    const user = (await userByEmail(t, email))!;
    expect(user.password_hash).not.toBeNull();
    expect(
      await t.ctx.db.select().from(sessions).where(eq(sessions.user_id, user.id)),
    ).toHaveLength(1);
    expect(await addedMembers(user.id)).toHaveLength(1);
    expect(await orgMembership(t, s.orgId, user.id)).toMatchObject({
      role: 'CLIENT',
      status: 'MEMBER',
    });
  });

  it('makes one invitation of twenty parallel invitations of one e-mail, the rest 409', async () => {
    const email = freshEmail('crowd');
    const inviters = [s.people.OWNER, s.people.ADMIN];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        s.send('POST', s.orgUrl('invitation/'), inviters[i % 2]!, {
          email: i % 3 === 0 ? email.toUpperCase() : email,
        }),
      ),
    );
    expect(statuses(answers)).toEqual({ 201: 1, 409: 19 });
    for (const res of answers.filter((r) => r.statusCode === 409)) {
      expect(res.json().code).toBe(ErrorCode.INVITATION_PENDING);
    }
    const user = (await userByEmail(t, email))!;
    expect(await invitationsOf(t, user.id)).toHaveLength(1);
    expect(await notificationsOf(t, user.id)).toHaveLength(1);
    await t.ctx.outbox.drain();
    expect(t.mailbox.to(email)).toHaveLength(1);
  });

  it('makes one account of parallel invitations of a new e-mail to two organizations', async () => {
    const email = freshEmail('shared');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? s.send('POST', s.orgUrl('invitation/'), s.people.OWNER, { email })
          : s.send(
              'POST',
              `/v1/organizations/${s.otherOrgId}/users/invitation/`,
              s.people.STRANGER,
              {
                email,
              },
            ),
      ),
    );
    expect(statuses(answers)).toEqual({ 201: 2, 409: 18 });
    const created = answers.filter((r) => r.statusCode === 201).map((r) => r.json().user.id);
    expect(new Set(created).size).toBe(1);
    expect(await invitationsOf(t, created[0])).toHaveLength(2);
  });

  it('makes one membership of twenty parallel force-invitations', async () => {
    const email = freshEmail('forced');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        s.send('POST', s.orgUrl('force-invitation/'), s.people.OWNER, {
          email,
          password: 'Forced passphrase 77',
        }),
      ),
    );
    expect(statuses(answers)).toEqual({ 201: 1, 409: 19 });
    for (const res of answers.filter((r) => r.statusCode === 409)) {
      expect(res.json().code).toBe(ErrorCode.ALREADY_MEMBER);
    }
    const user = (await userByEmail(t, email))!;
    expect(await addedMembers(user.id)).toHaveLength(1);
  });
});
