import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { observeStatements, type StatementLog } from '../../../test/support/statements.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';
import {
  addClientMember,
  addOrganizationMember,
  createClient,
  createUser,
} from '../../seed/factories.ts';

/**
 * The member routes send a fixed number of statements whatever the page size, the number of
 * members, or the number of workspaces a request concerns (counted at the driver).
 */
describe('statements per member request', () => {
  let t: TestApp;
  let s: TenantScene;
  let log: StatementLog;
  let workspaces: string[];

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    const db = t.ctx.db;
    workspaces = [];
    for (let i = 0; i < 20; i++) {
      workspaces.push(
        (await createClient(db, { organizationId: s.orgId, ownerId: s.people.OWNER.id })).id,
      );
    }
    // 30 more members, each in three workspaces.
    for (let i = 0; i < 30; i++) {
      const user = await createUser(db, { password: null });
      await addOrganizationMember(db, { organizationId: s.orgId, userId: user.id, role: 'STAFF' });
      for (const clientId of workspaces.slice(i % 10, (i % 10) + 3)) {
        await addClientMember(db, { clientId, userId: user.id, role: 'STAFF' });
      }
    }
    log = observeStatements(t.ctx.database);
  });
  afterAll(async () => {
    log.restore();
    await t.close();
  });

  const count = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) => {
    log.reset();
    const res = await s.send(method, url, s.people.OWNER, payload);
    expect(res.statusCode).toBeLessThan(300);
    return log.statements.length;
  };

  it('lists an organization’s members in the same few statements at any limit', async () => {
    const base = `/v1/organizations/${s.orgId}/users/`;
    await count('GET', `${base}?limit=1`); // the session held, as after any first request
    const small = await count('GET', `${base}?limit=1`);
    expect(await count('GET', `${base}?limit=500&roles=OWNER,ADMIN,STAFF`)).toBe(small);
    // Session, access, the page with its count.
    expect(small).toBeLessThanOrEqual(3);
  });

  it('lists a workspace’s members in the same few statements at any limit', async () => {
    const base = `/v1/clients/${workspaces[3]}/users/`;
    await count('GET', `${base}?limit=1`); // the session held, as after any first request
    const small = await count('GET', `${base}?limit=1`);
    expect(await count('GET', `${base}?limit=500`)).toBe(small);
    expect(small).toBeLessThanOrEqual(3);
  });

  it('reads a member’s workspace access, and grants it, whatever the number of workspaces', async () => {
    const grant = async (n: number) => {
      const member = await s.member('CLIENT');
      const url = `/v1/organizations/${s.orgId}/users/${member.id}/clients/grant_access/`;
      return count('POST', url, {
        clients: workspaces.slice(0, n).map((id) => ({ client_id: id, role: 'CLIENT' })),
      });
    };
    expect(await grant(20)).toBe(await grant(1));
    const read = `/v1/organizations/${s.orgId}/users/${s.people.STAFF.id}/client/`;
    expect(await count('GET', read)).toBeLessThanOrEqual(4);
  });

  it('removes a member from the organization whatever the number of their workspaces', async () => {
    const remove = async (n: number) => {
      const member = await s.member('STAFF');
      for (const clientId of workspaces.slice(0, n)) {
        await addClientMember(t.ctx.db, { clientId, userId: member.id, role: 'STAFF' });
      }
      return count(
        'DELETE',
        `/v1/organizations/${s.orgId}/users/${member.id}/?choice=remove_everywhere`,
      );
    };
    expect(await remove(20)).toBe(await remove(1));
  });
});
