// engine-parity: COPY and exports
import crypto from 'node:crypto';
import { ErrorCode } from '@portolan/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type Person, type TenantScene } from '../../../test/support/tenants.ts';
import {
  dataExports,
  notifications,
  oauthAccounts,
  oneTimeCodes,
  sessions,
  users,
} from '../../db/schema/index.ts';
import { hours, minutes } from '../../lib/clock.ts';
import { createClient, FACTORY_PASSWORD } from '../../seed/factories.ts';
import { BATCH } from './batches.ts';
import { archiveStoreFor } from './job.ts';
import { linkIn, openArchive, runJob } from './test-support.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const BOUNDARY = '----data-export-test-boundary';
const multipartPng = Buffer.concat([
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n`,
  ),
  PNG,
  Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
]);

/**
 * A user's own data: the job builds the archive (profile, memberships, notifications, activities
 * over several batches, uploads), with no secret in it; the e-mail carries a link that downloads
 * it for 24 hours and then answers 410; the archive is then deleted, and /uploads/ never serves
 * it. Runs on both engines.
 */
describe('a personal data export', () => {
  let t: TestApp;
  let s: TenantScene;
  let me: Person;
  let uploadUrl: string;
  let link: string;
  let exportId: string;
  const invitationToken = crypto.randomBytes(32).toString('base64url');
  const codeHash = crypto.randomBytes(32).toString('hex');
  const MANY = BATCH * 2 + 17;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    me = s.people.STAFF;
    const ws = await createClient(t.ctx.db, { organizationId: s.orgId, name: 'Harbour Desk' });
    await t.ctx.db.execute(sql`
      insert into client_members (client_id, user_id, role) values (${ws.id}, ${me.id}, 'MANAGER')`);
    const up = await t.app.inject({
      method: 'POST',
      url: '/v1/upload/',
      headers: {
        ...bearer(me.token),
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
      payload: multipartPng,
    });
    expect(up.statusCode, up.body).toBe(201);
    uploadUrl = up.json().url;
    await t.ctx.db.insert(notifications).values({
      type: 'INVITATION',
      recipient_id: me.id,
      organization_id: s.orgId,
      meta: { invitation_token: invitationToken, type: 'organization' },
      extra_message: 'Join the harbour team',
    });
    await t.ctx.db.insert(oauthAccounts).values({
      user_id: me.id,
      provider: 'google',
      subject: 'google-sub-4711',
      email: me.email,
    });
    await t.ctx.db.insert(oneTimeCodes).values({
      user_id: me.id,
      purpose: 'password_reset',
      code_hash: codeHash,
      expires_at: new Date(Date.now() + minutes(10)),
    });
    await t.ctx.db.execute(sql`
      insert into activities (user_id, action, organization_id, data, created_at, modified_at)
      select ${me.id}::uuid, 'SIGN_IN', null, jsonb_build_object('n', g),
             timestamptz '2026-03-05 10:00:00+00' + make_interval(secs => g / 1000000.0), now()
      from generate_series(1, ${MANY}) g`);
    // Someone else's activity and notification never come along.
    await t.ctx.db.execute(sql`
      insert into activities (user_id, action, data) values (${s.people.ADMIN.id}, 'SIGN_IN', '{"other": true}')`);
  });
  afterAll(() => t.close());

  it('builds the archive in the background and e-mails a link valid 24 hours', async () => {
    const asked = await s.send('POST', '/v1/data-exports/', me);
    expect(asked.statusCode).toBe(202);
    exportId = asked.json().id;
    expect(await runJob(t)).toBe(1);

    const [row] = await t.ctx.db.select().from(dataExports).where(eq(dataExports.id, exportId));
    expect(row).toMatchObject({ status: 'READY', attempts: 1, locked_until: null });
    expect(row!.expires_at!.getTime() - row!.completed_at!.getTime()).toBe(hours(24));
    expect(row!.download_token_hash).toMatch(/^[0-9a-f]{64}$/);

    const mail = await t.mailTo(me.email);
    expect(mail.subject).toBe('Your Portolan data export is ready');
    expect(mail.text).toContain(
      `${row!.expires_at!.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    );
    link = linkIn(mail.text);
    expect(mail.html).toContain(link);
    // Only the token's SHA-256 is stored.
    const token = link.split('/').at(-2)!;
    expect(crypto.createHash('sha256').update(token).digest('hex')).toBe(row!.download_token_hash);
  });

  it('holds the profile, memberships, notifications, activities and uploads', async () => {
    const zip = openArchive(await s.send('GET', link, 'anonymous'));
    const key = uploadUrl.split('/').at(-1)!;
    expect(zip.names).toEqual(
      [
        'README.txt',
        'activities.jsonl',
        'memberships.json',
        'notifications.json',
        'profile.json',
        'security-log.json',
        'uploads.json',
        `uploads/${key}`,
      ].sort(),
    );
    expect(zip.text('README.txt')).toMatch(/profile\.json[\s\S]*activities\.jsonl/);
    // The sign-in that made the archive's owner a session is in their security log.
    expect(zip.json<{ kind: string }[]>('security-log.json').map((e) => e.kind)).toContain(
      'sign_in',
    );
    const profile = zip.json<{
      user: Record<string, unknown>;
      sign_in_methods: { password: boolean; external: object[] };
      sessions: object[];
    }>('profile.json');
    expect(profile.user).toMatchObject({ id: me.id, email: me.email, first_name: 'Staff' });
    expect(profile.sign_in_methods).toEqual({
      password: true,
      external: [expect.objectContaining({ provider: 'google', subject: 'google-sub-4711' })],
    });
    expect(profile.sessions.length).toBeGreaterThan(0);

    const memberships = zip.json<{ organizations: object[]; workspaces: object[] }>(
      'memberships.json',
    );
    expect(memberships.organizations).toEqual([
      expect.objectContaining({
        organization: expect.objectContaining({ id: s.orgId }),
        role: 'STAFF',
      }),
    ]);
    expect(memberships.workspaces).toEqual([
      expect.objectContaining({
        workspace: expect.objectContaining({ name: 'Harbour Desk' }),
        role: 'MANAGER',
      }),
    ]);

    const bell = zip.json<{ meta: object; extra_message: string }[]>('notifications.json');
    expect(bell).toHaveLength(1);
    expect(bell[0]).toMatchObject({
      extra_message: 'Join the harbour team',
      meta: { type: 'organization' },
    });

    // Every activity once, oldest first, over several batches; none of anybody else's.
    const acts = zip.lines<{ id: string; created_at: string; data: { n?: number } }>(
      'activities.jsonl',
    );
    const mine = acts.filter((a) => a.data.n !== undefined);
    expect(mine).toHaveLength(MANY);
    expect(new Set(acts.map((a) => a.id)).size).toBe(acts.length);
    expect(mine.map((a) => a.data.n)).toEqual(Array.from({ length: MANY }, (_, i) => i + 1));
    expect(zip.all()).not.toContain('"other"');

    expect(zip.json('uploads.json')).toEqual([
      expect.objectContaining({
        file: `uploads/${key}`,
        content_type: 'image/png',
        size: PNG.length,
      }),
    ]);
    expect(Buffer.from(zip.bytes(`uploads/${key}`)!).equals(PNG)).toBe(true);
  });

  it('holds no password hash, token, code or session id', async () => {
    const text = openArchive(await s.send('GET', link, 'anonymous')).all();
    const [user] = await t.ctx.db.select().from(users).where(eq(users.id, me.id));
    const sessionIds = (
      await t.ctx.db.select().from(sessions).where(eq(sessions.user_id, me.id))
    ).map((x) => x.id);
    const [row] = await t.ctx.db.select().from(dataExports).where(eq(dataExports.id, exportId));
    for (const secret of [
      user!.password_hash!,
      '$argon2',
      'password_hash',
      invitationToken,
      'invitation_token',
      codeHash,
      row!.download_token_hash!,
      link.split('/').at(-2)!,
      me.token,
      ...sessionIds,
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('downloads signed in as well, and /uploads/ never serves the archive', async () => {
    const res = await s.send('GET', `/v1/data-exports/${exportId}/download/`, me);
    expect(openArchive(res).names).toContain('profile.json');
    const [row] = await t.ctx.db.select().from(dataExports).where(eq(dataExports.id, exportId));
    const pub = await t.app.inject({ method: 'GET', url: `/uploads/${row!.storage_key}` });
    expect(pub.statusCode).toBe(404);
  });

  it('expires after 24 hours: the link answers 410, the archive is deleted', async () => {
    t.clock.advance(hours(24) - minutes(1));
    expect((await s.send('GET', link, 'anonymous')).statusCode).toBe(200);
    t.clock.advance(minutes(1));
    // The scene's session has run out meanwhile (12 hours): sign in again.
    const login = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/app/login/',
      payload: { email: me.email, password: FACTORY_PASSWORD },
      remoteAddress: '10.99.0.1',
    });
    me = { ...me, token: login.json().token };
    for (const res of [
      await s.send('GET', link, 'anonymous'),
      await s.send('GET', `/v1/data-exports/${exportId}/download/`, me),
    ]) {
      expect(res.statusCode).toBe(410);
      expect(res.json()).toMatchObject({
        code: ErrorCode.DATA_EXPORT_EXPIRED,
        message: expect.stringMatching(/24 hours/),
      });
    }
    const listed = (await s.send('GET', '/v1/data-exports/', me)).json().results[0];
    expect(listed).toMatchObject({
      id: exportId,
      status: 'READY',
      is_expired: true,
      download_url: null,
    });

    const [before] = await t.ctx.db.select().from(dataExports).where(eq(dataExports.id, exportId));
    await runJob(t);
    const [after] = await t.ctx.db.select().from(dataExports).where(eq(dataExports.id, exportId));
    expect(after!.storage_key).toBeNull();
    expect(await archiveStoreFor(t.ctx.config).open(before!.storage_key!)).toBeNull();
    expect((await s.send('GET', link, 'anonymous')).statusCode).toBe(410);
    // A new export can be asked for.
    expect((await s.send('POST', '/v1/data-exports/', me)).statusCode).toBe(202);
  });
});
