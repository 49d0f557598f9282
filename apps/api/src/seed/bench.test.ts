import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, signIn, type TestApp } from '../../test/support/app.ts';
import { BENCH_TENANT, seedBenchSignIns, seedBenchTenants } from './bench.ts';

/** The data `npm run bench` times, small: the user sees what the bench expects. */
describe('bench seed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('puts one user in every organization, seeing the workspaces their role allows', async () => {
    const who = await seedBenchTenants(t.ctx.db, {
      organizations: 8,
      workspaces: 4,
      appProfile: 'transit',
    });
    expect(who).toEqual(BENCH_TENANT);
    const headers = bearer(await signIn(t, who.email, who.password));
    const res = await t.app.inject({ url: '/v1/me/organizations/and/clients/', headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(8);
    // OWNER and ADMIN see all 4 (one pending); STAFF and CLIENT the 2 active ones they are in.
    const seen = body.results.map(
      (e: { organization: { role: { key: string } }; clients: unknown[] }) =>
        `${e.organization.role.key}:${e.clients.length}`,
    );
    expect(seen.sort()).toEqual(
      [
        'ADMIN:4',
        'ADMIN:4',
        'CLIENT:2',
        'CLIENT:2',
        'OWNER:4',
        'OWNER:4',
        'STAFF:2',
        'STAFF:2',
      ].sort(),
    );
  });

  it('gives the tenant a bell with unseen notifications to count', async () => {
    const headers = bearer(await signIn(t, BENCH_TENANT.email, BENCH_TENANT.password));
    const res = await t.app.inject({ url: '/v1/user/notification/new/', headers });
    expect(res.statusCode).toBe(200);
    // 40 rows: every third seen, every tenth another user's, one deleted.
    expect(res.json()).toEqual({ count: 23 });
  });

  it('makes sign-in accounts that all sign in with the one password', async () => {
    const accounts = await seedBenchSignIns(t.ctx.db, 3);
    expect(accounts.emails).toHaveLength(3);
    for (const email of accounts.emails) {
      expect(await signIn(t, email, accounts.password)).toMatch(/^ey/);
    }
  });
});
