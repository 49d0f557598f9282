import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { observeStatements, type StatementLog } from '../../../test/support/statements.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';
import { addOrganizationMember, createClient, createUser } from '../../seed/factories.ts';

/**
 * The workspace routes send a fixed number of statements whatever the page size, the number of
 * workspaces or the number of the organization's OWNERs and ADMINs.
 */
describe('statements per workspace request', () => {
  let t: TestApp;
  let s: TenantScene;
  let log: StatementLog;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    for (let i = 0; i < 30; i++) {
      await createClient(t.ctx.db, { organizationId: s.orgId, ownerId: s.people.OWNER.id });
    }
    log = observeStatements(t.ctx.database);
  });
  afterAll(async () => {
    log.restore();
    await t.close();
  });

  const count = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    log.reset();
    const res = await s.send(method, url, s.people.ADMIN, payload);
    expect(res.statusCode).toBeLessThan(300);
    return log.statements.length;
  };

  it('lists a page of workspaces in the same number of statements at any limit', async () => {
    const base = `/v1/organizations/${s.orgId}/clients/`;
    await count('GET', `${base}?limit=2`); // the session held, as after any first request
    const small = await count('GET', `${base}?limit=2`);
    const large = await count('GET', `${base}?limit=250`);
    expect(large).toBe(small);
    expect(small).toBeLessThanOrEqual(3);
  });

  it('creates a workspace in the same number of statements however many admins get access', async () => {
    const base = `/v1/organizations/${s.orgId}/clients/`;
    const before = await count('POST', base, { name: 'Counted one' });
    for (let i = 0; i < 10; i++) {
      const admin = await createUser(t.ctx.db);
      await addOrganizationMember(t.ctx.db, {
        organizationId: s.orgId,
        userId: admin.id,
        role: 'ADMIN',
      });
    }
    expect(await count('POST', base, { name: 'Counted two' })).toBe(before);
  });

  it('reads the activity log in the same number of statements at any limit', async () => {
    const base = `/v1/organizations/${s.orgId}/activities/`;
    expect(await count('GET', `${base}?limit=1`)).toBe(await count('GET', `${base}?limit=500`));
  });
});
