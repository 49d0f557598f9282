// engine-parity: branches on the engine
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import {
  createTestApp,
  registerActiveUser,
  signIn,
  type TestApp,
} from '../../../test/support/app.ts';
import { createPostgresDatabaseCopy, testEngine } from '../../../test/support/database.ts';
import { observeStatements } from '../../../test/support/statements.ts';

/**
 * Two instances of the app on one database (on PostgreSQL each with a pool and a listener of its
 * own, as two servers would have; on PGlite two apps on the one in-process database), and, on
 * PostgreSQL, a third connection standing for a script: whatever changes a session or user, every
 * instance's cache lets go of it.
 */
describe('the session cache', () => {
  let a: TestApp;
  let b: TestApp;
  /** Another client of the database, as a script or an administrator's psql would be. */
  let outside: Database;
  let dropCopy: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const env = { JWT_SECRET: crypto.randomBytes(32).toString('hex') };
    if (testEngine === 'postgres') {
      const copy = await createPostgresDatabaseCopy();
      dropCopy = copy.drop;
      a = await createTestApp(env, { database: openPostgres(copy.url, { max: 3 }) });
      b = await createTestApp(env, { database: openPostgres(copy.url, { max: 3 }) });
      outside = openPostgres(copy.url, { max: 1 });
    } else {
      a = await createTestApp(env);
      b = await createTestApp(env, { database: a.ctx.database });
      outside = a.ctx.database;
    }
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    if (dropCopy) {
      await Promise.all([a.ctx.database, b.ctx.database, outside].map((d) => d.close()));
      await dropCopy();
    }
  });

  const me = (t: TestApp, token: string) =>
    t.app.inject({
      method: 'GET',
      url: '/v1/rest-auth/user/',
      headers: { authorization: `Bearer ${token}` },
    });

  /** Milliseconds until `t` answers `status` for the token; fails after two seconds. */
  async function untilAnswered(t: TestApp, token: string, status: number): Promise<number> {
    const started = performance.now();
    for (;;) {
      if ((await me(t, token)).statusCode === status) return performance.now() - started;
      if (performance.now() - started > 2_000) throw new Error(`never answered ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async function signedIn(t: TestApp) {
    const user = await registerActiveUser(t);
    return { ...user, token: await signIn(t, user.email, user.password) };
  }

  it('authenticates a repeated request without a statement', async () => {
    const { token } = await signedIn(a);
    await a.ctx.sessions.ready;
    // The sign-in's own changes are announced a moment after its answer (later on a loaded
    // machine), and a load that races an announcement is not held: the session is held from
    // the first request after they arrive. Ask until one runs no statement (within two seconds);
    // a cache that never holds fails here.
    const log = observeStatements(a.ctx.database);
    try {
      const started = performance.now();
      for (;;) {
        log.reset();
        expect((await me(a, token)).statusCode).toBe(200);
        if (log.statements.length === 0) break;
        expect(performance.now() - started, 'the session was never held').toBeLessThan(2_000);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect((await me(a, token)).statusCode).toBe(200);
      expect(log.statements.join('\n')).toBe('');
    } finally {
      log.restore();
    }
  });

  it('refuses on every instance, within a second, a session signed out through one', async () => {
    const { token } = await signedIn(a);
    expect((await me(a, token)).statusCode).toBe(200);
    expect((await me(b, token)).statusCode).toBe(200);
    const out = await a.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/logout/',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(out.statusCode).toBe(200);
    // The instance that signed out knows at once; the other as soon as the database tells it.
    expect((await me(a, token)).statusCode).toBe(401);
    expect(await untilAnswered(b, token, 401)).toBeLessThan(1_000);
  });

  it('refuses on every instance a token retired by two refreshes within one second', async () => {
    const { token: first } = await signedIn(a);
    expect((await me(b, first)).statusCode).toBe(200); // b holds the session
    const refresh = async (token: string) => {
      const res = await a.app.inject({
        method: 'POST',
        url: '/v1/rest-auth/app/jwt-refresh/',
        payload: { token },
      });
      expect(res.statusCode).toBe(200);
      return res.json().token as string;
    };
    // Same clock reading: all three tokens carry the same `iat`.
    const second = await refresh(first);
    const third = await refresh(second);
    // The first is neither current nor in a grace: refused at once here, within a second there.
    expect((await me(a, first)).statusCode).toBe(401);
    expect(await untilAnswered(b, first, 401)).toBeLessThan(1_000);
    expect((await me(b, second)).statusCode).toBe(200); // the replaced one, in its grace
    b.clock.advance(11_000);
    expect((await me(b, second)).statusCode).toBe(401);
    expect((await me(b, third)).statusCode).toBe(200);
  });

  it('refuses everywhere a user disabled by another client of the database', async () => {
    const { email, token } = await signedIn(a);
    expect((await me(a, token)).statusCode).toBe(200);
    expect((await me(b, token)).statusCode).toBe(200);
    await outside.db.update(users).set({ enabled: false }).where(eq(users.email, email));
    expect(await untilAnswered(a, token, 401)).toBeLessThan(1_000);
    expect(await untilAnswered(b, token, 401)).toBeLessThan(1_000);
  });

  it('shows a profile change at once on the instance that made it, and soon on the other', async () => {
    const { token } = await signedIn(a);
    expect((await me(a, token)).json().first_name).toBe('Test');
    expect((await me(b, token)).json().first_name).toBe('Test');
    const changed = await b.app.inject({
      method: 'PATCH',
      url: '/v1/rest-auth/user/',
      headers: { authorization: `Bearer ${token}` },
      payload: { first_name: 'Renamed' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await me(b, token)).json().first_name).toBe('Renamed');
    const started = performance.now();
    while ((await me(a, token)).json().first_name !== 'Renamed') {
      expect(performance.now() - started).toBeLessThan(1_000);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
});
