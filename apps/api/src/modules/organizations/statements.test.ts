import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { observeStatements, type StatementLog } from '../../../test/support/statements.ts';
import {
  addClientMember,
  addOrganizationMember,
  createClient,
  createOrganization,
  createUser,
} from '../../seed/factories.ts';
import { holdSession, person, type Person } from './test-scene.ts';

/**
 * The caller's lists cost a fixed number of SQL statements whatever their size: counted at the
 * driver for a caller in one organization and for one in thirty (with their workspaces).
 * The session check costs none: the session cache holds the session (each person made one
 * signed-in request first, as after any user's first request).
 */
describe('statements per request', () => {
  let t: TestApp;
  let log: StatementLog;
  let small: Person;
  let large: Person;
  let smallOrg: string;
  let largeClient: string;

  /** An organization where `who` holds `role`, with `n` workspaces they belong to. */
  const tenant = async (who: Person, role: 'OWNER' | 'STAFF', n: number) => {
    const owner = role === 'OWNER' ? who : await createUser(t.ctx.db);
    const org = await createOrganization(t.ctx.db, { ownerId: owner.id });
    if (role !== 'OWNER') {
      await addOrganizationMember(t.ctx.db, { organizationId: org.id, userId: who.id, role });
    }
    let last = '';
    for (let i = 0; i < n; i++) {
      const client = await createClient(t.ctx.db, { organizationId: org.id, ownerId: owner.id });
      if (role !== 'OWNER') {
        await addClientMember(t.ctx.db, { clientId: client.id, userId: who.id, role: 'STAFF' });
      }
      last = client.id;
    }
    return { orgId: org.id, clientId: last };
  };

  beforeAll(async () => {
    t = await createTestApp();
    small = await person(t);
    large = await person(t);
    smallOrg = (await tenant(small, 'OWNER', 2)).orgId;
    for (let i = 0; i < 30; i++) {
      // Half owned (every workspace seen through the organization role), half as STAFF.
      const made = await tenant(large, i % 2 ? 'OWNER' : 'STAFF', 3);
      largeClient = made.clientId;
    }
    // Held again now: on PostgreSQL the notification of a sign-in's own write (last_login_at)
    // may arrive after the session was first held and let go of it.
    await holdSession(t, small.token);
    await holdSession(t, large.token);
    log = observeStatements(t.ctx.database);
  });
  afterAll(async () => {
    log.restore();
    await t.close();
  });

  const count = async (who: Person, url: string) => {
    log.reset();
    const res = await t.app.inject({ method: 'GET', url, headers: who.headers });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    return { statements: log.statements.length, body: res.json() };
  };

  it('GET /v1/me/organizations/and/clients/: 4 statements for 1 organization and for 30, none again', async () => {
    const one = await count(small, '/v1/me/organizations/and/clients/');
    const thirty = await count(large, '/v1/me/organizations/and/clients/');
    expect(one.body.results).toHaveLength(1);
    expect(one.body.results[0].clients).toHaveLength(2);
    expect(thirty.body.results).toHaveLength(30);
    expect(thirty.body.results.every((e: { clients: unknown[] }) => e.clients.length === 3)).toBe(
      true,
    );
    expect([one.statements, thirty.statements]).toEqual([4, 4]);
    // What was counted: the count, the page, the workspaces, their modules (the session is held
    // by the session cache).
    expect(log.statements.at(-1)).toMatch(/from "client_modules"/);
    expect(log.statements.join('\n')).toMatch(/count\(\*\)[\s\S]*order by[\s\S]*"clients"/);
    // A small page of a large list costs the same.
    expect((await count(large, '/v1/me/organizations/and/clients/?limit=5')).statements).toBe(4);
    // The same page again comes from the list cache until something in it changes.
    expect((await count(large, '/v1/me/organizations/and/clients/?limit=5')).statements).toBe(0);
  });

  it('GET /v1/user/clients/ and all-settings-data/: 3 statements whatever the count', async () => {
    for (const url of ['/v1/user/clients/', '/v1/user/clients/all-settings-data/']) {
      const one = await count(small, url);
      const ninety = await count(large, url);
      expect([one.body.count, ninety.body.count]).toEqual([2, 90]);
      expect([one.statements, ninety.statements], url).toEqual([3, 3]);
    }
  });

  it('GET /v1/organizations/: 2 statements; one organization or settings: 1 and 2', async () => {
    expect((await count(small, '/v1/organizations/')).statements).toBe(2);
    expect((await count(large, '/v1/organizations/')).statements).toBe(2);
    expect((await count(small, `/v1/organizations/${smallOrg}/`)).statements).toBe(1);
    const settings = `/v1/clients/${largeClient}/users/${large.id}/settings/`;
    expect((await count(large, settings)).statements).toBe(2);
  });
});
