import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { observeStatements, type StatementLog } from '../../../test/support/statements.ts';
import { createTenantScene, type Person, type TenantScene } from '../../../test/support/tenants.ts';
import { createClient, createUser } from '../../seed/factories.ts';
import { createNotification } from './create.ts';

/**
 * The bell's routes send a fixed number of statements whatever the page size and however many
 * authors, organizations and workspaces the notifications name (counted at the driver).
 */
describe('statements per notification request', () => {
  let t: TestApp;
  let s: TenantScene;
  let me: Person;
  let firstId: string;
  let log: StatementLog;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    me = await s.person();
    for (let i = 0; i < 40; i++) {
      // Every one by another author, about another workspace.
      const author = await createUser(t.ctx.db);
      const client = await createClient(t.ctx.db, { organizationId: s.orgId, ownerId: author.id });
      const id = await createNotification(t.ctx.db, {
        type: 'INVITATION',
        recipientId: me.id,
        authorId: author.id,
        organizationId: s.orgId,
        clientId: client.id,
      });
      firstId ??= id;
    }
    log = observeStatements(t.ctx.database);
  });
  afterAll(async () => {
    log.restore();
    await t.close();
  });

  const count = async (method: 'GET' | 'PUT', url: string) => {
    log.reset();
    const res = await s.send(method, url, me);
    expect(res.statusCode).toBe(200);
    return log.statements.length;
  };

  it('lists a page in the same number of statements at any limit', async () => {
    const one = await count('GET', '/v1/user/notification/?limit=1');
    const forty = await count('GET', '/v1/user/notification/?limit=100');
    expect(forty).toBe(one);
    // The page with its total (the session cache holds the session).
    expect(one).toBe(1);
    // A page past the end counts apart: one statement more, whatever the limit.
    expect(await count('GET', '/v1/user/notification/?page=50&limit=100')).toBe(2);
  });

  it('counts unseen ones in one statement, then from the cache until one changes', async () => {
    const first = await count('GET', '/v1/user/notification/new/');
    expect(first).toBeLessThanOrEqual(1);
    expect(await count('GET', '/v1/user/notification/new/')).toBe(0);
  });

  it('marks one seen in a fixed number of statements, first time or again', async () => {
    const url = `/v1/user/notification/${firstId}/is-seen/`;
    const first = await count('PUT', url);
    const again = await count('PUT', url);
    // The session, then (begin,) update, notify, select (, commit): the engines count begin and
    // commit differently. Again: nothing changes, so nothing is announced.
    expect(first).toBeLessThanOrEqual(6);
    expect(again).toBe(first - 1);
  });
});
