// engine-parity: fifty keys created at once against the organization's limit, under its row lock
import { API_KEY_PREFIX, ErrorCode, MAX_API_KEYS_PER_ORGANIZATION } from '@portolan/contract';
import { getTableConfig } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../db/schema/index.ts';
import { createClient } from '../../seed/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../../test/support/app.ts';
import { startAnotherInstance } from '../../../test/support/another-instance.ts';
import { createTenantScene, type Person, type TenantScene } from '../../../test/support/tenants.ts';
import { KEY_TRUST_MS } from './resolver.ts';

const STALE_MS = 601_000;

describe('organization API keys', () => {
  let t: TestApp;
  let scene: TenantScene;
  beforeAll(async () => {
    t = await createTestApp({ API_KEY_RATE_LIMIT: '20' });
    scene = await createTenantScene(t);
  });
  afterAll(() => t.close());

  const keysUrl = (orgId = scene.orgId) => `/v1/organizations/${orgId}/api-keys/`;
  const membersUrl = (orgId = scene.orgId) => `/v1/organizations/${orgId}/users/`;

  /** A key made by `who` (the OWNER unless said) with these fields; answers the whole creation. */
  async function makeKey(fields: Record<string, unknown> = {}, who: Person = scene.people.OWNER) {
    const res = await scene.send('POST', keysUrl(), who, {
      name: 'ERP sync',
      permissions: ['organization.members.read'],
      ...fields,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; key: string; hint: string; permissions: string[] };
  }
  const withKey = (
    key: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, headers: bearer(key), ...(payload && { payload }) });

  it('creates a key shown once, lists it without the key, and revokes it', async () => {
    const created = await makeKey({ name: 'Carrier bridge' });
    expect(created.key.startsWith(API_KEY_PREFIX)).toBe(true);
    // 32 random bytes, base64url: 43 characters after the prefix.
    expect(created.key).toMatch(/^ptl_[A-Za-z0-9_-]{43}$/);
    expect(created.hint).toBe(created.key.slice(0, 8));

    const list = await scene.send('GET', keysUrl(), scene.people.ADMIN);
    expect(list.statusCode).toBe(200);
    const listed = list.json().results.find((k: { id: string }) => k.id === created.id);
    expect(listed).toMatchObject({
      name: 'Carrier bridge',
      hint: created.hint,
      permissions: ['organization.members.read'],
      workspace_ids: null,
      created_by: { id: scene.people.OWNER.id },
      last_used_at: null,
    });
    expect(JSON.stringify(list.json())).not.toContain(created.key);

    expect((await withKey(created.key, 'GET', membersUrl())).statusCode).toBe(200);
    const revoked = await scene.send('DELETE', `${keysUrl()}${created.id}/`, scene.people.ADMIN);
    expect(revoked.statusCode).toBe(204);
    const after = await withKey(created.key, 'GET', membersUrl());
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe(ErrorCode.NOT_AUTHENTICATED);
    const again = await scene.send('DELETE', `${keysUrl()}${created.id}/`, scene.people.ADMIN);
    expect(again.statusCode).toBe(404);
    const relisted = await scene.send('GET', keysUrl(), scene.people.OWNER);
    expect(relisted.json().results.map((k: { id: string }) => k.id)).not.toContain(created.id);
  });

  it('lets only OWNERs and ADMINs manage keys: others 403, strangers 404, anonymous 401', async () => {
    const { id } = await makeKey();
    const body = { name: 'x', permissions: ['organization.read'] };
    const expected = {
      OWNER: [201, 200, 204],
      ADMIN: [201, 200, 404],
      STAFF: [403, 403, 403],
      CLIENT: [403, 403, 403],
      STRANGER: [404, 404, 404],
    };
    for (const [role, [create, list, revoke]] of Object.entries(expected)) {
      const who = scene.people[role as keyof typeof expected];
      expect((await scene.send('POST', keysUrl(), who, body)).statusCode, role).toBe(create);
      expect((await scene.send('GET', keysUrl(), who)).statusCode, role).toBe(list);
      // The OWNER revokes it; the ADMIN then finds it gone (404), like anyone after.
      expect((await scene.send('DELETE', `${keysUrl()}${id}/`, who)).statusCode, role).toBe(revoke);
    }
    for (const [method, url] of [
      ['POST', keysUrl()],
      ['GET', keysUrl()],
      ['DELETE', `${keysUrl()}${id}/`],
    ] as const) {
      expect(
        (await scene.send(method, url, 'anonymous', method === 'POST' ? body : undefined))
          .statusCode,
      ).toBe(401);
    }
  });

  it('refuses bad input with the field named, and creates nothing', async () => {
    const before = await scene.send('GET', keysUrl(), scene.people.OWNER);
    const otherWorkspace = await createClient(t.ctx.db, { organizationId: scene.otherOrgId });
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '', permissions: ['organization.read'] }, 'name'],
      [{ name: 'a\nb', permissions: ['organization.read'] }, 'name'],
      [{ name: 'x', permissions: [] }, 'permissions'],
      [{ name: 'x', permissions: ['organization.read', 'organization.read'] }, 'permissions'],
      [{ name: 'x', permissions: ['organization.api_keys.manage'] }, 'permissions'],
      [{ name: 'x', permissions: ['organization.security.manage'] }, 'permissions'],
      [{ name: 'x', permissions: ['nope'] }, 'permissions'],
      [
        { name: 'x', permissions: ['organization.read'], workspace_ids: ['not-a-uuid'] },
        'workspace_ids',
      ],
      [
        { name: 'x', permissions: ['organization.read'], workspace_ids: [otherWorkspace.id] },
        'workspace_ids',
      ],
      [
        { name: 'x', permissions: ['organization.read'], expires_at: '2000-01-01T00:00:00Z' },
        'expires_at',
      ],
      [{ name: 'x', permissions: ['organization.read'], expires_at: 'tomorrow' }, 'expires_at'],
      [{ name: 'x', permissions: ['organization.read'], extra: 1 }, ''],
    ];
    for (const [payload, field] of cases) {
      const res = await scene.send('POST', keysUrl(), scene.people.OWNER, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      if (field)
        expect(JSON.stringify(res.json().details ?? res.json()), JSON.stringify(payload)).toContain(
          field,
        );
    }
    const malformed = await scene.send('DELETE', `${keysUrl()}not-a-uuid/`, scene.people.OWNER);
    expect(malformed.statusCode).toBe(400);
    const after = await scene.send('GET', keysUrl(), scene.people.OWNER);
    expect(after.json().results.length).toBe(before.json().results.length);
  });

  it('works where its permissions reach, in its organization and workspaces only', async () => {
    const inside = await createClient(t.ctx.db, { organizationId: scene.orgId });
    const outside = await createClient(t.ctx.db, { organizationId: scene.orgId });
    const { key } = await makeKey({
      permissions: ['organization.members.read', 'client.read'],
      workspace_ids: [inside.id],
    });
    expect((await withKey(key, 'GET', membersUrl())).statusCode).toBe(200);
    expect((await withKey(key, 'GET', `/v1/clients/${inside.id}/`)).statusCode).toBe(200);
    // Another workspace of its organization, another organization: as if they did not exist.
    expect((await withKey(key, 'GET', `/v1/clients/${outside.id}/`)).statusCode).toBe(404);
    expect((await withKey(key, 'GET', membersUrl(scene.otherOrgId))).statusCode).toBe(404);
    // A permission it was not given; a route for any member; the account's own routes.
    const denied = await withKey(key, 'GET', `/v1/organizations/${scene.orgId}/activities/`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toContain('organization.activities.read');
    expect(
      (await withKey(key, 'GET', `/v1/clients/${inside.id}/credential-status/`)).statusCode,
    ).toBe(403);
    const own = await withKey(key, 'GET', '/v1/rest-auth/user/');
    expect(own.statusCode).toBe(403);
    expect(own.json().code).toBe(ErrorCode.PERMISSION_DENIED);
    // The integration routes: the events feed with its permission and without; webhooks and
    // keys are a person's (no key may carry their permissions).
    const feed = `/v1/organizations/${scene.orgId}/events/`;
    expect((await withKey(key, 'GET', feed)).statusCode).toBe(403);
    const reader = await makeKey({ permissions: ['organization.events.read'] });
    expect((await withKey(reader.key, 'GET', feed)).statusCode).toBe(200);
    expect(
      (await withKey(reader.key, 'GET', feed.replace(scene.orgId, scene.otherOrgId))).statusCode,
    ).toBe(404);
    expect(
      (await withKey(reader.key, 'GET', `/v1/organizations/${scene.orgId}/webhooks/`)).statusCode,
    ).toBe(403);
    // Opening a module is a person's act, whatever the key's permissions.
    const launch = await withKey(key, 'POST', `/v1/clients/${inside.id}/modules/TR/launch/`);
    expect(launch.statusCode).toBe(403);
    expect(launch.json().message).toContain('API key');
    // Its own management is a person's: no key can carry that permission, so 403.
    expect((await withKey(key, 'GET', keysUrl())).statusCode).toBe(403);
    // A malformed or unknown key is no caller at all.
    expect((await withKey(`${key}x`, 'GET', membersUrl())).statusCode).toBe(401);
    expect((await withKey('ptl_', 'GET', membersUrl())).statusCode).toBe(401);
  });

  it('never does more than its creator can now: demoted, it shrinks; gone, it stops', async () => {
    const admin = await scene.member('ADMIN');
    const { key } = await makeKey(
      { permissions: ['organization.members.read', 'organization.activities.read'] },
      admin,
    );
    const activities = `/v1/organizations/${scene.orgId}/activities/`;
    expect((await withKey(key, 'GET', activities)).statusCode).toBe(200);
    const demote = await scene.send(
      'PUT',
      `/v1/organizations/${scene.orgId}/users/${admin.id}/role/`,
      scene.people.OWNER,
      { role: 'STAFF' },
    );
    expect(demote.statusCode, demote.body).toBe(200);
    expect((await withKey(key, 'GET', activities)).statusCode).toBe(403); // STAFF may not
    expect((await withKey(key, 'GET', membersUrl())).statusCode).toBe(200); // STAFF may
    const removed = await scene.send(
      'DELETE',
      `/v1/organizations/${scene.orgId}/users/${admin.id}/`,
      scene.people.OWNER,
    );
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    await new Promise((r) => setTimeout(r, KEY_TRUST_MS + 50));
    const stopped = await withKey(key, 'GET', membersUrl());
    expect(stopped.statusCode).toBe(401);
    expect(stopped.json().message).toContain('can no longer act');
  });

  it('refuses a revoked key on another instance within a second, and an expired one', async () => {
    const b = await startAnotherInstance(t);
    try {
      const { id, key } = await makeKey();
      const onB = () => b.app.inject({ method: 'GET', url: membersUrl(), headers: bearer(key) });
      expect((await onB()).statusCode).toBe(200); // B now holds it
      await scene.send('DELETE', `${keysUrl()}${id}/`, scene.people.OWNER);
      const revokedAt = Date.now();
      let status = 200;
      while (status === 200 && Date.now() - revokedAt < 2_000) {
        status = (await onB()).statusCode;
        if (status === 200) await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe(401);
      expect(Date.now() - revokedAt).toBeLessThan(1_000);
    } finally {
      await b.close();
    }
    const expiring = await makeKey({
      expires_at: new Date(t.clock.now().getTime() + 60_000).toISOString(),
    });
    expect((await withKey(expiring.key, 'GET', membersUrl())).statusCode).toBe(200);
    t.clock.advance(61_000);
    expect((await withKey(expiring.key, 'GET', membersUrl())).statusCode).toBe(401);
  });

  it('records its use, its creation and revocation, and is never stored in clear', async () => {
    const { id, key } = await makeKey({ name: 'Audit me' });
    const used = await t.app.inject({
      method: 'GET',
      url: membersUrl(),
      headers: bearer(key),
      remoteAddress: '203.0.113.9',
    });
    expect(used.statusCode).toBe(200);
    await t.ctx.apiKeys.settled();
    const listed = (await scene.send('GET', keysUrl(), scene.people.OWNER))
      .json()
      .results.find((k: { id: string }) => k.id === id);
    expect(listed.last_used_ip).toBe('203.0.113.9');
    expect(listed.last_used_at).not.toBeNull();
    await scene.send('DELETE', `${keysUrl()}${id}/`, scene.people.OWNER);

    const log = await scene.send(
      'GET',
      `/v1/organizations/${scene.orgId}/activities/?limit=50`,
      scene.people.OWNER,
    );
    const actions = log
      .json()
      .results.filter((a: { data: { api_key_id?: string } }) => a.data.api_key_id === id)
      .map((a: { action: string }) => a.action);
    expect(actions.sort()).toEqual(['CREATE_API_KEY', 'REVOKE_API_KEY']);
    const events = await t.ctx.db.execute(
      sql`select type from events where subject = ${`api_key:${id}`} order by seq`,
    );
    expect((events as unknown as { rows: { type: string }[] }).rows.map((r) => r.type)).toEqual([
      'api_key.created',
      'api_key.revoked',
    ]);

    // Every table, every row, as text: the key appears nowhere.
    const secretPart = key.slice(API_KEY_PREFIX.length);
    let scanned = 0;
    for (const table of Object.values(schema)) {
      if (!table || typeof table !== 'object' || !(Symbol.for('drizzle:IsDrizzleTable') in table))
        continue;
      const name = getTableConfig(table as never).name;
      scanned++;
      const rows = await t.ctx.db.execute(
        sql`select t::text as row from ${sql.identifier(name)} t`,
      );
      for (const { row } of (rows as unknown as { rows: { row: string }[] }).rows) {
        expect(row.includes(secretPart), `${name} holds the key`).toBe(false);
      }
    }
    expect(scanned).toBeGreaterThan(40);
  });

  it('limits each key per minute, with Retry-After', async () => {
    const { key } = await makeKey();
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => withKey(key, 'GET', membersUrl())),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    const limited = answers.find((r) => r.statusCode === 429)!;
    expect(limited.json().code).toBe(ErrorCode.RATE_LIMITED);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(60_000);
    expect((await withKey(key, 'GET', membersUrl())).statusCode).toBe(200);
  });

  it(`holds ${MAX_API_KEYS_PER_ORGANIZATION} live keys at most`, async () => {
    // Expired keys are listed (to be seen and revoked) but hold no place.
    const now = t.clock.now().getTime();
    const listed = (await scene.send('GET', keysUrl(), scene.people.OWNER))
      .json()
      .results.filter(
        (k: { expires_at: string | null }) => !k.expires_at || Date.parse(k.expires_at) > now,
      ).length as number;
    const room = MAX_API_KEYS_PER_ORGANIZATION - listed;
    const answers = await Promise.all(
      Array.from({ length: room + 5 }, (_, i) =>
        scene.send('POST', keysUrl(), scene.people.OWNER, {
          name: `k${i}`,
          permissions: ['organization.read'],
        }),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(room);
    const refused = answers.filter((r) => r.statusCode === 409);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.json().code).toBe(ErrorCode.API_KEY_LIMIT);
    // One place again for the next test.
    const some = answers.find((r) => r.statusCode === 201)!.json().id as string;
    expect(
      (await scene.send('DELETE', `${keysUrl()}${some}/`, scene.people.OWNER)).statusCode,
    ).toBe(204);
  });

  // Last: it moves the clock past every session's step-up window.
  it('asks for a step-up to create a key, not to list or revoke one; a key never passes one', async () => {
    const { id, key } = await makeKey({ permissions: ['organization.billing'] });
    const card = await withKey(
      key,
      'POST',
      `/v1/organizations/${scene.orgId}/payment-methods/checkout/`,
      {},
    );
    expect(card.statusCode).toBe(403);
    expect(card.json().message).toContain('API key');
    t.clock.advance(STALE_MS);
    const res = await scene.send('POST', keysUrl(), scene.people.OWNER, {
      name: 'x',
      permissions: ['organization.read'],
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(ErrorCode.STEP_UP_REQUIRED);
    expect((await scene.send('GET', keysUrl(), scene.people.OWNER)).statusCode).toBe(200);
    expect((await scene.send('DELETE', `${keysUrl()}${id}/`, scene.people.OWNER)).statusCode).toBe(
      204,
    );
  });
});
