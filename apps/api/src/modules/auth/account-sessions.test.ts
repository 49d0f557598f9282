// engine-parity: twenty or more requests at once (50 sign-outs of one session)
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, sessionListResponseSchema, type AccountSession } from '@portolan/contract';
import {
  bearer,
  createTestApp,
  registerActiveUser,
  STRONG_PASSWORD,
  type TestApp,
} from '../../../test/support/app.ts';
import { describeUserAgent } from '../../lib/user-agent.ts';

const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const LAPTOP =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

/**
 * Issue 20 item 6: the account's sessions. GET /v1/user/sessions/ lists where the account is
 * signed in (device and browser from the User-Agent, address, sign-in, last activity, which one is
 * asking); DELETE /v1/user/sessions/{id}/ signs one out; POST …/revoke-others/ all but this one.
 * Only the caller's own live sessions are ever named. Runs on both engines.
 */
describe('the account sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A new account and a sign-in from `userAgent`; the activation's own session is signed out. */
  async function account() {
    const { email } = await registerActiveUser(t);
    const first = await signInFrom(email, LAPTOP);
    const others = await t.app.inject({
      method: 'POST',
      url: '/v1/user/sessions/revoke-others/',
      headers: bearer(first),
    });
    expect(others.json()).toMatchObject({ revoked: 1 });
    return { email, token: first };
  }
  async function signInFrom(email: string, userAgent: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/app/login/',
      headers: { 'user-agent': userAgent },
      payload: { email, password: STRONG_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    return res.json().token as string;
  }
  const sid = (token: string) => String(decodeJwt(token).sid);
  const list = async (token: string, query = '') => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/user/sessions/${query}`,
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    return sessionListResponseSchema.parse(res.json());
  };
  const revoke = (token: string, id: string) =>
    t.app.inject({ method: 'DELETE', url: `/v1/user/sessions/${id}/`, headers: bearer(token) });
  const me = (token: string) =>
    t.app.inject({ method: 'GET', url: '/v1/rest-auth/user/', headers: bearer(token) });

  it('lists the live sessions with device, browser, address and which one asks', async () => {
    const { email, token: laptop } = await account();
    t.clock.advance(60_000);
    const phone = await signInFrom(email, PHONE);
    const page = await list(laptop);
    expect(page.count).toBe(2);
    // The most recently active first: the phone signed in a minute later.
    expect(page.results.map((s) => s.id)).toEqual([sid(phone), sid(laptop)]);
    expect(page.results[0]).toMatchObject({
      device: 'mobile',
      browser: 'Safari 17',
      os: 'iOS 17.4',
      ip: '127.0.0.1',
      current: false,
    } satisfies Partial<AccountSession>);
    expect(page.results[1]).toMatchObject({
      device: 'desktop',
      browser: 'Chrome 156',
      os: 'macOS Catalina',
      current: true,
    });
    expect((await list(phone)).results.map((s) => s.current)).toEqual([true, false]);
  });

  it('keeps last activity to 5 minutes, and orders by it', async () => {
    const { email, token: laptop } = await account();
    t.clock.advance(60_000);
    const phone = await signInFrom(email, PHONE);
    t.clock.advance(10 * 60_000);
    const used = t.clock.now().toISOString();
    expect((await me(laptop)).statusCode).toBe(200);
    await t.ctx.lastActive.settled();
    // Within 5 minutes a request writes nothing: the listing (by the laptop) keeps `used`.
    t.clock.advance(4 * 60_000);
    const page = await list(laptop);
    expect(page.results.map((s) => [s.id, s.last_active_at])).toEqual([
      [sid(laptop), used],
      [sid(phone), (await list(laptop)).results[1]!.created_at],
    ]);
  });

  it('leaves out sessions signed out, idle past their token, or past 30 days', async () => {
    const { email, token } = await account();
    const out = await signInFrom(email, PHONE);
    await t.app.inject({ method: 'POST', url: '/v1/rest-auth/logout/', headers: bearer(out) });
    expect((await list(token)).results.map((s) => s.id)).toEqual([sid(token)]);

    // Idle: no refresh within its token's 12 hours. A refreshed one stays.
    const idle = await signInFrom(email, PHONE);
    t.clock.advance(11 * 3600_000);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/app/jwt-refresh/',
      payload: { token },
    });
    expect(refreshed.statusCode).toBe(200);
    const fresh = refreshed.json().token as string;
    t.clock.advance(2 * 3600_000);
    const page = await list(fresh);
    expect(page.results.map((s) => s.id)).toEqual([sid(token)]);
    expect(page.results.map((s) => s.id)).not.toContain(sid(idle));
  });

  it('signs out one session: its token is refused at once; the current one is signing out', async () => {
    const { email, token } = await account();
    const phone = await signInFrom(email, PHONE);
    const res = await revoke(token, sid(phone));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: 'The session was signed out.' });
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(token)).statusCode).toBe(200);
    // Again: it is no longer open.
    expect((await revoke(token, sid(phone))).json()).toMatchObject({ code: ErrorCode.NOT_FOUND });

    const own = await revoke(token, sid(token));
    expect(own.json()).toEqual({ detail: 'Signed out.' });
    expect((await me(token)).statusCode).toBe(401);
  });

  it('signs out every other session and keeps this one', async () => {
    const { email, token } = await account();
    const others = [await signInFrom(email, PHONE), await signInFrom(email, PHONE)];
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/user/sessions/revoke-others/',
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: '2 other sessions signed out.', revoked: 2 });
    for (const other of others) expect((await me(other)).statusCode).toBe(401);
    expect((await list(token)).results.map((s) => s.id)).toEqual([sid(token)]);
  });

  it('never names or ends another account’s session: 404, and it goes on', async () => {
    const alice = await account();
    const bob = await account();
    const res = await revoke(alice.token, sid(bob.token));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: ErrorCode.NOT_FOUND });
    expect((await me(bob.token)).statusCode).toBe(200);
    expect((await list(alice.token)).results.map((s) => s.id)).toEqual([sid(alice.token)]);
    const unknown = await revoke(alice.token, '00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    // Revoking the others of one account leaves the other account alone.
    await t.app.inject({
      method: 'POST',
      url: '/v1/user/sessions/revoke-others/',
      headers: bearer(alice.token),
    });
    expect((await me(bob.token)).statusCode).toBe(200);
  });

  it('answers 401 without a session, and changes nothing', async () => {
    const { token } = await account();
    for (const [method, url] of [
      ['GET', '/v1/user/sessions/'],
      ['POST', '/v1/user/sessions/revoke-others/'],
      ['DELETE', `/v1/user/sessions/${sid(token)}/`],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect([url, res.statusCode]).toEqual([url, 401]);
      expect(res.json()).toMatchObject({ code: ErrorCode.NOT_AUTHENTICATED });
    }
    expect((await me(token)).statusCode).toBe(200);
  });

  it('names the field of bad input (400)', async () => {
    const { token } = await account();
    const badId = await revoke(token, 'not-a-session');
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
    expect(JSON.stringify(badId.json())).toContain('id');
    for (const query of ['?limit=0', '?limit=101', '?page=0', '?colour=red']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v1/user/sessions/${query}`,
        headers: bearer(token),
      });
      expect([query, res.statusCode]).toEqual([query, 400]);
    }
  });

  it('pages the list', async () => {
    const { email, token } = await account();
    for (let i = 0; i < 2; i++) await signInFrom(email, PHONE);
    const first = await list(token, '?limit=2');
    expect(first).toMatchObject({ count: 3, next: 2, previous: null });
    expect(first.results).toHaveLength(2);
    const second = await list(token, '?limit=2&page=2');
    expect(second).toMatchObject({ count: 3, next: null, previous: 1 });
    expect(second.results).toHaveLength(1);
    expect(await list(token, '?limit=2&page=9')).toMatchObject({ count: 3, results: [] });
  });

  it('ends a session once when 50 ask at once', async () => {
    const { email, token } = await account();
    const phone = await signInFrom(email, PHONE);
    const answers = await Promise.all(Array.from({ length: 50 }, () => revoke(token, sid(phone))));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 404)).toHaveLength(49);
  });

  it('reads device, browser and system from User-Agents, and says unknown otherwise', () => {
    expect(describeUserAgent(null)).toEqual({ device: 'unknown', browser: null, os: null });
    expect(describeUserAgent('curl/8.5.0')).toMatchObject({ device: 'unknown', os: null });
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
      ),
    ).toEqual({ device: 'mobile', browser: 'Chrome 156', os: 'Android 14' });
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
      ),
    ).toEqual({ device: 'desktop', browser: 'Firefox 133', os: 'Windows 10' });
  });
});
