import { eq } from 'drizzle-orm';
import { decodeJwt, decodeProtectedHeader } from 'jose';
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
import { extractCode } from '../../../test/support/mailbox.ts';
import { mailOutbox, oneTimeCodes, users } from '../../db/schema/index.ts';

const NEW_PASSWORD = 'A brand new passphrase 7';

describe('password reset and change', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  // Each test speaks from its own address, so the per-IP limits (tested in rate-limit.test.ts)
  // never get in the way here.
  let ipCounter = 0;
  let ip = '10.1.0.1';
  const newIp = () => {
    ipCounter++;
    ip = `10.1.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
  };

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, headers, remoteAddress: ip });
  const requestReset = (email: unknown) => post('/v1/rest-auth/password/reset/', { email });
  const identity = (payload: unknown) => post('/v1/rest-auth/password/reset/identity/', payload);
  const confirm = (payload: unknown) => post('/v1/rest-auth/password/reset/confirm/', payload);
  const change = (token: string | null, payload: unknown) =>
    post('/v1/rest-auth/password/change/', payload, token ? bearer(token) : {});
  const me = (token: string) =>
    t.app.inject({ method: 'GET', url: '/v1/rest-auth/user/', headers: bearer(token) });
  const login = (email: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/app/login/',
      payload: { email, password },
      remoteAddress: ip,
    });
  const outboxCount = async () => (await t.ctx.db.select().from(mailOutbox)).length;

  /** Asks for a reset and reads the code from the mailbox. */
  async function startReset(email: string) {
    const res = await requestReset(email);
    expect(res.statusCode).toBe(200);
    const mail = await t.mailTo(email);
    return { token: res.json().token as string, code: extractCode(mail.text) };
  }

  /** Through the code step: returns the confirm token. */
  async function verifiedReset(email: string) {
    const { token, code } = await startReset(email);
    const res = await identity({ code, token });
    expect(res.statusCode).toBe(200);
    return res.json().token as string;
  }

  const expectError = (
    res: { statusCode: number; json: () => unknown },
    status: number,
    code: string,
    field?: string,
  ) => {
    expect(res.statusCode).toBe(status);
    const body = res.json() as { code: string; message: string; details?: { field: string }[] };
    expect(body.code).toBe(code);
    expect(body.message).toEqual(expect.any(String));
    if (field) expect(body.details?.map((d) => d.field)).toContain(field);
  };

  describe('POST /v1/rest-auth/password/reset/', () => {
    it('answers a known and an unknown e-mail identically, mailing only the known one', async () => {
      newIp();
      const { email } = await registerActiveUser(t);
      const unknown = uniqueEmail('nobody');
      await t.ctx.outbox.drain();
      const mailsBefore = t.mailbox.messages.length;
      const queuedBefore = await outboxCount();

      const known = await requestReset(email);
      const other = await requestReset(unknown);

      expect(known.statusCode).toBe(200);
      expect(other.statusCode).toBe(known.statusCode);
      const a = known.json();
      const b = other.json();
      expect(Object.keys(a).sort()).toEqual(['detail', 'token']);
      expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
      expect(b.detail).toBe(a.detail);
      // The tokens look alike too: same header, same claims, same lifetime.
      expect(decodeProtectedHeader(b.token)).toEqual(decodeProtectedHeader(a.token));
      const ca = decodeJwt(a.token);
      const cb = decodeJwt(b.token);
      expect(Object.keys(cb).sort()).toEqual(Object.keys(ca).sort());
      expect(cb.aud).toBe(ca.aud);
      expect(cb.exp! - cb.iat!).toBe(ca.exp! - ca.iat!);
      expect(ca.exp! - ca.iat!).toBe(10 * 60);
      expect(b.token.length).toBe(a.token.length);

      expect(await outboxCount()).toBe(queuedBefore + 1);
      await t.ctx.outbox.drain();
      expect(t.mailbox.messages.length).toBe(mailsBefore + 1);
      expect(t.mailbox.to(unknown)).toHaveLength(0);
      const mail = t.mailbox.last(email)!;
      expect(mail.subject).toMatch(/password reset code/i);
      expect(mail.text).toMatch(/\b\d{6}\b/);
      expect(mail.html).toContain(extractCode(mail.text));
    });

    it('finds the account whatever the case and spaces of the e-mail', async () => {
      newIp();
      const { email } = await registerActiveUser(t);
      const res = await requestReset(`  ${email.toUpperCase()} `);
      expect(res.statusCode).toBe(200);
      const mail = await t.mailTo(email);
      expect(mail.subject).toMatch(/password reset/i);
    });

    it('mails nothing for a disabled account, with the same answer', async () => {
      newIp();
      const { email } = await registerActiveUser(t);
      await t.ctx.db.update(users).set({ enabled: false }).where(eq(users.email, email));
      await t.ctx.outbox.drain();
      const before = t.mailbox.to(email).length;
      const res = await requestReset(email);
      expect(res.statusCode).toBe(200);
      expect(Object.keys(res.json()).sort()).toEqual(['detail', 'token']);
      await t.ctx.outbox.drain();
      expect(t.mailbox.to(email)).toHaveLength(before);
    });

    it('refuses bad input by field, and sends nothing', async () => {
      newIp();
      const queued = await outboxCount();
      expectError(
        await post('/v1/rest-auth/password/reset/', {}),
        400,
        'VALIDATION_ERROR',
        'email',
      );
      expectError(await requestReset('not-an-email'), 400, 'VALIDATION_ERROR', 'email');
      expectError(await requestReset(42), 400, 'VALIDATION_ERROR', 'email');
      expectError(
        await post('/v1/rest-auth/password/reset/', { email: uniqueEmail(), admin: true }),
        400,
        'VALIDATION_ERROR',
        'admin',
      );
      expect(await outboxCount()).toBe(queued);
    });
  });

  describe('the reset flow', () => {
    it('goes from the e-mailed code to a new password', async () => {
      newIp();
      const { email } = await registerActiveUser(t);
      const { token, code } = await startReset(email);

      const verified = await identity({ code, token });
      expect(verified.statusCode).toBe(200);
      expect(Object.keys(verified.json())).toEqual(['token']);
      const confirmToken = verified.json().token as string;
      expect(decodeJwt(confirmToken).aud).toBe('portolan:password-reset-confirm');

      const done = await confirm({ token: confirmToken, password: NEW_PASSWORD });
      expect(done.statusCode).toBe(200);
      expect(done.json()).toEqual({ detail: expect.any(String) });

      expect((await login(email, NEW_PASSWORD)).statusCode).toBe(200);
      expectError(await login(email, STRONG_PASSWORD), 400, ErrorCode.INVALID_CREDENTIALS);
    });

    it('accepts each code and each token once', async () => {
      newIp();
      const { email } = await registerActiveUser(t);
      const { token, code } = await startReset(email);
      const first = await identity({ code, token });
      expect(first.statusCode).toBe(200);
      expectError(await identity({ code, token }), 400, ErrorCode.INVALID_TOKEN, 'token');

      const confirmToken = first.json().token as string;
      expect((await confirm({ token: confirmToken, password: NEW_PASSWORD })).statusCode).toBe(200);
      expectError(
        await confirm({ token: confirmToken, password: 'Yet another passphrase 9' }),
        400,
        ErrorCode.INVALID_TOKEN,
        'token',
      );
      // The code step cannot be replayed after the password was set either.
      expectError(await identity({ code, token }), 400, ErrorCode.INVALID_CODE, 'code');
      // The password is the one of the first confirmation.
      expect((await login(email, NEW_PASSWORD)).statusCode).toBe(200);
    });

    it('refuses a wrong code, and after 5 wrong codes even the right one', async () => {
      newIp();
      const { email } = await registerActiveUser(t);
      const { token, code } = await startReset(email);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 1; i <= 4; i++) {
        expectError(await identity({ code: wrong, token }), 400, ErrorCode.INVALID_CODE, 'code');
      }
      expectError(await identity({ code: wrong, token }), 429, ErrorCode.TOO_MANY_ATTEMPTS);
      expectError(await identity({ code, token }), 429, ErrorCode.TOO_MANY_ATTEMPTS, 'code');
      const [row] = await t.ctx.db
        .select()
        .from(oneTimeCodes)
        .where(eq(oneTimeCodes.id, decodeJwt(token).sub!));
      expect(row).toMatchObject({ attempts: 5, verified_at: null });
      // A new request starts over with a fresh code.
      const again = await startReset(email);
      expect((await identity(again)).statusCode).toBe(200);
    });

    it('refuses an expired code and an expired confirm token', async () => {
      newIp();
      const { email } = await registerActiveUser(t);
      const { token, code } = await startReset(email);
      t.clock.advance(11 * 60_000);
      expectError(await identity({ code, token }), 400, ErrorCode.CODE_EXPIRED, 'code');

      const confirmToken = await verifiedReset(email);
      t.clock.advance(11 * 60_000);
      expectError(
        await confirm({ token: confirmToken, password: NEW_PASSWORD }),
        400,
        ErrorCode.INVALID_TOKEN,
        'token',
      );
      expect((await login(email, STRONG_PASSWORD)).statusCode).toBe(200);
    });

    it('answers a token for an unknown e-mail like a wrong code', async () => {
      newIp();
      const res = await requestReset(uniqueEmail('ghost'));
      const { token } = res.json();
      expectError(await identity({ code: '123456', token }), 400, ErrorCode.INVALID_CODE, 'code');
    });

    it('keeps only the newest code of a user alive', async () => {
      newIp();
      const { email } = await registerActiveUser(t);
      const older = await startReset(email);
      const newer = await startReset(email);
      expectError(await identity(older), 400, ErrorCode.INVALID_CODE);
      expect((await identity(newer)).statusCode).toBe(200);
    });

    it('refuses a forged, garbled or wrong-kind token on both steps', async () => {
      newIp();
      const { email, password } = await registerActiveUser(t);
      const session = await signIn(t, email, password);
      const { token, code } = await startReset(email);
      const header = token.split('.')[0]!;
      const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
      const forged = `${header}.${Buffer.from(JSON.stringify({ ...payload, sub: crypto.randomUUID() })).toString('base64url')}.${token.split('.')[2]}`;

      for (const bad of ['garbage', session, forged, `${token}x`]) {
        expectError(await identity({ code, token: bad }), 400, ErrorCode.INVALID_TOKEN, 'token');
      }
      // A reset token is not a confirm token.
      expectError(
        await confirm({ token, password: NEW_PASSWORD }),
        400,
        ErrorCode.INVALID_TOKEN,
        'token',
      );
      // None of that used up an attempt: the real pair still works.
      const confirmToken = (await identity({ code, token })).json().token as string;
      // ... and a confirm token is not a reset token.
      expectError(
        await identity({ code, token: confirmToken }),
        400,
        ErrorCode.INVALID_TOKEN,
        'token',
      );
      expectError(
        await confirm({ token: session, password: NEW_PASSWORD }),
        400,
        ErrorCode.INVALID_TOKEN,
      );
    });

    it('refuses bad input on the code and confirm steps by field', async () => {
      newIp();
      const { token } = (await requestReset(uniqueEmail())).json();
      expectError(await identity({ token }), 400, 'VALIDATION_ERROR', 'code');
      expectError(await identity({ code: '123456' }), 400, 'VALIDATION_ERROR', 'token');
      expectError(await identity({ code: '12345', token }), 400, 'VALIDATION_ERROR', 'code');
      expectError(await identity({ code: 123456, token }), 400, 'VALIDATION_ERROR', 'code');
      expectError(await identity({ code: '123456', token, x: 1 }), 400, 'VALIDATION_ERROR', 'x');
      expectError(await confirm({ token }), 400, 'VALIDATION_ERROR', 'password');
      expectError(await confirm({ password: NEW_PASSWORD }), 400, 'VALIDATION_ERROR', 'token');
      expectError(await confirm({ token, password: 12345678 }), 400, 'VALIDATION_ERROR');
      expectError(
        await confirm({ token, password: NEW_PASSWORD, password2: NEW_PASSWORD }),
        400,
        'VALIDATION_ERROR',
        'password2',
      );
    });

    it('applies the password policy on confirm without using up the token', async () => {
      newIp();
      const { email } = await registerActiveUser(t);
      const confirmToken = await verifiedReset(email);
      for (const weak of ['short', 'password123', email]) {
        expectError(
          await confirm({ token: confirmToken, password: weak }),
          400,
          ErrorCode.WEAK_PASSWORD,
          'password',
        );
      }
      expect((await confirm({ token: confirmToken, password: NEW_PASSWORD })).statusCode).toBe(200);
    });

    it('signs out every session of the user', async () => {
      newIp();
      const { email, password } = await registerActiveUser(t);
      const laptop = await signIn(t, email, password);
      const phone = await signIn(t, email, password);
      expect((await me(laptop)).statusCode).toBe(200);

      const confirmToken = await verifiedReset(email);
      // Not before the password is actually set.
      expect((await me(phone)).statusCode).toBe(200);
      expect((await confirm({ token: confirmToken, password: NEW_PASSWORD })).statusCode).toBe(200);

      for (const old of [laptop, phone]) {
        const res = await me(old);
        expectError(res, 401, ErrorCode.NOT_AUTHENTICATED);
      }
      const fresh = await signIn(t, email, NEW_PASSWORD);
      expect((await me(fresh)).statusCode).toBe(200);
    });

    it('activates an account that was never activated', async () => {
      newIp();
      const email = uniqueEmail('inactive');
      const reg = await t.app.inject({
        method: 'POST',
        url: '/v1/rest-auth/registration/',
        payload: {
          email,
          password1: STRONG_PASSWORD,
          password2: STRONG_PASSWORD,
          first_name: 'Not',
          last_name: 'Yet',
        },
        remoteAddress: ip,
      });
      expect(reg.statusCode).toBe(201);
      expectError(await login(email, STRONG_PASSWORD), 409, ErrorCode.ACCOUNT_NOT_ACTIVATED);

      const confirmToken = await verifiedReset(email);
      expect((await confirm({ token: confirmToken, password: NEW_PASSWORD })).statusCode).toBe(200);
      const [row] = await t.ctx.db.select().from(users).where(eq(users.email, email));
      expect(row!.email_verified_at).toBeInstanceOf(Date);
      expect((await login(email, NEW_PASSWORD)).statusCode).toBe(200);
    });
  });

  describe('POST /v1/rest-auth/password/change/', () => {
    const valid = {
      old_password: STRONG_PASSWORD,
      new_password1: NEW_PASSWORD,
      new_password2: NEW_PASSWORD,
    };

    it('answers 401 without a valid token, whatever the body', async () => {
      newIp();
      expectError(await change(null, valid), 401, ErrorCode.NOT_AUTHENTICATED);
      expectError(await change('garbage', valid), 401, ErrorCode.NOT_AUTHENTICATED);
      expectError(await change(null, { nonsense: true }), 401, ErrorCode.NOT_AUTHENTICATED);
    });

    it("changes the password and signs out the user's other sessions, not the caller's", async () => {
      newIp();
      const { email, password } = await registerActiveUser(t);
      const caller = await signIn(t, email, password);
      const other = await signIn(t, email, password);

      const res = await change(caller, valid);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ detail: expect.any(String) });

      expect((await me(caller)).statusCode).toBe(200);
      expectError(await me(other), 401, ErrorCode.NOT_AUTHENTICATED);
      expect((await login(email, NEW_PASSWORD)).statusCode).toBe(200);
      expectError(await login(email, password), 400, ErrorCode.INVALID_CREDENTIALS);
    });

    it('refuses a wrong current password, a mismatch and a weak password, changing nothing', async () => {
      newIp();
      const { email, password } = await registerActiveUser(t);
      const caller = await signIn(t, email, password);
      const other = await signIn(t, email, password);

      expectError(
        await change(caller, { ...valid, old_password: 'not my password at all' }),
        400,
        ErrorCode.WRONG_PASSWORD,
        'old_password',
      );
      expectError(
        await change(caller, { ...valid, new_password2: 'Something else entirely 1' }),
        400,
        ErrorCode.VALIDATION_ERROR,
        'new_password2',
      );
      expectError(
        await change(caller, {
          ...valid,
          new_password1: 'password123',
          new_password2: 'password123',
        }),
        400,
        ErrorCode.WEAK_PASSWORD,
        'new_password1',
      );
      expectError(
        await change(caller, { ...valid, new_password1: email, new_password2: email }),
        400,
        ErrorCode.WEAK_PASSWORD,
        'new_password1',
      );

      expect((await me(other)).statusCode).toBe(200);
      expect((await login(email, password)).statusCode).toBe(200);
    });

    it('refuses bad input by field', async () => {
      newIp();
      const { email, password } = await registerActiveUser(t);
      const caller = await signIn(t, email, password);
      const { old_password: _old, ...noOld } = valid;
      expectError(await change(caller, noOld), 400, 'VALIDATION_ERROR', 'old_password');
      expectError(
        await change(caller, { ...valid, new_password1: 12345678 }),
        400,
        'VALIDATION_ERROR',
        'new_password1',
      );
      expectError(await change(caller, { ...valid, email }), 400, 'VALIDATION_ERROR', 'email');
      expectError(
        await change(caller, { ...valid, new_password1: '', new_password2: '' }),
        400,
        'VALIDATION_ERROR',
        'new_password1',
      );
      expect((await login(email, password)).statusCode).toBe(200);
    });
  });
});
