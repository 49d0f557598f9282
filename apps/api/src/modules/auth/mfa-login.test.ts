// engine-parity: fifty second-factor answers at once (codes, recovery codes, one challenge)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, MFA_MAX_ATTEMPTS, MFA_MAX_FAILURES } from '@portolan/contract';
import {
  bearer,
  createTestApp,
  extractCodeFrom,
  registerActiveUser,
  signIn,
  type TestApp,
} from '../../../test/support/app.ts';
import { enrolTotp, passwordStep, secondStep } from '../../../test/support/mfa.ts';

/**
 * Issue 20 item 3: an account with a second factor signs in in two steps. The password answers
 * {mfa_required, mfa_token, methods} and no session; the token with a TOTP code or a recovery code
 * answers the session. The token lives 5 minutes, is no session anywhere and dies after 5 wrong
 * answers; the account's limit, a code's single use and a recovery code's hold under 50 parallel
 * answers. Runs on both engines.
 */
describe('signing in with a second factor', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function account() {
    const { email, password } = await registerActiveUser(t);
    const token = await signIn(t, email, password);
    const enrolled = await enrolTotp(t, token);
    return { email, password, ...enrolled };
  }
  async function challenge(email: string, password: string): Promise<string> {
    const res = await passwordStep(t, email, password);
    expect(res.statusCode).toBe(200);
    return res.json().mfa_token as string;
  }
  const me = (token: string) =>
    t.app.inject({ method: 'GET', url: '/v1/rest-auth/user/', headers: bearer(token) });

  it('answers the challenge, not a session, to the right password', async () => {
    const { email, password } = await account();
    const res = await passwordStep(t, email, password);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      mfa_required: true,
      mfa_token: expect.any(String),
      methods: ['totp', 'recovery_code'],
    });
    // The challenge's token is no session anywhere.
    expect((await me(res.json().mfa_token)).statusCode).toBe(401);
    // A wrong password is refused as before: no challenge.
    const wrong = await passwordStep(t, email, 'not the password at all');
    expect(wrong.json().code).toBe(ErrorCode.INVALID_CREDENTIALS);
  });

  it('gives the session for a code of the authenticator app, once', async () => {
    const { email, password, authenticator } = await account();
    const code = authenticator.code();
    const done = await secondStep(t, await challenge(email, password), { code });
    expect(done.statusCode).toBe(200);
    expect((await me(done.json().token)).statusCode).toBe(200);
    // The same code again, in a new sign-in within its window: a replay.
    const replay = await secondStep(t, await challenge(email, password), { code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({
      code: ErrorCode.INVALID_CODE,
      details: [{ field: 'code' }],
    });
    // The next step's code works.
    t.clock.advance(30_000);
    const next = await secondStep(t, await challenge(email, password), {
      code: authenticator.code(),
    });
    expect(next.statusCode).toBe(200);
  });

  it('takes a code of the step before or after, not two away', async () => {
    const { email, password, authenticator } = await account();
    // Past the step that confirmed the setup (a code of it is spent).
    t.clock.advance(60_000);
    const far = await secondStep(t, await challenge(email, password), {
      code: authenticator.code(-2),
    });
    expect(far.json().code).toBe(ErrorCode.INVALID_CODE);
    const early = await secondStep(t, await challenge(email, password), {
      code: authenticator.code(-1),
    });
    expect(early.statusCode).toBe(200);
  });

  it('gives the session for a recovery code, once', async () => {
    const { email, password, recoveryCodes } = await account();
    const first = await secondStep(t, await challenge(email, password), {
      recovery_code: recoveryCodes[3]!,
    });
    expect(first.statusCode).toBe(200);
    const again = await secondStep(t, await challenge(email, password), {
      recovery_code: recoveryCodes[3]!,
    });
    expect(again.json()).toMatchObject({
      code: ErrorCode.INVALID_CODE,
      details: [{ field: 'recovery_code' }],
    });
  });

  it('kills the challenge after 5 wrong answers, even for the right code next', async () => {
    const { email, password, authenticator } = await account();
    const token = await challenge(email, password);
    const wrongCode = authenticator.code() === '111111' ? '222222' : '111111';
    for (let i = 0; i < MFA_MAX_ATTEMPTS; i++) {
      expect((await secondStep(t, token, { code: wrongCode })).json().code).toBe(
        ErrorCode.INVALID_CODE,
      );
    }
    const dead = await secondStep(t, token, { code: authenticator.code() });
    expect(dead.statusCode).toBe(400);
    expect(dead.json().code).toBe(ErrorCode.INVALID_TOKEN);
    // A new sign-in works.
    expect(
      (await secondStep(t, await challenge(email, password), { code: authenticator.code() }))
        .statusCode,
    ).toBe(200);
  });

  it('lets the challenge live 5 minutes, and be used once', async () => {
    const { email, password, authenticator } = await account();
    const late = await challenge(email, password);
    t.clock.advance(5 * 60_000 + 1000);
    const expired = await secondStep(t, late, { code: authenticator.code() });
    expect(expired.json().code).toBe(ErrorCode.INVALID_TOKEN);
    const token = await challenge(email, password);
    expect((await secondStep(t, token, { code: authenticator.code() })).statusCode).toBe(200);
    t.clock.advance(30_000);
    const reused = await secondStep(t, token, { code: authenticator.code() });
    expect(reused.json().code).toBe(ErrorCode.INVALID_TOKEN);
    for (const bad of ['not-a-token', `${token}x`]) {
      expect((await secondStep(t, bad, { code: '123456' })).json().code).toBe(
        ErrorCode.INVALID_TOKEN,
      );
    }
  });

  it('counts exactly 5 of 50 wrong answers sent at once to one challenge', async () => {
    const { email, password, authenticator } = await account();
    const token = await challenge(email, password);
    const wrongCode = authenticator.code() === '111111' ? '222222' : '111111';
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => secondStep(t, token, { code: wrongCode })),
    );
    const codes = answers.map((r) => r.json().code);
    expect(codes.filter((c) => c === ErrorCode.INVALID_CODE)).toHaveLength(MFA_MAX_ATTEMPTS);
    expect(codes.filter((c) => c === ErrorCode.INVALID_TOKEN)).toHaveLength(50 - MFA_MAX_ATTEMPTS);
  });

  it('lets one of 50 sign-ins with the same code through, and one with the same recovery code', async () => {
    const { email, password, authenticator, recoveryCodes } = await account();
    const tokens: string[] = [];
    for (let i = 0; i < 50; i++) tokens.push(await challenge(email, password));
    const code = authenticator.code();
    const byCode = await Promise.all(tokens.map((token) => secondStep(t, token, { code })));
    expect(byCode.filter((r) => r.statusCode === 200)).toHaveLength(1);
    // The others: a replay (400), and past the account's limit of wrong answers, 429.
    expect(byCode.every((r) => [200, 400, 429].includes(r.statusCode))).toBe(true);

    t.clock.advance(16 * 60_000);
    const more: string[] = [];
    for (let i = 0; i < 50; i++) more.push(await challenge(email, password));
    const byRecovery = await Promise.all(
      more.map((token) => secondStep(t, token, { recovery_code: recoveryCodes[0]! })),
    );
    expect(byRecovery.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(byRecovery.every((r) => [200, 400, 429].includes(r.statusCode))).toBe(true);
  });

  it('refuses every answer past the account’s 10 wrong ones in 15 minutes, then lets it in again', async () => {
    const { email, password, authenticator } = await account();
    const wrongCode = authenticator.code() === '111111' ? '222222' : '111111';
    // 50 wrong answers at once over 10 challenges: the account counts 10, then refuses.
    const tokens: string[] = [];
    for (let i = 0; i < 10; i++) tokens.push(await challenge(email, password));
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => secondStep(t, tokens[i % 10]!, { code: wrongCode })),
    );
    const codes = answers.map((r) => r.json().code);
    expect(codes.filter((c) => c === ErrorCode.INVALID_CODE)).toHaveLength(MFA_MAX_FAILURES);
    const locked = await secondStep(t, await challenge(email, password), {
      code: authenticator.code(),
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe(ErrorCode.TOO_MANY_ATTEMPTS);
    t.clock.advance(15 * 60_000 + 1000);
    const open = await secondStep(t, await challenge(email, password), {
      code: authenticator.code(),
    });
    expect(open.statusCode).toBe(200);
  });

  it('is not bypassed by a password reset', async () => {
    const { email, authenticator } = await account();
    const asked = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/password/reset/',
      payload: { email },
    });
    const code = extractCodeFrom((await t.mailTo(email)).text);
    const verified = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/password/reset/identity/',
      payload: { token: asked.json().token, code },
    });
    const newPassword = 'Another strong passphrase 77';
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/password/reset/confirm/',
      payload: { token: verified.json().token, password: newPassword },
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().token).toBeUndefined();
    const res = await passwordStep(t, email, newPassword);
    expect(res.json().mfa_required).toBe(true);
    expect(
      (await secondStep(t, res.json().mfa_token, { code: authenticator.code() })).statusCode,
    ).toBe(200);
  });

  it('refuses bad input naming the field', async () => {
    const { email, password } = await account();
    const token = await challenge(email, password);
    const cases: [object, string][] = [
      [{ mfa_token: token }, 'code'],
      [{ mfa_token: token, code: '123456', recovery_code: 'abcde-fghjk' }, 'recovery_code'],
      [{ mfa_token: token, code: '12345' }, 'code'],
      [{ mfa_token: token, recovery_code: 'short' }, 'recovery_code'],
      [{ code: '123456' }, 'mfa_token'],
    ];
    for (const [payload, field] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/rest-auth/app/login/mfa/',
        payload,
        remoteAddress: '10.98.0.1',
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe(ErrorCode.VALIDATION_ERROR);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });
});
