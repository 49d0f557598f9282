// engine-parity: locking and concurrency; COPY and exports; twenty or more requests at once
import { ErrorCode } from '@portolan/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';
import { dataExports } from '../../db/schema/index.ts';
import { exportDepsFor, runDataExports } from './job.ts';
import { runJob } from './test-support.ts';

/**
 * One export in progress per requester and kind (and organization), even under 50 concurrent
 * requests (the user's or the organization's row is locked first); and two job runs at once never
 * build the same export. Runs on both engines.
 */
describe('data exports under concurrency', () => {
  let t: TestApp;
  let s: TenantScene;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
  });
  afterAll(() => t.close());

  const inProgress = (userId: string) =>
    t.ctx.db
      .select()
      .from(dataExports)
      .where(
        and(eq(dataExports.user_id, userId), inArray(dataExports.status, ['PENDING', 'RUNNING'])),
      );

  async function race(url: string, who: TenantScene['people']['OWNER']) {
    const answers = await Promise.all(Array.from({ length: 50 }, () => s.send('POST', url, who)));
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((c) => c === 202)).toHaveLength(1);
    expect(statuses.filter((c) => c === 409)).toHaveLength(49);
    for (const res of answers.filter((r) => r.statusCode === 409)) {
      expect(res.json().code).toBe(ErrorCode.DATA_EXPORT_IN_PROGRESS);
    }
  }

  it('takes one of 50 concurrent requests for one’s own data', async () => {
    const user = await s.person();
    await race('/v1/data-exports/', user);
    expect(await inProgress(user.id)).toHaveLength(1);
  });

  it('takes one of 50 concurrent requests for an organization’s data', async () => {
    await race(`/v1/organizations/${s.orgId}/data-exports/`, s.people.OWNER);
    const rows = await inProgress(s.people.OWNER.id);
    expect(rows.map((r) => r.kind)).toEqual(['ORGANIZATION']);
  });

  it('builds each export once when two runs of the job meet', async () => {
    const people = await Promise.all([s.person(), s.person(), s.person()]);
    for (const p of people) await s.send('POST', '/v1/data-exports/', p);
    const deps = exportDepsFor(t.ctx.config);
    await Promise.all([runDataExports(t.ctx, deps), runDataExports(t.ctx, deps)]);
    const rows = await t.ctx.db
      .select()
      .from(dataExports)
      .where(
        inArray(
          dataExports.user_id,
          people.map((p) => p.id),
        ),
      );
    expect(rows.map((r) => [r.status, r.attempts])).toEqual(rows.map(() => ['READY', 1]));
    // One archive each, no more: no second build left a file behind.
    const stored = await deps.store.list();
    for (const r of rows) expect(stored.some((f) => f.key === r.storage_key)).toBe(true);
    // And one e-mail each.
    await t.ctx.outbox.drain();
    for (const p of people) expect(t.mailbox.to(p.email)).toHaveLength(1);
    expect(await runJob(t)).toBe(0);
  });
});
