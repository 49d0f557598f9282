import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import { startAnotherInstance, type AnotherInstance } from '../../test/support/another-instance.ts';
import { createTestApp, uniqueEmail, type TestApp } from '../../test/support/app.ts';
import { buildApp } from '../app.ts';
import type { App } from '../context.ts';
import { openPostgres } from '../db/client.ts';

const rateLimited = { code: ErrorCode.RATE_LIMITED, message: expect.any(String) };

/** The per-address limits of the routes used here (modules/auth/routes.ts, password-routes.ts). */
const REGISTRATION_MAX = 20;
const RESET_MAX = 10;
const WINDOW_MS = 15 * 60_000;

/**
 * Registration is closed in these apps: a request let through answers 403 at once, with no
 * password hashing, so many of them cost little.
 */
const CLOSED = { FEATURE_REGISTRATION: 'false' };
const register = (app: App, ip: string) =>
  app.inject({
    method: 'POST',
    url: '/v1/rest-auth/registration/',
    remoteAddress: ip,
    payload: {
      email: uniqueEmail(),
      password1: 'Correct horse battery 42',
      password2: 'Correct horse battery 42',
      first_name: 'Rate',
      last_name: 'Limited',
    },
  });
// An unknown account each time, so the per-account lockout never answers first.
const signIn = (app: App, ip: string) =>
  app.inject({
    method: 'POST',
    url: '/v1/rest-auth/app/login/',
    remoteAddress: ip,
    payload: { email: uniqueEmail('guess'), password: 'guessing 123' },
  });
const askReset = (app: App, ip: string) =>
  app.inject({
    method: 'POST',
    url: '/v1/rest-auth/password/reset/',
    remoteAddress: ip,
    payload: { email: uniqueEmail('reset') },
  });

describe('rate limits shared by two instances on one database', () => {
  let t: TestApp;
  let other: AnotherInstance;
  let a: App;
  let b: App;
  beforeAll(async () => {
    t = await createTestApp(CLOSED);
    other = await startAnotherInstance(t, CLOSED);
    a = t.app;
    b = other.app;
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  it('lets exactly the limit of requests sent at once from one address through both; other routes and addresses count apart', async () => {
    const ip = '10.60.0.1';
    const n = 50;
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) => register(i % 2 ? a : b, ip)),
    );
    const passed = answers.filter(
      (r) => r.statusCode === 403 && r.json().code === ErrorCode.FEATURE_DISABLED,
    );
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(passed).toHaveLength(REGISTRATION_MAX);
    expect(refused).toHaveLength(n - REGISTRATION_MAX);
    for (const r of refused) expect(r.json()).toEqual(rateLimited);
    // Counted once per request: the one row holds every hit.
    const row = await t.ctx.db.query.rateLimits.findFirst({
      where: (limits, { eq }) => eq(limits.key, `POST /v1/rest-auth/registration/|${ip}`),
    });
    expect(row?.hits).toBe(n);

    // Other routes from this address (one with a lower limit than the hits so far), and this
    // route from another address, have counters of their own.
    expect((await askReset(a, ip)).statusCode).toBe(200);
    expect((await signIn(b, ip)).statusCode).toBe(400);
    expect((await register(a, '10.60.0.2')).statusCode).toBe(403);
  });

  it('starts a new window once the window has passed, on every instance', async () => {
    const ip = '10.60.2.1';
    for (let i = 0; i < RESET_MAX; i++) await askReset(a, ip);
    const refused = await askReset(b, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe(String(WINDOW_MS / 1000));

    // Both instances read the one test clock (as servers kept on time by NTP).
    t.clock.advance(WINDOW_MS - 1);
    const last = await askReset(a, ip);
    expect(last.statusCode).toBe(429);
    expect(last.headers['retry-after']).toBe('1');

    t.clock.advance(1);
    expect((await askReset(b, ip)).statusCode).toBe(200);
    expect((await askReset(a, ip)).statusCode).toBe(200);
  });

  it('counts limiters made with createRateLimit apart, and reads one without counting', async () => {
    // A request as the plugin reads it: its address and its route's config.
    const request = { ip: '10.60.3.1', routeOptions: { config: {} } } as FastifyRequest;
    const first = a.createRateLimit({ max: 2, timeWindow: 60_000 });
    const second = a.createRateLimit({ max: 2, timeWindow: 60_000 });
    for (let i = 0; i < 3; i++) await first(request);
    expect(await first(request, { increment: false })).toMatchObject({
      isExceeded: true,
      remaining: 0,
      ttl: 60_000,
    });
    expect(await first(request, { increment: false })).toMatchObject({ isExceeded: true });
    expect(await second(request, { increment: false })).toMatchObject({ remaining: 2, ttl: 0 });
    expect(await second(request)).toMatchObject({ isExceeded: false, remaining: 1 });
  });

  it('answers 503 in the error shape when the database is out of reach, not 500 and not past the limit', async () => {
    // Nothing listens on port 1: every statement fails to connect, at once.
    const unreachable = openPostgres('postgres://postgres@127.0.0.1:1/portolan', {
      log: { warn: () => {} },
    });
    // Registration closed answers 403 without the database: a store that failed open would let
    // the request through to that answer.
    const down = await buildApp(
      // Start-up waits this long for the bell's first LISTEN, which cannot come.
      { ...t.ctx.config, databaseConnectTimeoutMs: 100 },
      { database: unreachable, clock: t.clock },
    );
    try {
      const res = await register(down, '10.61.0.1');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        code: ErrorCode.SERVICE_UNAVAILABLE,
        message: expect.any(String),
      });
    } finally {
      await down.close();
      await unreachable.close();
    }
  });
});
