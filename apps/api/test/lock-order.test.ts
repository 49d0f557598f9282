// engine-parity: locking and concurrency; twenty or more requests at once
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { addClientMember, createClient } from '../src/seed/factories.ts';
import { createTestApp, uniqueEmail, type TestApp } from './support/app.ts';
import { createTestDatabase } from './support/database.ts';
import { createTenantScene, type Person, type TenantScene } from './support/tenants.ts';

/**
 * Every tenant write takes its row locks in one order (ARCHITECTURE.md "Lock order"): the
 * organization's row, then the workspace's, then the rest. Fifty different writes at once on one
 * workspace (access rules, custom roles, invitations, role changes, workspace and module
 * changes) then wait for each other instead of deadlocking. On PostgreSQL a deadlock aborts one
 * of the transactions ("deadlock detected", answered 500); on PGlite the writes run one after
 * another anyway.
 */
describe('the lock order of tenant writes', () => {
  let t: TestApp;
  let s: TenantScene;
  const log: string[] = [];
  let workspaceId: string;
  let members: Person[];
  let database: Database;

  beforeAll(async () => {
    // Fifty writes of one organization run one after another through the pool's 5 connections:
    // on a busy machine the last may wait for one longer than the server's 2 s (a 503 that is
    // about capacity, not locks), so this test's pool waits up to 20 s.
    t = await createTestApp(
      { LOG_LEVEL: 'warn' },
      {
        logStream: { write: (l) => log.push(l) },
        database: (database = await createTestDatabase({ connectTimeoutMs: 20_000 })),
      },
    );
    s = await createTenantScene(t);
    const workspace = await createClient(t.ctx.db, {
      organizationId: s.orgId,
      ownerId: s.people.OWNER.id,
    });
    workspaceId = workspace.id;
    await addClientMember(t.ctx.db, {
      clientId: workspaceId,
      userId: s.people.ADMIN.id,
      role: 'ADMIN',
    });
    members = [];
    for (let i = 0; i < 5; i++) {
      const p = await s.member('STAFF');
      await addClientMember(t.ctx.db, { clientId: workspaceId, userId: p.id, role: 'STAFF' });
      members.push(p);
    }
  });
  afterAll(async () => {
    await t.close();
    await database.close();
  });

  it('answers fifty mixed writes on one workspace at once without a 5xx or a deadlock', async () => {
    const ws = (path: string) => `/v1/clients/${workspaceId}/${path}`;
    const actors = [s.people.OWNER, s.people.ADMIN];
    const writes = (i: number) => {
      const who = actors[i % 2]!;
      switch (i % 5) {
        case 0:
          return s.send('POST', ws('access-rules/'), who, {
            name: `Rule ${i}`,
            permissions: [{ permission: 'tr.history.view', status: 'ALLOW' }],
          });
        case 1:
          return s.send('POST', ws('users/invitation/'), who, {
            email: uniqueEmail('invitee'),
            role: 'STAFF',
          });
        case 2:
          return s.send('PUT', ws(`users/${members[i % members.length]!.id}/roles/`), who, {
            role: i % 4 === 2 ? 'MANAGER' : 'CLIENT',
          });
        case 3:
          return i % 2
            ? s.send('PATCH', ws(''), who, { dashboard_button_color: `#0000${10 + i}` })
            : s.send('POST', ws('custom-roles/'), who, { name: `Role ${i}`, rules: [] });
        default:
          return s.send('PATCH', ws('modules/TR/'), who, { enabled: i % 2 === 0 });
      }
    };
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => writes(i)));
    const failed = answers
      .map((r, i) => ({ i, status: r.statusCode, body: r.body }))
      .filter((a) => a.status >= 300);
    expect(failed).toEqual([]);
    expect(log.filter((l) => /deadlock/i.test(l))).toEqual([]);
  });
});
