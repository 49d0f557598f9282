import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import {
  bearer,
  createTestApp,
  registerActiveUser,
  signIn,
  uniqueEmail,
  type TestApp,
} from '../../../test/support/app.ts';

describe('GET /v1/user/is-existed/', () => {
  let t: TestApp;
  let token: string;
  let known: string;
  beforeAll(async () => {
    t = await createTestApp();
    const caller = await registerActiveUser(t);
    token = await signIn(t, caller.email, caller.password);
    known = (await registerActiveUser(t)).email;
  });
  afterAll(() => t.close());

  let ipCounter = 0;
  const nextIp = () => `10.2.0.${++ipCounter}`;
  const lookup = (query: string, headers: Record<string, string> = bearer(token), ip = nextIp()) =>
    t.app.inject({
      method: 'GET',
      url: `/v1/user/is-existed/${query}`,
      headers,
      remoteAddress: ip,
    });

  it('answers 200 for an e-mail with an account, whatever its case', async () => {
    for (const email of [known, known.toUpperCase(), ` ${known} `]) {
      const res = await lookup(`?email=${encodeURIComponent(email)}`);
      expect(res.statusCode, email).toBe(200);
      expect(res.json()).toEqual({ detail: expect.any(String) });
    }
  });

  it('answers 404 NOT_FOUND for an e-mail without one', async () => {
    const res = await lookup(`?email=${encodeURIComponent(uniqueEmail('nobody'))}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: ErrorCode.NOT_FOUND, message: expect.any(String) });
  });

  it('answers 400 naming the field for a bad or missing e-mail or an unknown parameter', async () => {
    for (const [query, field] of [
      ['?email=not-an-email', 'email'],
      ['?email=', 'email'],
      ['', 'email'],
      [`?email=${encodeURIComponent(known)}&admin=1`, 'admin'],
    ] as const) {
      const res = await lookup(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe(ErrorCode.VALIDATION_ERROR);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });

  it('answers 401 to a caller without a valid token, before looking at the query', async () => {
    for (const headers of [{}, bearer('garbage'), { authorization: token }]) {
      for (const query of [`?email=${encodeURIComponent(known)}`, '?email=bad']) {
        const res = await lookup(query, headers);
        expect(res.statusCode).toBe(401);
        expect(res.json().code).toBe(ErrorCode.NOT_AUTHENTICATED);
      }
    }
  });

  it('limits each signed-in user to 30 look-ups a minute, from any address', async () => {
    const other = await registerActiveUser(t);
    const otherToken = await signIn(t, other.email, other.password);
    const q = `?email=${encodeURIComponent(known)}`;
    for (let i = 0; i < 30; i++) {
      expect((await lookup(q, bearer(otherToken))).statusCode).toBe(200);
    }
    const limited = await lookup(q, bearer(otherToken));
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ code: ErrorCode.RATE_LIMITED, message: expect.any(String) });
    // Another user is not affected.
    expect((await lookup(q)).statusCode).toBe(200);
  });

  it('limits each address to 30 look-ups a minute, whoever asks', async () => {
    const a = await registerActiveUser(t);
    const b = await registerActiveUser(t);
    const tokens = [await signIn(t, a.email, a.password), await signIn(t, b.email, b.password)];
    const q = `?email=${encodeURIComponent(known)}`;
    const ip = '10.2.1.1';
    for (let i = 0; i < 30; i++) {
      expect((await lookup(q, bearer(tokens[i % 2]!), ip)).statusCode).toBe(200);
    }
    const limited = await lookup(q, bearer(tokens[0]!), ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe(ErrorCode.RATE_LIMITED);
    // Even without a token, the address is limited before anything else is looked at.
    expect((await lookup(q, {}, ip)).statusCode).toBe(429);
    // The same users from elsewhere are fine.
    expect((await lookup(q, bearer(tokens[0]!))).statusCode).toBe(200);
  });
});
