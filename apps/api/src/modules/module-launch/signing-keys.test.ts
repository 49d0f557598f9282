// engine-parity: locking: instances starting together make one current key (a transaction-level advisory lock)
import crypto from 'node:crypto';
import type { ModuleLaunch } from '@portolan/contract';
import { isNull } from 'drizzle-orm';
import { createLocalJWKSet, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, signIn, type TestApp } from '../../../test/support/app.ts';
import { createTestDatabase } from '../../../test/support/database.ts';
import { signingKeys } from '../../db/schema/index.ts';
import {
  createClient,
  createOrganization,
  createUser,
  FACTORY_PASSWORD,
} from '../../seed/factories.ts';
import { pruneSigningKeys } from './prune.ts';
import { runKeysCommand } from './keys-command.ts';
import { ensureSigningKey, RETIRED_KEY_PUBLISHED_MS } from './signing-keys.ts';

/**
 * The keys that sign launch tokens: made at start (one, however many instances start at once),
 * published without their private half, rotated by `npm run keys:rotate` with the old key kept
 * in the JWKS until its tokens have expired, then pruned.
 */
describe('the launch signing keys', () => {
  let t: TestApp;
  let token: string;
  let workspace: string;

  beforeAll(async () => {
    t = await createTestApp();
    const owner = await createUser(t.ctx.db);
    const org = await createOrganization(t.ctx.db, { ownerId: owner.id });
    workspace = (await createClient(t.ctx.db, { organizationId: org.id, ownerId: owner.id })).id;
    token = await signIn(t, owner.email, FACTORY_PASSWORD);
  });
  afterAll(() => t.close());

  const jwks = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  const kids = async () =>
    ((await jwks()).json() as { keys: { kid: string }[] }).keys.map((k) => k.kid);
  const launch = async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/clients/${workspace}/modules/TR/launch/`,
      headers: bearer(token),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ModuleLaunch;
  };
  const verify = async (jwt: string) =>
    jwtVerify(jwt, createLocalJWKSet((await jwks()).json()), {
      issuer: t.ctx.config.publicUrl,
      audience: 'portolan-module:TR',
      currentDate: t.clock.now(),
    });

  it('publishes the key made at start: public half only, for a few minutes of caching', async () => {
    const res = await jwks();
    const maxAge = Number(/max-age=(\d+)/.exec(res.headers['cache-control'] as string)?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(300);
    const { keys } = res.json() as { keys: Record<string, string>[] };
    expect(keys).toHaveLength(1);
    expect(Object.keys(keys[0]!).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
    expect(keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(keys[0]!.kid).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // Unconfigured, the module's home stays in Portolan: no URL, nothing launchable.
    expect((await launch()).url).toBeNull();
    const config = await t.app.inject({ method: 'GET', url: '/v1/config' });
    expect(config.json().launchable_modules).toEqual([]);
  });

  it('keeps the private key sealed, bound to its kid', async () => {
    const [row] = await t.ctx.db.select().from(signingKeys);
    expect(row!.private_jwk).toMatch(/^v1\./);
    expect(row!.private_jwk).not.toContain('"d"');
    const opened = JSON.parse(t.ctx.secretBox.open(row!.private_jwk, row!.kid).toString());
    expect(opened).toMatchObject({ kty: 'EC', crv: 'P-256', d: expect.any(String) });
    expect(() => t.ctx.secretBox.open(row!.private_jwk, 'another-kid')).toThrow();
  });

  it('rotates: old tokens verify until they expire, new ones carry the new kid; then the old key goes', async () => {
    const before = await launch();
    const oldKid = decodeProtectedHeader(before.token).kid!;
    expect(await kids()).toEqual([oldKid]);

    const lines = await runKeysCommand(t.ctx);
    const newKid = lines[0]!;
    expect(newKid).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(newKid).not.toBe(oldKid);
    expect(lines.join('\n')).toContain(`Retired ${oldKid}`);
    expect(await kids()).toEqual([newKid, oldKid]);
    const current = await t.ctx.db.select().from(signingKeys).where(isNull(signingKeys.retired_at));
    expect(current.map((k) => k.kid)).toEqual([newKid]);

    // Signed before the rotation: still verifies against the JWKS after it.
    expect((await verify(before.token)).protectedHeader.kid).toBe(oldKid);
    const after = await launch();
    expect((await verify(after.token)).protectedHeader.kid).toBe(newKid);

    // Published until the token lifetime and a minute have passed since the retirement.
    t.clock.advance(RETIRED_KEY_PUBLISHED_MS - 1_000);
    expect(await kids()).toEqual([newKid, oldKid]);
    expect(await pruneSigningKeys(t.ctx.db, t.clock.now())).toBe(0);
    t.clock.advance(2_000);
    expect(await kids()).toEqual([newKid]);
    await expect(
      jwtVerify(before.token, createLocalJWKSet((await jwks()).json()), {
        currentDate: new Date(before.expires_at),
      }),
    ).rejects.toBeInstanceOf(errors.JWKSNoMatchingKey);
    // The pruning job deletes it; the current key stays.
    expect(await pruneSigningKeys(t.ctx.db, t.clock.now())).toBe(1);
    const left = await t.ctx.db.select({ kid: signingKeys.kid }).from(signingKeys);
    expect(left.map((k) => k.kid)).toEqual([newKid]);
  });

  it('makes one current key when several ask at once on a database without one', async () => {
    await t.ctx.db.delete(signingKeys);
    const made = await Promise.all(Array.from({ length: 6 }, () => ensureSigningKey(t.ctx)));
    expect(made.filter(Boolean)).toHaveLength(1);
    expect(await t.ctx.db.select().from(signingKeys)).toHaveLength(1);
    // Launching on a database that lost its keys makes one rather than failing.
    await t.ctx.db.delete(signingKeys);
    const { token: jwt } = await launch();
    expect((await verify(jwt)).protectedHeader.kid).toBe((await kids())[0]);
  });

  it('ends with one current key when two instances start at once on one database', async () => {
    const database = await createTestDatabase();
    const env = {
      JWT_SECRET: crypto.randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
    };
    const [a, b] = await Promise.all([
      createTestApp(env, { database }),
      createTestApp(env, { database }),
    ]);
    try {
      const rows = await a.ctx.db.select().from(signingKeys);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.retired_at).toBeNull();
      for (const app of [a, b]) {
        const res = await app.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
        expect(res.json().keys.map((k: { kid: string }) => k.kid)).toEqual([rows[0]!.kid]);
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
      await database.close();
    }
  });
});
