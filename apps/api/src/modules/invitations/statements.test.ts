import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { observeStatements, type StatementLog } from '../../../test/support/statements.ts';
import { addClientMember, createClient, createUser } from '../../seed/factories.ts';
import {
  accept,
  freshEmail,
  invitationScene,
  tokenFromMail,
  type InvitationScene,
} from './test-scene.ts';

/**
 * Invitation requests send a fixed number of statements whatever the numbers around them: the
 * suggestions whatever the candidates and the limit, an OWNER's or ADMIN's acceptance whatever
 * the number of workspaces they are given.
 */
describe('statements per invitation request', () => {
  let t: TestApp;
  let s: InvitationScene;
  let log: StatementLog;

  beforeAll(async () => {
    t = await createTestApp();
    s = await invitationScene(t);
    log = observeStatements(t.ctx.database);
  });
  afterAll(async () => {
    log.restore();
    await t.close();
  });

  const counted = async <T>(work: () => Promise<T>) => {
    log.reset();
    const result = await work();
    return { result, statements: log.statements.length };
  };

  it('suggests in the same number of statements at any limit and any number of candidates', async () => {
    const url = (limit: number) =>
      `/v1/clients/${s.north.id}/users/invitation/suggestion?limit=${limit}`;
    const other = await createClient(t.ctx.db, {
      organizationId: s.orgId,
      ownerId: s.people.OWNER.id,
    });
    const addCandidates = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const user = await createUser(t.ctx.db);
        await addClientMember(t.ctx.db, { clientId: other.id, userId: user.id, role: 'STAFF' });
      }
    };
    await addCandidates(2);
    // Once uncounted: the session cache holds the session (a write earlier in the file may have
    // made it let go), so both counts are the request's own work.
    await s.send('GET', url(1), s.people.OWNER);
    const few = await counted(() => s.send('GET', url(1), s.people.OWNER));
    await addCandidates(30);
    const many = await counted(() => s.send('GET', url(50), s.people.OWNER));
    expect(many.result.json()).toHaveLength(32);
    expect(many.statements).toBe(few.statements);
    expect(few.statements).toBeLessThanOrEqual(3);
  });

  it('accepts an ADMIN invitation in the same number of statements however many workspaces', async () => {
    const acceptAdmin = async () => {
      const email = freshEmail('admin-to-be');
      await s.send('POST', s.orgUrl('invitation/'), s.people.OWNER, { email, role: 'ADMIN' });
      const token = await tokenFromMail(t, email);
      return counted(() => accept(t, 'organization', { token, password: 'Counted steps 9021' }));
    };
    const before = await acceptAdmin();
    expect(before.result.statusCode).toBe(200);
    for (let i = 0; i < 15; i++) {
      await createClient(t.ctx.db, { organizationId: s.orgId, ownerId: s.people.OWNER.id });
    }
    const after = await acceptAdmin();
    expect(after.result.statusCode).toBe(200);
    expect(after.statements).toBe(before.statements);
  });

  it('invites in the same number of statements to an organization with more members', async () => {
    const invite = () =>
      counted(() =>
        s.send('POST', s.orgUrl('invitation/'), s.people.OWNER, { email: freshEmail() }),
      );
    const before = await invite();
    for (let i = 0; i < 10; i++) await s.member('STAFF');
    const after = await invite();
    expect(after.result.statusCode).toBe(201);
    expect(after.statements).toBe(before.statements);
  });
});
