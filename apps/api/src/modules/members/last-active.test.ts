import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { observeStatements } from '../../../test/support/statements.ts';
import { createTenantScene, type Person, type TenantScene } from '../../../test/support/tenants.ts';
import { userActivity } from '../../db/schema/index.ts';
import { LastActive } from '../users/index.ts';

/**
 * Issue 18 item 11: "Last active" in the members lists is when the member last made a signed-in
 * request, written at most once per member per 5 minutes and never on the request's path.
 */
describe('last active', () => {
  let t: TestApp;
  let s: TenantScene;
  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
  });
  afterAll(() => t.close());

  const lastActiveOf = async (member: Person) => {
    const list = await s.send('GET', `/v1/organizations/${s.orgId}/users/`, s.people.OWNER);
    expect(list.statusCode).toBe(200);
    const row = (
      list.json().results as { user: { id: string }; last_active_at: string | null }[]
    ).find((r) => r.user.id === member.id);
    const one = await s.send(
      'GET',
      `/v1/organizations/${s.orgId}/users/${member.id}/`,
      s.people.OWNER,
    );
    expect(one.json().last_active_at).toBe(row!.last_active_at);
    return row!.last_active_at;
  };
  const sessionOf = (who: Person) => String(decodeJwt(who.token).sid);
  const request = async (who: Person) => {
    const res = await s.send('GET', '/v1/rest-auth/user/', who);
    expect(res.statusCode).toBe(200);
    await t.ctx.lastActive.settled();
  };

  it('shows when a member made a request; a second one within 5 minutes writes nothing', async () => {
    const member = await s.member('STAFF'); // signed in and seen once, as any new member
    t.clock.advance(10 * 60_000);
    const first = t.clock.now().toISOString();
    await request(member);
    expect(await lastActiveOf(member)).toBe(first);

    t.clock.advance(4 * 60_000);
    const log = observeStatements(t.ctx.database);
    try {
      await request(member);
      expect(log.statements.filter((q) => q.includes('user_activity'))).toEqual([]);
    } finally {
      log.restore();
    }
    expect(await lastActiveOf(member)).toBe(first);

    // Another process (its own memory) writes, but the row keeps its time within the 5 minutes.
    const other = new LastActive(t.ctx.db, t.clock, t.app.log);
    other.seen({ userId: member.id, sessionId: sessionOf(member) });
    await other.settled();
    const [row] = await t.ctx.db
      .select()
      .from(userActivity)
      .where(eq(userActivity.user_id, member.id));
    expect(row!.last_active_at.toISOString()).toBe(first);

    t.clock.advance(60_001);
    const later = t.clock.now().toISOString();
    await request(member);
    expect(await lastActiveOf(member)).toBe(later);
  });
});
