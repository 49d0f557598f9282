// engine-parity: COPY and exports
import { DATA_EXPORT_MAX_ATTEMPTS, ErrorCode } from '@portolan/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type Person, type TenantScene } from '../../../test/support/tenants.ts';
import { dataExports, organizationMembers } from '../../db/schema/index.ts';
import { minutes } from '../../lib/clock.ts';
import { newArchiveKey, type ArchiveStore } from './archive-store.ts';
import { exportDepsFor, LEASE_MS, RETRY_DELAY_MS, runDataExports, type ExportDeps } from './job.ts';
import { runJob } from './test-support.ts';
import { startDataExportJob } from './worker.ts';

/**
 * The job's life cycle: a crashed build (its lease ran out) is taken over, a failing one is
 * retried with a delay and FAILED after DATA_EXPORT_MAX_ATTEMPTS with an e-mail, a requester no
 * longer allowed is refused at once, a shutdown hands the build back, leftovers are swept, and a
 * request wakes the running job. Runs on both engines.
 */
describe('the data export job', () => {
  let t: TestApp;
  let s: TenantScene;
  let deps: ExportDeps;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    deps = exportDepsFor(t.ctx.config);
  });
  afterAll(() => t.close());

  const read = async (id: string) =>
    (await t.ctx.db.select().from(dataExports).where(eq(dataExports.id, id)))[0]!;
  const ask = async (who: Person) => {
    const res = await s.send('POST', '/v1/data-exports/', who);
    expect(res.statusCode).toBe(202);
    return res.json().id as string;
  };
  const set = (id: string, values: Partial<typeof dataExports.$inferInsert>) =>
    t.ctx.db.update(dataExports).set(values).where(eq(dataExports.id, id));
  /** A store whose every write fails, as a full disk would. */
  const brokenStore = (): ArchiveStore => ({
    ...deps.store,
    create: async () => {
      throw new Error('no space left on device');
    },
  });

  it('takes over an export whose builder crashed, once its lease has run out', async () => {
    const id = await ask(await s.person());
    await set(id, {
      status: 'RUNNING',
      attempts: 1,
      locked_until: new Date(t.clock.now().getTime() + minutes(5)),
    });
    expect(await runJob(t)).toBe(0);
    expect(await read(id)).toMatchObject({ status: 'RUNNING', attempts: 1 });
    t.clock.advance(minutes(5));
    expect(await runJob(t)).toBe(1);
    expect(await read(id)).toMatchObject({ status: 'READY', attempts: 2, locked_until: null });
  });

  it('fails an export whose attempts ran out, and tells its requester', async () => {
    const who = await s.person();
    const id = await ask(who);
    await set(id, {
      status: 'RUNNING',
      attempts: DATA_EXPORT_MAX_ATTEMPTS,
      locked_until: new Date(t.clock.now().getTime() - 1),
    });
    expect(await runJob(t)).toBe(1);
    expect(await read(id)).toMatchObject({
      status: 'FAILED',
      attempts: DATA_EXPORT_MAX_ATTEMPTS,
      error: expect.stringMatching(/3 attempts/),
    });
    const mail = await t.mailTo(who.email);
    expect(mail.subject).toBe('Your Portolan data export could not be made');
    expect(mail.text).toContain('/ps/profile');
    const dl = await s.send('GET', `/v1/data-exports/${id}/download/`, who);
    expect(dl.statusCode).toBe(409);
    expect(dl.json().code).toBe(ErrorCode.DATA_EXPORT_NOT_READY);
    // A failed export holds nothing back.
    await ask(who);
  });

  it('retries a failing build after a growing delay, then fails it', async () => {
    await runJob(t); // what earlier tests left pending
    const who = await s.person();
    const id = await ask(who);
    const broken = { ...deps, store: brokenStore() };
    for (let attempt = 1; attempt < DATA_EXPORT_MAX_ATTEMPTS; attempt++) {
      expect(await runDataExports(t.ctx, broken)).toBe(1);
      const row = await read(id);
      expect(row).toMatchObject({ status: 'PENDING', attempts: attempt });
      expect(row.locked_until!.getTime() - t.clock.now().getTime()).toBe(RETRY_DELAY_MS * attempt);
      // Not before its time.
      expect(await runDataExports(t.ctx, broken)).toBe(0);
      t.clock.advance(RETRY_DELAY_MS * attempt);
    }
    expect(await runDataExports(t.ctx, broken)).toBe(1);
    expect(await read(id)).toMatchObject({
      status: 'FAILED',
      attempts: DATA_EXPORT_MAX_ATTEMPTS,
      error: expect.stringMatching(/could not be built/),
    });
    expect((await t.mailTo(who.email)).subject).toMatch(/could not be made/);
    // The error's words stay in the log, never in the answer.
    const listed = (await s.send('GET', '/v1/data-exports/', who)).json().results[0];
    expect(listed).toMatchObject({ status: 'FAILED', download_url: null });
    expect(listed.error).not.toContain('no space');
  });

  it('refuses at once the organization’s export of someone no longer its OWNER', async () => {
    const owner = await s.member('OWNER');
    const res = await s.send('POST', `/v1/organizations/${s.orgId}/data-exports/`, owner);
    expect(res.statusCode).toBe(202);
    await t.ctx.db
      .update(organizationMembers)
      .set({ role: 'ADMIN' })
      .where(
        and(
          eq(organizationMembers.organization_id, s.orgId),
          eq(organizationMembers.user_id, owner.id),
        ),
      );
    await runJob(t);
    expect(await read(res.json().id)).toMatchObject({
      status: 'FAILED',
      attempts: 1,
      storage_key: null,
      error: expect.stringMatching(/no longer an owner/),
    });
  });

  it('hands a build back, no attempt spent, when the app stops in the middle of it', async () => {
    const id = await ask(await s.person());
    const stop = new AbortController();
    const store: ArchiveStore = {
      ...deps.store,
      create: (key, produce) =>
        deps.store.create(key, async (write) => {
          stop.abort();
          await produce(write);
        }),
    };
    await runDataExports(t.ctx, { ...deps, store, signal: stop.signal });
    expect(await read(id)).toMatchObject({ status: 'PENDING', attempts: 0, locked_until: null });
    const before = (await deps.store.list()).length;
    await runJob(t);
    expect(await read(id)).toMatchObject({ status: 'READY', attempts: 1 });
    expect((await deps.store.list()).length).toBe(before + 1);
  });

  it('deletes a stored archive that no export names (a build that crashed after writing)', async () => {
    const stray = newArchiveKey();
    await deps.store.create(stray, async (write) => write(new Uint8Array([1, 2, 3])));
    await runJob(t);
    expect((await deps.store.list()).map((f) => f.key)).toContain(stray);
    t.clock.advance(LEASE_MS * 2 + 1);
    await runJob(t);
    const left = (await deps.store.list()).map((f) => f.key);
    expect(left).not.toContain(stray);
    // The archives of ready exports stay.
    const ready = await t.ctx.db.select().from(dataExports).where(eq(dataExports.status, 'READY'));
    for (const r of ready.filter((x) => x.storage_key)) expect(left).toContain(r.storage_key);
  });

  it('is woken by a request, builds at once, and stops with the app', async () => {
    const job = startDataExportJob(t.ctx, { intervalMs: 3_600_000 });
    try {
      // Let the first (empty) run pass.
      await new Promise((r) => setTimeout(r, 200));
      const id = await ask(await s.person());
      for (let i = 0; i < 100 && (await read(id)).status !== 'READY'; i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await read(id)).status).toBe('READY');
    } finally {
      await job.stop();
    }
  });
});
