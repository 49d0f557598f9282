import { describe, expect, it } from 'vitest';
import { bearer, createTestApp, signIn } from '../../test/support/app.ts';
import {
  countRows,
  PER_ORGANIZATION,
  SCALE_ORGANIZATION,
  SCALE_USER,
  SCALE_WORKSPACE,
  seedScale,
} from './bench-scale.ts';

const DEPTH = 6;

/**
 * `npm run bench:scale` compares the same lists on a big and a small database: that holds only
 * if the measured user sees the same thing in both while everything else grows. Two scales, small.
 */
describe('bench:scale seed', () => {
  async function seededAt(organizations: number) {
    const t = await createTestApp();
    try {
      await seedScale(t.ctx.db, { organizations, depth: DEPTH });
      const count = (table: string) => countRows(t.ctx.db, table);
      const tables = {
        users: await count('users'),
        organizations: await count('organizations'),
        activities: await count('activities'),
        notifications: await count('notifications'),
      };
      const headers = bearer(await signIn(t, SCALE_USER.email, SCALE_USER.password));
      const get = async (url: string) => {
        const res = await t.app.inject({ url, headers });
        expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
        return res.json();
      };
      const orgs = await get('/v1/organizations/?limit=100');
      const hq = orgs.results.find((o: { name: string }) => o.name === SCALE_ORGANIZATION);
      const workspaces = await get(`/v1/organizations/${hq.id}/clients/?limit=100`);
      const w0 = workspaces.results.find((w: { name: string }) => w.name === SCALE_WORKSPACE);
      const counts: Record<string, number> = {};
      for (const url of [
        '/v1/organizations/',
        '/v1/user/clients/',
        '/v1/user/notification/',
        '/v1/data-exports/',
        `/v1/organizations/${hq.id}/clients/`,
        `/v1/organizations/${hq.id}/activities/`,
        `/v1/organizations/${hq.id}/users/`,
        `/v1/organizations/${hq.id}/access-rules/`,
        `/v1/organizations/${hq.id}/custom-roles/`,
        `/v1/organizations/${hq.id}/invoices/`,
        `/v1/organizations/${hq.id}/balance/history/`,
        `/v1/organizations/${hq.id}/data-exports/`,
        `/v1/clients/${w0.id}/users/`,
        `/v1/clients/${w0.id}/access-rules/`,
        `/v1/clients/${w0.id}/share-links/`,
      ]) {
        counts[url.replace(hq.id, 'HQ').replace(w0.id, 'W0')] = (await get(url)).count;
      }
      const roles = orgs.results.map((o: { role: { key: string } }) => o.role.key).sort();
      const balance = (await get(`/v1/organizations/${hq.id}/balance/`)).available_balance;
      return { tables, counts, roles, balance };
    } finally {
      await t.close();
    }
  }

  it('shows the measured user the same lists at any scale while the tables grow', async () => {
    const small = await seededAt(16);
    const big = await seededAt(32);

    expect(big.counts).toEqual(small.counts);
    expect(small.counts).toMatchObject({
      '/v1/organizations/': DEPTH,
      '/v1/user/notification/': 2 * DEPTH,
      '/v1/organizations/HQ/activities/': PER_ORGANIZATION.activities,
      // Its own ten, the measured user, DEPTH more STAFF, two invited (PENDING).
      '/v1/organizations/HQ/users/':
        PER_ORGANIZATION.users + 1 + DEPTH + PER_ORGANIZATION.invitations,
      '/v1/organizations/HQ/invoices/': PER_ORGANIZATION.invoices,
      '/v1/organizations/HQ/balance/history/': PER_ORGANIZATION.ledgerEntries,
      // The organization's rules and the workspace's own.
      '/v1/clients/W0/access-rules/': 2 * DEPTH,
    });
    expect(small.roles).toEqual(['ADMIN', 'ADMIN', 'CLIENT', 'OWNER', 'OWNER', 'STAFF']);
    // The balance is the last ledger entry's: 4 top-ups of 50.00, 16 charges of 2.00.
    expect(small.balance).toBe(4 * 5000 - 16 * 200);

    expect(small.tables).toEqual({
      users: 16 * PER_ORGANIZATION.users + 1,
      organizations: 16,
      activities: 16 * PER_ORGANIZATION.activities,
      notifications: 16 * (PER_ORGANIZATION.users * 5 + PER_ORGANIZATION.invitations) + 2 * DEPTH,
    });
    expect(big.tables.activities).toBe(2 * small.tables.activities);
  });
});
