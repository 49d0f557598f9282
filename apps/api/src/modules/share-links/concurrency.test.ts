// engine-parity: locking and concurrency
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, SHARE_LINK_MAX_LIVE } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';
import { activities, shareLinks } from '../../db/schema/index.ts';
import { hours } from '../../lib/clock.ts';
import { addClientMember, createClient } from '../../seed/factories.ts';

/**
 * The bound of SHARE_LINK_MAX_LIVE live links per workspace holds when creations race: the count
 * is taken under the workspace's row lock. Runs on both engines.
 */
describe('the bound of live share links per workspace', () => {
  let t: TestApp;
  let s: TenantScene;
  let clientId: string;
  const base = () => `/v1/clients/${clientId}/share-links/`;
  const live = async () =>
    (
      await t.ctx.db
        .select()
        .from(shareLinks)
        .where(and(eq(shareLinks.client_id, clientId), isNull(shareLinks.revoked_at)))
    ).length;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    const client = await createClient(t.ctx.db, {
      organizationId: s.orgId,
      ownerId: s.people.OWNER.id,
    });
    clientId = client.id;
    await addClientMember(t.ctx.db, { clientId, userId: s.people.STAFF.id, role: 'STAFF' });
  });
  afterAll(() => t.close());

  it(`makes exactly ${SHARE_LINK_MAX_LIVE} of ${SHARE_LINK_MAX_LIVE + 15} parallel creations, the rest 409, no 5xx`, async () => {
    const people = [s.people.OWNER, s.people.ADMIN, s.people.STAFF];
    const answers = await Promise.all(
      Array.from({ length: SHARE_LINK_MAX_LIVE + 15 }, (_, i) =>
        s.send('POST', base(), people[i % people.length]!, { module: 'TR' }),
      ),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((c) => c === 201)).toHaveLength(SHARE_LINK_MAX_LIVE);
    expect(statuses.filter((c) => c === 409)).toHaveLength(15);
    for (const res of answers.filter((r) => r.statusCode === 409)) {
      expect(res.json()).toMatchObject({
        code: ErrorCode.SHARE_LINK_LIMIT,
        details: { limit: SHARE_LINK_MAX_LIVE },
      });
    }
    expect(await live()).toBe(SHARE_LINK_MAX_LIVE);
    // Only the winners left an activity behind.
    const recorded = await t.ctx.db
      .select()
      .from(activities)
      .where(
        and(eq(activities.organization_id, s.orgId), eq(activities.action, 'CREATE_SHARE_LINK')),
      );
    expect(recorded).toHaveLength(SHARE_LINK_MAX_LIVE);
  });

  it('frees a place with each revocation, once, even in parallel', async () => {
    const page = await s.send('GET', `${base()}?limit=2`, s.people.OWNER);
    const [first] = page.json().results as { id: string }[];
    expect((await s.send('DELETE', `${base()}${first!.id}/`, s.people.OWNER)).statusCode).toBe(204);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => s.send('POST', base(), s.people.STAFF, { module: 'TR' })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await live()).toBe(SHARE_LINK_MAX_LIVE);
  });

  it('does not count expired links', async () => {
    // A workspace of its own, filled with links that expire in an hour.
    const ws = await createClient(t.ctx.db, {
      organizationId: s.orgId,
      ownerId: s.people.OWNER.id,
    });
    const url = `/v1/clients/${ws.id}/share-links/`;
    // Sessions last 12 hours: the clock moves by less.
    const expires_at = new Date(t.clock.now().getTime() + hours(1)).toISOString();
    for (let i = 0; i < SHARE_LINK_MAX_LIVE; i += 1) {
      const res = await s.send('POST', url, s.people.OWNER, { module: 'TR', expires_at });
      expect(res.statusCode).toBe(201);
    }
    const full = await s.send('POST', url, s.people.OWNER, { module: 'TR' });
    expect(full.statusCode).toBe(409);
    t.clock.advance(hours(1));
    const again = await s.send('POST', url, s.people.OWNER, { module: 'TR' });
    expect(again.statusCode, again.body).toBe(201);
  });
});
