import { and, eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, userSchema } from '@portolan/contract';
import {
  bearer,
  createTestApp,
  registerActiveUser,
  signIn,
  STRONG_PASSWORD,
  uniqueEmail,
  type TestApp,
} from '../../../test/support/app.ts';
import { activities, sessions, users } from '../../db/schema/index.ts';

describe('sign-in, session and account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const me = (token: string) =>
    t.app.inject({ method: 'GET', url: '/v1/rest-auth/user/', headers: bearer(token) });
  const appLogin = (payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/v1/rest-auth/app/login/', payload });
  const refresh = (token: string) =>
    t.app.inject({ method: 'POST', url: '/v1/rest-auth/app/jwt-refresh/', payload: { token } });

  it('signs in by e-mail (trimmed, any case) and returns a session token of 12 hours', async () => {
    const { email } = await registerActiveUser(t, { first_name: 'Grace' });
    const res = await appLogin({ email: `  ${email.toUpperCase()} `, password: STRONG_PASSWORD });
    expect(res.statusCode).toBe(200);
    const { token } = res.json();
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      aud: 'portolan',
      sub: expect.any(String),
      sid: expect.any(String),
    });
    expect(claims.exp! - claims.iat!).toBe(12 * 3600);
    // No role or permission is baked into the token.
    expect(Object.keys(claims).sort()).toEqual(['aud', 'exp', 'iat', 'jti', 'sid', 'sub']);

    const user = await me(token);
    expect(user.statusCode).toBe(200);
    expect(userSchema.parse(user.json())).toMatchObject({
      email,
      first_name: 'Grace',
      can_create_client: true,
    });
  });

  it('signs in on the username route too and records a SIGN_IN activity', async () => {
    const { email } = await registerActiveUser(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/login/',
      payload: { username: email, password: STRONG_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const sub = decodeJwt(res.json().token).sub!;
    const rows = await t.ctx.db
      .select()
      .from(activities)
      .where(and(eq(activities.user_id, sub), eq(activities.action, 'SIGN_IN')));
    // One for the activation (which signs in), one for this sign-in.
    expect(rows).toHaveLength(2);
  });

  it('answers a wrong password and an unknown e-mail identically', async () => {
    const { email } = await registerActiveUser(t);
    const wrong = await appLogin({ email, password: 'not the password at all' });
    const unknown = await appLogin({
      email: uniqueEmail('nobody'),
      password: 'not the password at all',
    });
    expect(wrong.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(400);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().code).toBe(ErrorCode.INVALID_CREDENTIALS);
  });

  it('refuses a not-yet-activated account with 409 and an activation token', async () => {
    const email = uniqueEmail('pending');
    await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/registration/',
      payload: {
        email,
        password1: STRONG_PASSWORD,
        password2: STRONG_PASSWORD,
        first_name: 'P',
        last_name: 'Q',
      },
    });
    const res = await appLogin({ email, password: STRONG_PASSWORD });
    expect(res.statusCode).toBe(409);
    const body = res.json();
    expect(body.code).toBe(ErrorCode.ACCOUNT_NOT_ACTIVATED);
    expect(decodeJwt(body.details.token).aud).toBe('portolan:activation');
    // ... which can be used to get a new code
    const resend = await t.app.inject({
      method: 'GET',
      url: '/v1/rest-auth/registration/activation/resend-code/',
      headers: bearer(body.details.token),
    });
    expect(resend.statusCode).toBe(200);
  });

  it('refuses bad sign-in input with the field named', async () => {
    const res = await appLogin({ email: 'nope', password: '' });
    expect(res.statusCode).toBe(400);
    const fields = (res.json().details as { field: string }[]).map((d) => d.field).sort();
    expect(fields).toEqual(['email', 'password']);
  });

  it('refuses a disabled account', async () => {
    const { email } = await registerActiveUser(t);
    await t.ctx.db.update(users).set({ enabled: false }).where(eq(users.email, email));
    const res = await appLogin({ email, password: STRONG_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(ErrorCode.ACCOUNT_DISABLED);
  });

  it('logs out: the session is revoked and its token refused', async () => {
    const { email } = await registerActiveUser(t);
    const token = await signIn(t, email, STRONG_PASSWORD);
    const other = await signIn(t, email, STRONG_PASSWORD);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/logout/',
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(401);
    expect((await refresh(token)).statusCode).toBe(401);
    // Other sessions of the same user live on.
    expect((await me(other)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/v1/rest-auth/logout/' })).statusCode).toBe(
      401,
    );
  });

  it('refreshes a live token into a new one of the same session', async () => {
    const { email } = await registerActiveUser(t);
    const token = await signIn(t, email, STRONG_PASSWORD);
    t.clock.advance(10 * 3600_000); // 2 hours left: the web app would refresh now
    const res = await refresh(token);
    expect(res.statusCode).toBe(200);
    const fresh = res.json().token;
    expect(decodeJwt(fresh).sid).toBe(decodeJwt(token).sid);
    expect(decodeJwt(fresh).exp).toBeGreaterThan(decodeJwt(token).exp!);
    t.clock.advance(3 * 3600_000); // the old token has expired, the new one has not
    expect((await me(token)).statusCode).toBe(401);
    expect((await me(fresh)).statusCode).toBe(200);
    expect((await refresh(token)).statusCode).toBe(401);
  });

  it('retires the replaced token after a refresh, with a 10-second grace', async () => {
    const { email } = await registerActiveUser(t);
    const old = await signIn(t, email, STRONG_PASSWORD);
    t.clock.advance(10 * 3600_000);
    const res = await refresh(old);
    expect(res.statusCode).toBe(200);
    const fresh = res.json().token as string;

    // Requests already in flight with the old token still pass, for a few seconds.
    t.clock.advance(5_000);
    expect((await me(old)).statusCode).toBe(200);
    expect((await me(fresh)).statusCode).toBe(200);

    t.clock.advance(6_000);
    const retired = await me(old);
    expect(retired.statusCode).toBe(401);
    expect(retired.json().code).toBe(ErrorCode.NOT_AUTHENTICATED);
    expect((await refresh(old)).statusCode).toBe(401);
    expect((await me(fresh)).statusCode).toBe(200);

    // The next refresh retires the second token the same way.
    t.clock.advance(3600_000);
    const third = (await refresh(fresh)).json().token as string;
    t.clock.advance(11_000);
    expect((await me(fresh)).statusCode).toBe(401);
    expect((await me(third)).statusCode).toBe(200);
    expect((await refresh(third)).statusCode).toBe(200);
  });

  it('retires a token refreshed within the second it was issued in (by identity, not iat)', async () => {
    const { email } = await registerActiveUser(t);
    const first = await signIn(t, email, STRONG_PASSWORD);
    // Two refreshes at one clock reading: the three tokens share `iat`, `exp`, `sid` and `sub`.
    const second = (await refresh(first)).json().token as string;
    const third = (await refresh(second)).json().token as string;
    expect(new Set([first, second, third]).size).toBe(3);
    expect(decodeJwt(third).iat).toBe(decodeJwt(first).iat);
    // The first was replaced by the second, which was replaced in turn: no grace is left for it.
    expect((await me(first)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(200);
    t.clock.advance(10_000);
    expect((await me(second)).statusCode).toBe(401);
    expect((await refresh(second)).statusCode).toBe(401);
    expect((await refresh(first)).statusCode).toBe(401);
    expect((await me(third)).statusCode).toBe(200);
    expect((await refresh(third)).statusCode).toBe(200);
  });

  it('keeps every token valid that no refresh has replaced', async () => {
    // A sign-in on each of two devices: two sessions, each token current in its own.
    const { email } = await registerActiveUser(t);
    const laptop = await signIn(t, email, STRONG_PASSWORD);
    t.clock.advance(60_000);
    const phone = await signIn(t, email, STRONG_PASSWORD);
    t.clock.advance(60_000);
    expect((await refresh(phone)).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await me(laptop)).statusCode).toBe(200);
  });

  it('never refreshes past the 30-day absolute lifetime', async () => {
    const { email } = await registerActiveUser(t);
    let token = await signIn(t, email, STRONG_PASSWORD);
    const sid = decodeJwt(token).sid as string;
    const [session] = await t.ctx.db.select().from(sessions).where(eq(sessions.id, sid));
    // Refresh every 11 hours until the session's absolute expiry is reached.
    for (let i = 0; i < 80; i++) {
      t.clock.advance(11 * 3600_000);
      const res = await refresh(token);
      if (res.statusCode !== 200) break;
      token = res.json().token;
      expect(decodeJwt(token).exp! * 1000).toBeLessThanOrEqual(session!.expires_at.getTime());
    }
    expect(t.clock.now().getTime()).toBeGreaterThanOrEqual(
      session!.expires_at.getTime() - 11 * 3600_000,
    );
    t.clock.set(new Date(session!.expires_at.getTime() + 1000));
    expect((await refresh(token)).statusCode).toBe(401);
    expect((await me(token)).statusCode).toBe(401);
  });

  it('refuses garbage and non-session tokens on refresh', async () => {
    expect((await refresh('garbage')).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/v1/rest-auth/app/jwt-refresh/', payload: {} }))
        .statusCode,
    ).toBe(400);
  });

  it('answers an empty change with the user unchanged and writes nothing', async () => {
    const { email } = await registerActiveUser(t);
    const token = await signIn(t, email, STRONG_PASSWORD);
    const [before] = await t.ctx.db.select().from(users).where(eq(users.email, email));
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/v1/rest-auth/user/',
      headers: bearer(token),
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual((await me(token)).json());
    const [after] = await t.ctx.db.select().from(users).where(eq(users.email, email));
    expect(after).toEqual(before);
  });

  it('updates names and phone but never the e-mail', async () => {
    const { email } = await registerActiveUser(t);
    const token = await signIn(t, email, STRONG_PASSWORD);
    const patch = (payload: Record<string, unknown>) =>
      t.app.inject({
        method: 'PATCH',
        url: '/v1/rest-auth/user/',
        headers: bearer(token),
        payload,
      });

    const ok = await patch({
      first_name: ' Marie ',
      last_name: 'Curie',
      phone: '+33 1 23 45 67 89',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      email,
      first_name: 'Marie',
      last_name: 'Curie',
      phone: '+33 1 23 45 67 89',
    });

    const emailChange = await patch({ email: 'other@example.com' });
    expect(emailChange.statusCode).toBe(400);
    expect(emailChange.json().details).toEqual([{ field: 'email', message: 'Unknown field.' }]);

    const bad = await patch({ first_name: '', phone: 'call me maybe' });
    expect(bad.statusCode).toBe(400);
    expect((bad.json().details as { field: string }[]).map((d) => d.field).sort()).toEqual([
      'first_name',
      'phone',
    ]);

    expect((await me(token)).json()).toMatchObject({ email, first_name: 'Marie' });
    const anon = await t.app.inject({
      method: 'PATCH',
      url: '/v1/rest-auth/user/',
      payload: { first_name: 'X' },
    });
    expect(anon.statusCode).toBe(401);
  });
});
