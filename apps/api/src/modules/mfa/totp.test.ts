// engine-parity: issue 20 asks every account-security item of both engines (codes, locks, policy)
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, RECOVERY_CODE_PATTERN, mfaStatusResponseSchema } from '@portolan/contract';
import {
  bearer,
  createTestApp,
  registerActiveUser,
  signIn,
  type TestApp,
} from '../../../test/support/app.ts';
import {
  authenticatorFor,
  enrolTotp,
  passwordStep,
  secondStep,
} from '../../../test/support/mfa.ts';
import { recoveryCodes, userMfa } from '../../db/schema/index.ts';

/**
 * Issue 20 item 1: TOTP (RFC 6238) as a second factor. Setting it up gives a secret pending until a
 * code of it is confirmed; confirming gives 10 recovery codes, shown once and kept as HMACs; it
 * can be removed, and the codes renewed. Every change needs a fresh proof of presence. Runs on both
 * engines.
 */
describe('TOTP: the authenticator app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function account() {
    const { email, password } = await registerActiveUser(t);
    const token = await signIn(t, email, password);
    const user = await t.ctx.db.query.users.findFirst({ where: (u, { eq }) => eq(u.email, email) });
    return { email, password, token, userId: user!.id };
  }
  const status = async (token: string) => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/user/mfa/', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    return mfaStatusResponseSchema.parse(res.json());
  };
  const call = (method: 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload && { payload }) });

  it('sets up, confirms with a code, and shows 10 recovery codes once', async () => {
    const { email, token } = await account();
    expect(await status(token)).toMatchObject({
      methods: [],
      totp: { enabled: false, confirmed_at: null },
      recovery_codes_remaining: 0,
    });
    const setup = await call('POST', '/v1/user/mfa/totp/', token);
    expect(setup.statusCode).toBe(200);
    const { secret, otpauth_url: url } = setup.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(url).toBe(
      `otpauth://totp/Portolan:${encodeURIComponent(email)}?secret=${secret}&issuer=Portolan&algorithm=SHA1&digits=6&period=30`,
    );
    // Pending: no factor yet, sign-in still needs none.
    expect((await status(token)).methods).toEqual([]);

    const app = authenticatorFor(t, secret);
    const wrong = await call('POST', '/v1/user/mfa/totp/confirm/', token, {
      code: app.code() === '000000' ? '000001' : '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: ErrorCode.INVALID_CODE,
      details: [{ field: 'code' }],
    });

    const confirmed = await call('POST', '/v1/user/mfa/totp/confirm/', token, { code: app.code() });
    expect(confirmed.statusCode).toBe(200);
    const codes: string[] = confirmed.json().recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(RECOVERY_CODE_PATTERN);
    const after = await status(token);
    expect(after).toMatchObject({
      methods: ['totp', 'recovery_code'],
      totp: { enabled: true },
      recovery_codes_remaining: 10,
    });
    expect(after.totp.confirmed_at).not.toBeNull();

    // Set up already: neither a second setup nor a second confirmation.
    expect((await call('POST', '/v1/user/mfa/totp/', token)).json().code).toBe(
      ErrorCode.MFA_ALREADY_ENABLED,
    );
    const again = await call('POST', '/v1/user/mfa/totp/confirm/', token, { code: app.code(1) });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe(ErrorCode.MFA_ALREADY_ENABLED);
  });

  it('keeps the secret sealed and the recovery codes hashed', async () => {
    const { token, userId } = await account();
    const setup = (await call('POST', '/v1/user/mfa/totp/', token)).json();
    const app = authenticatorFor(t, setup.secret);
    const codes: string[] = (
      await call('POST', '/v1/user/mfa/totp/confirm/', token, { code: app.code() })
    ).json().recovery_codes;
    const [row] = await t.ctx.db.select().from(userMfa).where(eq(userMfa.user_id, userId));
    expect(row!.totp_secret).toMatch(/^v1\./);
    for (const form of [setup.secret, app.secret.toString('hex'), app.secret.toString('base64')]) {
      expect(row!.totp_secret).not.toContain(form);
    }
    const stored = await t.ctx.db
      .select()
      .from(recoveryCodes)
      .where(eq(recoveryCodes.user_id, userId));
    expect(stored).toHaveLength(10);
    const text = JSON.stringify(stored);
    for (const code of codes) {
      expect(text).not.toContain(code);
      expect(text).not.toContain(code.replace('-', ''));
    }
  });

  it('spends the confirming code: it cannot also sign in', async () => {
    const { email, password, token } = await account();
    const setup = (await call('POST', '/v1/user/mfa/totp/', token)).json();
    const app = authenticatorFor(t, setup.secret);
    const code = app.code();
    await call('POST', '/v1/user/mfa/totp/confirm/', token, { code });
    const challenge = (await passwordStep(t, email, password)).json();
    expect(challenge.mfa_required).toBe(true);
    const replay = await secondStep(t, challenge.mfa_token, { code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe(ErrorCode.INVALID_CODE);
  });

  it('a new setup replaces a pending one; only the newest secret confirms', async () => {
    const { token } = await account();
    const first = authenticatorFor(
      t,
      (await call('POST', '/v1/user/mfa/totp/', token)).json().secret,
    );
    const second = authenticatorFor(
      t,
      (await call('POST', '/v1/user/mfa/totp/', token)).json().secret,
    );
    const stale = await call('POST', '/v1/user/mfa/totp/confirm/', token, { code: first.code() });
    expect(stale.json().code).toBe(ErrorCode.INVALID_CODE);
    const ok = await call('POST', '/v1/user/mfa/totp/confirm/', token, { code: second.code() });
    expect(ok.statusCode).toBe(200);
  });

  it('removes TOTP with its recovery codes; sign-in needs no second factor again', async () => {
    const { email, password, token } = await account();
    await enrolTotp(t, token);
    const removed = await call('DELETE', '/v1/user/mfa/totp/', token);
    expect(removed.statusCode).toBe(200);
    expect(await status(token)).toMatchObject({ methods: [], recovery_codes_remaining: 0 });
    const signIn = await passwordStep(t, email, password);
    expect(signIn.json()).toEqual({ token: expect.any(String) });
    const twice = await call('DELETE', '/v1/user/mfa/totp/', token);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe(ErrorCode.MFA_NOT_ENABLED);
  });

  it('renews the recovery codes: the old ones stop working, the new ones work', async () => {
    const { email, password, token } = await account();
    const { recoveryCodes: old } = await enrolTotp(t, token);
    const renewed = await call('POST', '/v1/user/mfa/recovery-codes/', token);
    expect(renewed.statusCode).toBe(200);
    const fresh: string[] = renewed.json().recovery_codes;
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((c) => old.includes(c))).toEqual([]);
    const challenge = (await passwordStep(t, email, password)).json();
    const stale = await secondStep(t, challenge.mfa_token, { recovery_code: old[0]! });
    expect(stale.json()).toMatchObject({
      code: ErrorCode.INVALID_CODE,
      details: [{ field: 'recovery_code' }],
    });
    // Case and the dash do not matter.
    const used = await secondStep(t, challenge.mfa_token, {
      recovery_code: fresh[0]!.replace('-', '').toUpperCase(),
    });
    expect(used.statusCode).toBe(200);
    expect((await status(token)).recovery_codes_remaining).toBe(9);
  });

  it('answers 409 for what needs a factor or a setup the account does not have', async () => {
    const { token } = await account();
    for (const [method, url, payload] of [
      ['POST', '/v1/user/mfa/totp/confirm/', { code: '123456' }],
      ['POST', '/v1/user/mfa/recovery-codes/', undefined],
      ['DELETE', '/v1/user/mfa/totp/', undefined],
    ] as const) {
      const res = await call(method, url, token, payload);
      expect(res.statusCode, url).toBe(409);
      expect(res.json().code).toBe(ErrorCode.MFA_NOT_ENABLED);
    }
  });

  it('refuses bad input naming the field, and changes nothing', async () => {
    const { token } = await account();
    await call('POST', '/v1/user/mfa/totp/', token);
    for (const payload of [{ code: '12345' }, { code: 'abcdef' }, {}, { code: 123456 }]) {
      const res = await call('POST', '/v1/user/mfa/totp/confirm/', token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({
        code: ErrorCode.VALIDATION_ERROR,
        details: [{ field: 'code' }],
      });
    }
    const extra = await call('POST', '/v1/user/mfa/totp/confirm/', token, {
      code: '123456',
      secret: 'X',
    });
    expect(extra.statusCode).toBe(400);
    expect((await status(token)).methods).toEqual([]);
  });

  it('answers 401 to anyone not signed in', async () => {
    for (const [method, url] of [
      ['GET', '/v1/user/mfa/'],
      ['POST', '/v1/user/mfa/totp/'],
      ['POST', '/v1/user/mfa/totp/confirm/'],
      ['DELETE', '/v1/user/mfa/totp/'],
      ['POST', '/v1/user/mfa/recovery-codes/'],
    ] as const) {
      const res = await t.app.inject({ method, url, payload: { code: '123456' } });
      expect(res.statusCode, url).toBe(401);
      expect(res.json().code).toBe(ErrorCode.NOT_AUTHENTICATED);
    }
  });

  it('needs a fresh proof of presence for every change, and none to read', async () => {
    const { token } = await account();
    const { authenticator } = await enrolTotp(t, token);
    t.clock.advance(11 * 60_000);
    expect((await status(token)).methods).toEqual(['totp', 'recovery_code']);
    for (const [method, url, payload] of [
      ['POST', '/v1/user/mfa/totp/', undefined],
      ['POST', '/v1/user/mfa/totp/confirm/', { code: authenticator.code() }],
      ['DELETE', '/v1/user/mfa/totp/', undefined],
      ['POST', '/v1/user/mfa/recovery-codes/', undefined],
    ] as const) {
      const res = await call(method, url, token, payload);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({
        code: ErrorCode.STEP_UP_REQUIRED,
        details: { methods: ['password', 'totp', 'recovery_code'] },
      });
    }
    expect((await status(token)).recovery_codes_remaining).toBe(10);
  });
});

