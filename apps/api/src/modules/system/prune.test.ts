import crypto from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createTestApp, signIn, type TestApp } from '../../../test/support/app.ts';
import {
  clients,
  loginFailures,
  loginThrottles,
  mailOutbox,
  oidcLogins,
  oneTimeCodes,
  organizations,
  rateLimits,
  releaseNotes,
  sessions,
  uploads,
  users,
} from '../../db/schema/index.ts';
import { days, hours, minutes } from '../../lib/clock.ts';
import {
  createClient,
  createOrganization,
  createUser,
  FACTORY_PASSWORD,
} from '../../seed/factories.ts';
import { fileStorageFor, type FileStorage } from '../uploads/index.ts';
import { pruneOnce, startPruneJob } from './prune.ts';

/**
 * The pruning job deletes what no rule reads any more and keeps everything else: each kind of row
 * is shown pruned past its time and kept before it (or while something still uses it). Runs on
 * both engines.
 */
describe('pruning', () => {
  let t: TestApp;
  let storage: FileStorage;
  let owner: Awaited<ReturnType<typeof createUser>>;

  beforeAll(async () => {
    t = await createTestApp();
    storage = fileStorageFor(t.ctx.config);
    owner = await createUser(t.ctx.db);
  });
  afterAll(() => t.close());

  const ago = (ms: number) => new Date(t.clock.now().getTime() - ms);
  const later = (ms: number) => new Date(t.clock.now().getTime() + ms);
  const prune = (batch?: number) => pruneOnce(t.ctx, { uploads: storage, batch });
  /** Which of these ids of a table are still there. */
  const remaining = async (
    table: typeof sessions | typeof loginFailures | typeof oneTimeCodes | typeof mailOutbox,
    ids: Record<string, string>,
  ) => {
    const rows = await t.ctx.db
      .select({ id: table.id })
      .from(table)
      .where(inArray(table.id, Object.values(ids)));
    const left = new Set(rows.map((r) => r.id));
    return Object.keys(ids).filter((name) => left.has(ids[name]!));
  };

  it('deletes sessions ended a week ago, and keeps live and recently ended ones', async () => {
    const session = async (fields: Partial<typeof sessions.$inferInsert>) => {
      const [row] = await t.ctx.db
        .insert(sessions)
        .values({ user_id: owner.id, expires_at: later(days(30)), ...fields })
        .returning();
      return row!.id;
    };
    const ids = {
      expiredLongAgo: await session({ created_at: ago(days(38)), expires_at: ago(days(8)) }),
      expiredYesterday: await session({ created_at: ago(days(31)), expires_at: ago(days(1)) }),
      revokedLongAgo: await session({ revoked_at: ago(days(8)) }),
      revokedLately: await session({ revoked_at: ago(hours(1)) }),
      live: await session({}),
    };
    // A session signed in through the API keeps working after the prune.
    const token = await signIn(t, owner.email, FACTORY_PASSWORD);

    await prune();
    expect(await remaining(sessions, ids)).toEqual(['expiredYesterday', 'revokedLately', 'live']);
    const me = await t.app.inject({ url: '/v1/rest-auth/user/', headers: bearer(token) });
    expect(me.statusCode).toBe(200);
  });

  it('deletes login failures older than a day, and the throttle rows left without any', async () => {
    const failure = async (email: string, at: Date) => {
      const [row] = await t.ctx.db
        .insert(loginFailures)
        .values({ email, created_at: at })
        .returning();
      return row!.id;
    };
    const stale = `stale.${Date.now()}@example.com`;
    const locked = `locked.${Date.now()}@example.com`;
    const fresh = `fresh.${Date.now()}@example.com`;
    await t.ctx.db.insert(loginThrottles).values([
      { email: stale, created_at: ago(days(2)) },
      { email: locked, created_at: ago(days(2)) },
      { email: fresh, created_at: t.clock.now() },
    ]);
    const ids = {
      old: await failure(stale, ago(days(2))),
      // Inside the lockout's window: the lockout still counts it.
      recent: await failure(locked, ago(minutes(5))),
    };

    await prune();
    expect(await remaining(loginFailures, ids)).toEqual(['recent']);
    const throttles = await t.ctx.db
      .select({ email: loginThrottles.email })
      .from(loginThrottles)
      .where(inArray(loginThrottles.email, [stale, locked, fresh]));
    expect(throttles.map((r) => r.email).sort()).toEqual([fresh, locked].sort());
  });

  it('deletes one-time codes no token can name any more', async () => {
    const pending = await createUser(t.ctx.db, { active: false, password: null });
    const code = async (fields: Partial<typeof oneTimeCodes.$inferInsert>) => {
      const [row] = await t.ctx.db
        .insert(oneTimeCodes)
        .values({
          user_id: owner.id,
          purpose: 'activation',
          code_hash: crypto.randomBytes(32).toString('hex'),
          expires_at: later(minutes(10)),
          ...fields,
        })
        .returning();
      return row!.id;
    };
    const ids = {
      oldReset: await code({ purpose: 'password_reset', created_at: ago(days(3)) }),
      recentReset: await code({ purpose: 'password_reset', created_at: ago(hours(1)) }),
      oldBlank: await code({ user_id: null, created_at: ago(days(3)) }),
      usedLongAgo: await code({ created_at: ago(days(4)), consumed_at: ago(days(3)) }),
      usedYesterday: await code({ created_at: ago(days(2)), consumed_at: ago(days(1)) }),
      // Long expired, but a sign-in of its account still hands out a token for this row.
      waitingForActivation: await code({
        user_id: pending.id,
        created_at: ago(days(10)),
        expires_at: ago(days(10)),
      }),
    };

    await prune();
    expect(await remaining(oneTimeCodes, ids)).toEqual([
      'recentReset',
      'usedYesterday',
      'waitingForActivation',
    ]);
  });

  it('deletes delivered and failed mail past its time, never a pending one', async () => {
    const message = async (fields: Partial<typeof mailOutbox.$inferInsert>) => {
      const [row] = await t.ctx.db
        .insert(mailOutbox)
        .values({
          to_address: 'kept@example.com',
          subject: 's',
          text_body: 't',
          html_body: '<p>t</p>',
          // Due in the future, so no worker of this app sends it meanwhile.
          next_attempt_at: later(days(1)),
          ...fields,
        })
        .returning();
      return row!.id;
    };
    const ids = {
      sentLongAgo: await message({ status: 'sent', sent_at: ago(days(8)) }),
      sentYesterday: await message({ status: 'sent', sent_at: ago(days(1)) }),
      failedLongAgo: await message({ status: 'failed', created_at: ago(days(31)) }),
      failedLately: await message({ status: 'failed', created_at: ago(days(10)) }),
      pendingForAges: await message({ status: 'pending', created_at: ago(days(60)) }),
    };

    await prune();
    expect(await remaining(mailOutbox, ids)).toEqual([
      'sentYesterday',
      'failedLately',
      'pendingForAges',
    ]);
  });

  it('deletes spent rate-limit windows and expired Google sign-ins in progress', async () => {
    const tag = crypto.randomUUID();
    await t.ctx.db.insert(rateLimits).values([
      { key: `${tag}:spent`, hits: 5, reset_at: ago(1_000) },
      { key: `${tag}:open`, hits: 5, reset_at: later(60_000) },
    ]);
    const login = (state: string, expiresAt: Date) => ({
      state,
      nonce: 'n',
      code_verifier: 'v',
      expires_at: expiresAt,
    });
    await t.ctx.db
      .insert(oidcLogins)
      .values([login(`${tag}:expired`, ago(1_000)), login(`${tag}:open`, later(minutes(5)))]);

    await prune();
    const windows = await t.ctx.db
      .select({ key: rateLimits.key })
      .from(rateLimits)
      .where(inArray(rateLimits.key, [`${tag}:spent`, `${tag}:open`]));
    expect(windows.map((r) => r.key)).toEqual([`${tag}:open`]);
    const logins = await t.ctx.db
      .select({ state: oidcLogins.state })
      .from(oidcLogins)
      .where(inArray(oidcLogins.state, [`${tag}:expired`, `${tag}:open`]));
    expect(logins.map((r) => r.state)).toEqual([`${tag}:open`]);
  });

  /** An upload as the uploads route leaves one: the file in the storage and its row. */
  async function upload(createdAt: Date) {
    const key = `${crypto.randomUUID()}.png`;
    await storage.put(key, new Uint8Array([0x89, 0x50, 0x4e, 0x47]), 'image/png');
    await t.ctx.db.insert(uploads).values({
      user_id: owner.id,
      storage_key: key,
      content_type: 'image/png',
      size: 4,
      created_at: createdAt,
    });
    return { key, url: `/uploads/${key}` };
  }

  it('deletes old uploads nothing uses, file and row, and keeps every one in use', async () => {
    const old = ago(days(2));
    const unused = await upload(old);
    const justUploaded = await upload(ago(hours(1)));
    const avatar = await upload(old);
    const orgLogo = await upload(old);
    const workspaceLogo = await upload(old);
    const headerLogo = await upload(old);
    const inStylesheet = await upload(old);
    const inReleaseNote = await upload(old);
    const ofDeletedWorkspace = await upload(old);

    await t.ctx.db.update(users).set({ avatar: avatar.url }).where(eq(users.id, owner.id));
    const org = await createOrganization(t.ctx.db, { ownerId: owner.id, plan: null });
    await t.ctx.db
      .update(organizations)
      .set({ logo: orgLogo.url })
      .where(eq(organizations.id, org.id));
    const workspace = await createClient(t.ctx.db, { organizationId: org.id });
    await t.ctx.db
      .update(clients)
      .set({
        logo: workspaceLogo.url,
        default_client_header_logo: headerLogo.url,
        custom_css: `.header { background: url("${inStylesheet.url}") no-repeat; }`,
      })
      .where(eq(clients.id, workspace.id));
    const gone = await createClient(t.ctx.db, { organizationId: org.id });
    await t.ctx.db
      .update(clients)
      .set({ logo: ofDeletedWorkspace.url, deleted_at: t.clock.now() })
      .where(eq(clients.id, gone.id));
    await t.ctx.db.insert(releaseNotes).values({
      version: `prune-${crypto.randomUUID()}`,
      release_date: '2031-01-01',
      release_note: `<p>See <a href="https://portal.example.com${inReleaseNote.url}">the chart</a></p>`,
    });

    const pruned = await prune();
    expect(pruned.uploads).toBe(1);
    const all = [
      unused,
      justUploaded,
      avatar,
      orgLogo,
      workspaceLogo,
      headerLogo,
      inStylesheet,
      inReleaseNote,
      ofDeletedWorkspace,
    ];
    const rows = await t.ctx.db
      .select({ key: uploads.storage_key })
      .from(uploads)
      .where(
        inArray(
          uploads.storage_key,
          all.map((u) => u.key),
        ),
      );
    expect(rows.map((r) => r.key).sort()).toEqual(
      all
        .slice(1)
        .map((u) => u.key)
        .sort(),
    );
    expect(await storage.get(unused.key)).toBeNull();
    for (const kept of all.slice(1)) {
      const file = await storage.get(kept.key);
      expect(file).not.toBeNull();
      file!.body.destroy();
    }

    // Once the avatar is replaced, its old file goes at the next run.
    await t.ctx.db.update(users).set({ avatar: null }).where(eq(users.id, owner.id));
    expect((await prune()).uploads).toBe(1);
    expect(await storage.get(avatar.key)).toBeNull();
  });

  it('works through more rows than a batch, and two runs at once delete each row once', async () => {
    const message = (i: number) => ({
      to_address: `batch.${i}@example.com`,
      subject: 's',
      text_body: 't',
      html_body: '<p>t</p>',
      status: 'sent' as const,
      sent_at: ago(days(8)),
    });
    await t.ctx.db.insert(mailOutbox).values(Array.from({ length: 7 }, (_, i) => message(i)));
    expect((await prune(2)).mail).toBe(7);

    await t.ctx.db.insert(mailOutbox).values(Array.from({ length: 9 }, (_, i) => message(i)));
    for (let i = 0; i < 3; i++) await upload(ago(days(2)));
    const [first, second] = await Promise.all([prune(2), prune(2)]);
    expect(first!.mail + second!.mail).toBe(9);
    expect(first!.uploads + second!.uploads).toBe(3);
  });

  it('runs on its own a moment after start, and stops with the app', async () => {
    const spent = `${crypto.randomUUID()}:spent`;
    await t.ctx.db.insert(rateLimits).values({ key: spent, hits: 1, reset_at: ago(1_000) });
    const job = startPruneJob(t.ctx, { firstDelayMs: 10 });
    try {
      await vi.waitFor(
        async () =>
          expect(
            await t.ctx.db.select().from(rateLimits).where(eq(rateLimits.key, spent)),
          ).toHaveLength(0),
        { timeout: 5_000, interval: 20 },
      );
    } finally {
      await job.stop();
    }
  });
});
