import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';
import { clientModules, clients, organizations, shareLinks } from '../../db/schema/index.ts';
import { hours, minutes } from '../../lib/clock.ts';
import { createClient } from '../../seed/factories.ts';
import { LINK_GONE_MESSAGE } from './service.ts';
import { newShareToken } from './tokens.ts';

/**
 * GET /v1/share/{token}/: the public read-only view. No session needed; what it shows and what it
 * leaves out; one identical 404 for every link that opens nothing (unknown, malformed, revoked,
 * expired by the app clock, its workspace or organization deleted, its module switched off).
 */
describe('the public view of a share link', () => {
  let t: TestApp;
  let s: TenantScene;
  let clientId: string;
  const GONE = { code: ErrorCode.NOT_FOUND, message: LINK_GONE_MESSAGE };

  const open = (token: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/v1/share/${token}/`, headers });
  const share = async (body: object = { module: 'TR' }, workspace = clientId) => {
    const res = await s.send('POST', `/v1/clients/${workspace}/share-links/`, s.people.OWNER, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; token: string; url: string };
  };
  const expectGone = async (token: string) => {
    const res = await open(token);
    expect(res.statusCode, token).toBe(404);
    expect(res.json()).toEqual(GONE);
  };

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    const client = await createClient(t.ctx.db, {
      organizationId: s.orgId,
      ownerId: s.people.OWNER.id,
      name: 'Harbour',
    });
    clientId = client.id;
    await t.ctx.db
      .update(clients)
      .set({ logo: '/uploads/harbour.png' })
      .where(eq(clients.id, clientId));
  });
  afterAll(() => t.close());

  it('opens without a session and shows the module, the workspace and who shared it, nothing else', async () => {
    const link = await share();
    const res = await open(link.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      module: 'TR',
      module_name: '2D Transit',
      overview: expect.stringContaining('2D Transit'),
      workspace: { name: 'Harbour', logo: '/uploads/harbour.png' },
      shared_by: { name: 'Olive Owner' },
      shared_at: t.clock.now().toISOString(),
      expires_at: null,
    });
    // No id, no e-mail, no organization in it.
    expect(res.body).not.toContain(clientId);
    expect(res.body).not.toContain(s.orgId);
    expect(res.body).not.toContain(s.people.OWNER.email);
    expect(res.body).not.toContain(s.people.OWNER.id);
    expect(res.body).not.toContain(link.id);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-robots-tag']).toContain('noindex');
  });

  it('opens the same with any session, or a broken one, sent along', async () => {
    const link = await share();
    for (const headers of [
      { authorization: `Bearer ${s.people.STRANGER.token}` },
      { authorization: 'Bearer not-a-token' },
    ]) {
      const res = await open(link.token, headers);
      expect(res.statusCode).toBe(200);
      expect(res.json().workspace.name).toBe('Harbour');
    }
  });

  it('notes when it was last opened, at most once a minute', async () => {
    const link = await share();
    const openedAt = async () =>
      (await t.ctx.db.select().from(shareLinks).where(eq(shareLinks.id, link.id)))[0]!
        .last_opened_at;
    expect(await openedAt()).toBeNull();
    await open(link.token);
    const first = t.clock.now();
    expect(await openedAt()).toEqual(first);
    t.clock.advance(30_000);
    await open(link.token);
    expect(await openedAt()).toEqual(first);
    t.clock.advance(minutes(1));
    await open(link.token);
    expect(await openedAt()).toEqual(t.clock.now());
    const listed = await s.send('GET', `/v1/clients/${clientId}/share-links/`, s.people.OWNER);
    expect(listed.json().results.find((l: { id: string }) => l.id === link.id).last_opened_at).toBe(
      t.clock.now().toISOString(),
    );
  });

  it('answers one identical 404 for unknown tokens and tokens of any other shape', async () => {
    const real = await share();
    const cases = [
      newShareToken().token, // well formed, never issued
      real.token.slice(0, 42),
      `${real.token}A`,
      real.token.toLowerCase() === real.token ? real.token.toUpperCase() : real.token.toLowerCase(),
      'x',
      '%00',
      '%E2%80%AE',
      encodeURIComponent(`${real.token.slice(0, 42)}=`),
      encodeURIComponent(`${real.token.slice(0, 42)}+`),
      'A'.repeat(100), // the router's longest parameter
      encodeURIComponent("' or 1=1 --"),
      '..%2F..%2Fconfig',
    ];
    for (const token of cases) await expectGone(token);
    // Longer than any path parameter may be: the router's 414, before any route runs.
    expect((await open('A'.repeat(101))).statusCode).toBe(414);
    // The real one still opens: the checks above changed nothing.
    expect((await open(real.token)).statusCode).toBe(200);
  });

  it('answers the same 404 once the link is revoked', async () => {
    const link = await share();
    expect((await open(link.token)).statusCode).toBe(200);
    const del = await s.send(
      'DELETE',
      `/v1/clients/${clientId}/share-links/${link.id}/`,
      s.people.OWNER,
    );
    expect(del.statusCode).toBe(204);
    await expectGone(link.token);
  });

  it('answers the same 404 once the app clock passes the expiry', async () => {
    // Sessions last 12 hours: the clock moves by less.
    const expiresAt = new Date(t.clock.now().getTime() + hours(2));
    const link = await share({ module: 'TR', expires_at: expiresAt.toISOString() });
    const res = await open(link.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().expires_at).toBe(expiresAt.toISOString());
    t.clock.set(new Date(expiresAt.getTime() - 1));
    expect((await open(link.token)).statusCode).toBe(200);
    t.clock.set(expiresAt);
    await expectGone(link.token);
  });

  it('answers the same 404 while the module is switched off, and opens again once it is back on', async () => {
    const link = await share();
    const setTr = (enabled: boolean) =>
      s.send('PATCH', `/v1/clients/${clientId}/modules/TR/`, s.people.OWNER, { enabled });
    expect((await setTr(false)).statusCode).toBe(200);
    await expectGone(link.token);
    expect((await setTr(true)).statusCode).toBe(200);
    expect((await open(link.token)).statusCode).toBe(200);
  });

  it('answers the same 404 once the workspace is deleted', async () => {
    const ws = await createClient(t.ctx.db, {
      organizationId: s.orgId,
      ownerId: s.people.OWNER.id,
    });
    const link = await share({ module: 'TR' }, ws.id);
    expect((await open(link.token)).statusCode).toBe(200);
    const del = await s.send(
      'DELETE',
      `/v1/organizations/${s.orgId}/clients/${ws.id}/`,
      s.people.OWNER,
    );
    expect(del.statusCode).toBe(204);
    await expectGone(link.token);
  });

  it('answers the same 404 once the organization is deleted', async () => {
    const ws = await createClient(t.ctx.db, {
      organizationId: s.otherOrgId,
      ownerId: s.people.STRANGER.id,
    });
    const res = await s.send('POST', `/v1/clients/${ws.id}/share-links/`, s.people.STRANGER, {
      module: 'TR',
    });
    const link = res.json();
    expect((await open(link.token)).statusCode).toBe(200);
    await t.ctx.db
      .update(organizations)
      .set({ deleted_at: t.clock.now() })
      .where(eq(organizations.id, s.otherOrgId));
    await expectGone(link.token);
  });

  it('answers the same 404 for a workspace waiting for approval', async () => {
    const ws = await createClient(t.ctx.db, {
      organizationId: s.orgId,
      ownerId: s.people.OWNER.id,
    });
    const link = await share({ module: 'TR' }, ws.id);
    await t.ctx.db.update(clients).set({ active: false }).where(eq(clients.id, ws.id));
    await expectGone(link.token);
    // The module row itself untouched: it is the workspace's state that closes the link.
    const [row] = await t.ctx.db
      .select()
      .from(clientModules)
      .where(eq(clientModules.client_id, ws.id));
    expect(row!.enabled).toBe(true);
  });

  it('shows no name when the sharer’s account is gone, and still opens', async () => {
    const person = await s.member('ADMIN');
    const res = await s.send('POST', `/v1/clients/${clientId}/share-links/`, person, {
      module: 'TR',
    });
    const link = res.json();
    await t.ctx.db.update(shareLinks).set({ created_by: null }).where(eq(shareLinks.id, link.id));
    const view = await open(link.token);
    expect(view.statusCode).toBe(200);
    expect(view.json().shared_by).toBeNull();
  });

  it('is limited per address like the other public routes', async () => {
    const link = await share();
    let limited = null;
    for (let i = 0; i < 400 && !limited; i += 1) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v1/share/${link.token}/`,
        remoteAddress: '10.99.0.1',
      });
      if (res.statusCode === 429) limited = res;
      else expect(res.statusCode).toBe(200);
    }
    expect(limited?.json().code).toBe(ErrorCode.RATE_LIMITED);
    // Another address is not held back.
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: `/v1/share/${link.token}/`,
      remoteAddress: '10.99.0.2',
    });
    expect(elsewhere.statusCode).toBe(200);
  });
});