describe('second-factor secrets in the logs', () => {
  it('writes no TOTP secret, code or recovery code, even at trace level', async () => {
    const lines: string[] = [];
    const t = await createTestApp(
      { LOG_LEVEL: 'trace' },
      { logStream: { write: (line) => lines.push(line) } },
    );
    try {
      const { email, password } = await registerActiveUser(t);
      const token = await signIn(t, email, password);
      const setup = await t.app.inject({
        method: 'POST',
        url: '/v1/user/mfa/totp/',
        headers: bearer(token),
      });
      const { secret } = setup.json();
      const app = authenticatorFor(t, secret);
      const firstCode = app.code();
      const confirmed = await t.app.inject({
        method: 'POST',
        url: '/v1/user/mfa/totp/confirm/',
        headers: bearer(token),
        payload: { code: firstCode },
      });
      const codes: string[] = confirmed.json().recovery_codes;
      t.clock.advance(30_000);
      const challenge = (await passwordStep(t, email, password)).json();
      const secondCode = app.code();
      await secondStep(t, challenge.mfa_token, { code: secondCode });
      await secondStep(t, (await passwordStep(t, email, password)).json().mfa_token, {
        recovery_code: codes[0]!,
      });
      const logged = lines.join('\n');
      expect(lines.length).toBeGreaterThan(10);
      for (const value of [secret, firstCode, secondCode, ...codes, challenge.mfa_token]) {
        expect(logged).not.toContain(value);
      }
    } finally {
      await t.close();
    }
  });
});
