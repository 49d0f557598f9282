import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import {
  bearer,
  createTestApp,
  registerActiveUser,
  signIn,
  STRONG_PASSWORD,
  uniqueEmail,
  type TestApp,
} from '../../../test/support/app.ts';
import { users } from '../../db/schema/index.ts';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const parts = (token: string) => {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  return {
    header,
    payload: JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>,
    signature,
  };
};

/**
 * Every way a token can be wrong, on a protected endpoint: each answers 401 NOT_AUTHENTICATED,
 * and the same request with the genuine token answers 200.
 */
describe('forged and dead tokens on a protected endpoint', () => {
  let t: TestApp;
  let email: string;
  let userId: string;
  let genuine: string;
  beforeAll(async () => {
    t = await createTestApp();
    ({ email } = await registerActiveUser(t));
    genuine = await signIn(t, email, STRONG_PASSWORD);
    userId = decodeJwt(genuine).sub!;
  });
  afterAll(() => t.close());

  const me = (headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/v1/rest-auth/user/', headers });
  const expect401 = async (headers: Record<string, string>) => {
    const res = await me(headers);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: ErrorCode.NOT_AUTHENTICATED, message: expect.any(String) });
    // Nothing of the account leaks into the refusal.
    expect(res.body).not.toContain(email);
  };

  it('accepts the genuine token (the control)', async () => {
    const res = await me(bearer(genuine));
    expect(res.statusCode).toBe(200);
    expect(res.json().email).toBe(email);
  });

  it('refuses no Authorization header', async () => {
    await expect401({});
  });

  it('refuses malformed headers', async () => {
    for (const authorization of [
      genuine,
      'Bearer',
      'Bearer ',
      `Basic ${Buffer.from(`${email}:${STRONG_PASSWORD}`).toString('base64')}`,
      `Bearer ${genuine} extra`,
      `Token ${genuine}`,
    ]) {
      await expect401({ authorization });
    }
  });

  it('refuses garbage tokens', async () => {
    for (const token of [
      'garbage',
      'a.b.c',
      '...',
      `${genuine}x`,
      genuine.split('.').slice(0, 2).join('.'),
    ]) {
      await expect401(bearer(token));
    }
  });

  it('refuses an alg "none" token with genuine claims', async () => {
    const { payload } = parts(genuine);
    for (const alg of ['none', 'None', 'NONE']) {
      await expect401(bearer(`${b64({ alg, typ: 'JWT' })}.${b64(payload)}.`));
    }
    // ... and one that keeps the genuine signature but claims "none".
    const { signature } = parts(genuine);
    await expect401(bearer(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.${signature}`));
  });

  it('refuses a token signed with another key', async () => {
    const { payload } = parts(genuine);
    const forged = await new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(crypto.randomBytes(32));
    await expect401(bearer(forged));
  });

  it('refuses a token of another algorithm (HS512 with the right claims)', async () => {
    const { payload } = parts(genuine);
    const forged = await new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS512', typ: 'JWT' })
      .sign(t.ctx.jwtKey);
    await expect401(bearer(forged));
  });

  it('refuses a token made for another audience (an activation token)', async () => {
    const reg = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/registration/',
      payload: {
        email: uniqueEmail('aud'),
        password1: STRONG_PASSWORD,
        password2: STRONG_PASSWORD,
        first_name: 'Aud',
        last_name: 'Ience',
      },
    });
    expect(reg.statusCode).toBe(201);
    const activation = reg.json().token as string;
    expect(decodeJwt(activation).aud).toBe('portolan:activation');
    await expect401(bearer(activation));
  });

  it('refuses a password-reset token', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/password/reset/',
      payload: { email },
    });
    expect(res.statusCode).toBe(200);
    await expect401(bearer(res.json().token));
  });

  it('refuses a tampered payload (another sub, a later exp) with the genuine signature', async () => {
    const other = await registerActiveUser(t);
    const otherToken = await signIn(t, other.email, other.password);
    const { header, payload, signature } = parts(genuine);
    const theirs = parts(otherToken).payload;
    await expect401(bearer(`${header}.${b64({ ...payload, sub: theirs.sub })}.${signature}`));
    await expect401(
      bearer(
        `${header}.${b64({ ...payload, exp: (payload.exp as number) + 86_400 })}.${signature}`,
      ),
    );
    // A genuine signature over another user's sub with this session id is refused too.
    const crossed = await new SignJWT({ ...payload, sub: theirs.sub as string })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(t.ctx.jwtKey);
    await expect401(bearer(crossed));
  });

  it('refuses a validly signed token whose ids are not UUIDs, on every path that reads one', async () => {
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const sign = (audience: string, claims: Record<string, unknown>) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setAudience(audience)
        .setIssuedAt(now)
        .setExpirationTime(now + 3600)
        .sign(t.ctx.jwtKey);
    const sid = parts(genuine).payload.sid as string;
    const jti = parts(genuine).payload.jti as string; // the session's current token
    // The control: the same signing with real ids is accepted.
    expect((await me(bearer(await sign('portolan', { sub: userId, sid, jti })))).statusCode).toBe(
      200,
    );

    const notUuids = ['not-a-uuid', "1' or '1'='1", '', `${userId}x`];
    for (const bad of notUuids) {
      await expect401(bearer(await sign('portolan', { sub: userId, sid: bad })));
      await expect401(bearer(await sign('portolan', { sub: bad, sid })));
      await expect401(bearer(await sign('portolan', { sub: userId, sid, jti: bad })));

      const refresh = await t.app.inject({
        method: 'POST',
        url: '/v1/rest-auth/app/jwt-refresh/',
        payload: { token: await sign('portolan', { sub: userId, sid: bad }) },
      });
      expect(refresh.statusCode).toBe(401);
      expect(refresh.json().code).toBe(ErrorCode.NOT_AUTHENTICATED);

      const activation = await sign('portolan:activation', { sub: bad });
      const activate = await t.app.inject({
        method: 'PATCH',
        url: '/v1/rest-auth/registration/activation/',
        headers: bearer(activation),
        payload: { code: '123456' },
      });
      expect(activate.statusCode).toBe(401);
      const resend = await t.app.inject({
        method: 'GET',
        url: '/v1/rest-auth/registration/activation/resend-code/',
        headers: bearer(activation),
      });
      expect(resend.statusCode).toBe(401);

      for (const [url, audience, payload] of [
        ['/v1/rest-auth/password/reset/identity/', 'portolan:password-reset', { code: '123456' }],
        [
          '/v1/rest-auth/password/reset/confirm/',
          'portolan:password-reset-confirm',
          { password: 'A brand new passphrase 7' },
        ],
      ] as const) {
        for (const claims of [
          { sub: bad, jti: crypto.randomUUID() },
          { sub: crypto.randomUUID(), jti: bad },
        ]) {
          const res = await t.app.inject({
            method: 'POST',
            url,
            payload: { ...payload, token: await sign(audience, claims) },
          });
          expect(res.statusCode, `${url} ${JSON.stringify(claims)}`).toBe(400);
          expect(res.json()).toMatchObject({
            code: ErrorCode.INVALID_TOKEN,
            details: [{ field: 'token' }],
          });
        }
      }
    }
  });

  it('refuses a token whose session was revoked by logout', async () => {
    const token = await signIn(t, email, STRONG_PASSWORD);
    expect((await me(bearer(token))).statusCode).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/logout/',
      headers: bearer(token),
    });
    expect(out.statusCode).toBe(200);
    await expect401(bearer(token));
    // Other sessions of the user live on.
    expect((await me(bearer(genuine))).statusCode).toBe(200);
  });

  it('refuses the tokens of a disabled and of a deleted user', async () => {
    const disabled = await registerActiveUser(t);
    const disabledToken = await signIn(t, disabled.email, disabled.password);
    const deleted = await registerActiveUser(t);
    const deletedToken = await signIn(t, deleted.email, deleted.password);
    expect((await me(bearer(disabledToken))).statusCode).toBe(200);
    expect((await me(bearer(deletedToken))).statusCode).toBe(200);

    await t.ctx.db.update(users).set({ enabled: false }).where(eq(users.email, disabled.email));
    await t.ctx.db
      .update(users)
      .set({ deleted_at: t.clock.now() })
      .where(eq(users.email, deleted.email));
    await expect401(bearer(disabledToken));
    await expect401(bearer(deletedToken));
    expect((await me(bearer(genuine))).statusCode).toBe(200);
  });

  it('refuses a token once it has expired (after 12 hours)', async () => {
    const token = await signIn(t, email, STRONG_PASSWORD);
    t.clock.advance(11 * 3_600_000);
    expect((await me(bearer(token))).statusCode).toBe(200);
    t.clock.advance(2 * 3_600_000);
    await expect401(bearer(token));
    expect(userId).toBe(decodeJwt(token).sub);
  });
});
