import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import {
  createTestApp,
  extractCodeFrom,
  STRONG_PASSWORD,
  uniqueEmail,
  type TestApp,
} from '../../../test/support/app.ts';
import { oneTimeCodes, users } from '../../db/schema/index.ts';

describe('registration and activation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const register = (payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/v1/rest-auth/registration/', payload });
  const activate = (token: string, code: unknown) =>
    t.app.inject({
      method: 'PATCH',
      url: '/v1/rest-auth/registration/activation/',
      headers: { authorization: `Bearer ${token}` },
      payload: { code },
    });
  const resend = (token: string) =>
    t.app.inject({
      method: 'GET',
      url: '/v1/rest-auth/registration/activation/resend-code/',
      headers: { authorization: `Bearer ${token}` },
    });
  const form = (email: string) => ({
    email,
    password1: STRONG_PASSWORD,
    password2: STRONG_PASSWORD,
    first_name: 'Ada',
    last_name: 'Lovelace',
  });
  const userRow = async (email: string) =>
    (await t.ctx.db.select().from(users)).find(
      (u) => u.email.toLowerCase() === email.toLowerCase(),
    );

  it('creates an inactive account, e-mails a 6-digit code and returns an activation token', async () => {
    const email = uniqueEmail('ada');
    const res = await register({ ...form(email), email: `  ${email.toUpperCase()}  ` });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      token: expect.any(String),
      email: email.toUpperCase(),
      detail: expect.any(String),
    });

    const user = await userRow(email);
    expect(user).toMatchObject({
      first_name: 'Ada',
      email_verified_at: null,
      can_create_client: true,
    });
    expect(user!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    const mail = await t.mailTo(email);
    expect(mail.subject).toMatch(/activation code/i);
    const code = extractCodeFrom(mail.text);
    expect(mail.html).toContain(code);
    // Only a keyed hash of the code is stored.
    const [stored] = await t.ctx.db
      .select()
      .from(oneTimeCodes)
      .where(eq(oneTimeCodes.user_id, user!.id));
    expect(stored!.code_hash).not.toContain(code);
  });

  it('refuses an e-mail that is already registered, whatever its case (409)', async () => {
    const email = uniqueEmail('twice');
    expect((await register(form(email))).statusCode).toBe(201);
    const again = await register(form(email.toUpperCase()));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: ErrorCode.EMAIL_TAKEN,
      details: [{ field: 'email' }],
    });
    expect(
      (await t.ctx.db.select().from(users)).filter((u) => u.email.toLowerCase() === email),
    ).toHaveLength(1);
  });

  it('refuses mismatched, short, common and e-mail passwords with the field named', async () => {
    const email = uniqueEmail('weak');
    const cases: [Record<string, unknown>, string, string][] = [
      [{ password2: 'Something else 99' }, 'password2', ErrorCode.VALIDATION_ERROR],
      [{ password1: 'short', password2: 'short' }, 'password1', ErrorCode.WEAK_PASSWORD],
      [
        { password1: 'password123', password2: 'password123' },
        'password1',
        ErrorCode.WEAK_PASSWORD,
      ],
      [{ password1: email, password2: email }, 'password1', ErrorCode.WEAK_PASSWORD],
    ];
    for (const [override, field, code] of cases) {
      const res = await register({ ...form(email), ...override });
      expect(res.statusCode, JSON.stringify(override)).toBe(400);
      expect(res.json()).toMatchObject({ code, details: [{ field }] });
    }
    expect(await userRow(email)).toBeUndefined();
  });

  it('accepts a 64-character passphrase with no composition rules', async () => {
    const long = 'all lower case words make a fine long passphrase for anyone ok!!';
    expect(long.length).toBe(64);
    const res = await register({ ...form(uniqueEmail('long')), password1: long, password2: long });
    expect(res.statusCode).toBe(201);
  });

  it('activates with the right code, once', async () => {
    const email = uniqueEmail('act');
    const { token } = (await register(form(email))).json();
    const code = extractCodeFrom((await t.mailTo(email)).text);

    const ok = await activate(token, code);
    expect(ok.statusCode).toBe(200);
    expect((await userRow(email))!.email_verified_at).toBeInstanceOf(Date);

    const replay = await activate(token, code);
    expect(replay.statusCode).toBe(409);
    expect(replay.json().code).toBe(ErrorCode.ALREADY_ACTIVATED);
  });

  it('answers a wrong code with 400 and changes nothing', async () => {
    const email = uniqueEmail('wrong');
    const { token } = (await register(form(email))).json();
    const code = extractCodeFrom((await t.mailTo(email)).text);
    const wrong = code === '000000' ? '111111' : '000000';

    const res = await activate(token, wrong);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: ErrorCode.INVALID_CODE,
      details: [{ field: 'code' }],
    });
    expect((await userRow(email))!.email_verified_at).toBeNull();
    // The right code still works afterwards.
    expect((await activate(token, code)).statusCode).toBe(200);
  });

  it('refuses a malformed code with the field named', async () => {
    const { token } = (await register(form(uniqueEmail('fmt')))).json();
    const res = await activate(token, '12ab');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
      details: [{ field: 'code' }],
    });
  });

  it('allows 5 attempts, then refuses even the right code', async () => {
    const email = uniqueEmail('guess');
    const { token } = (await register(form(email))).json();
    const code = extractCodeFrom((await t.mailTo(email)).text);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) expect((await activate(token, wrong)).statusCode).toBe(400);
    const fifth = await activate(token, wrong);
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json().code).toBe(ErrorCode.TOO_MANY_ATTEMPTS);
    expect((await activate(token, code)).statusCode).toBe(429);
    expect((await userRow(email))!.email_verified_at).toBeNull();
  });

  it('refuses an expired code', async () => {
    const email = uniqueEmail('late');
    const { token } = (await register(form(email))).json();
    const code = extractCodeFrom((await t.mailTo(email)).text);
    t.clock.advance(11 * 60_000);
    const res = await activate(token, code);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(ErrorCode.CODE_EXPIRED);
  });

  it('re-sends a fresh code that replaces the old one', async () => {
    const email = uniqueEmail('resend');
    const { token } = (await register(form(email))).json();
    const first = extractCodeFrom((await t.mailTo(email)).text);
    const res = await resend(token);
    expect(res.statusCode).toBe(200);
    await t.ctx.outbox.drain();
    const mails = t.mailbox.to(email);
    expect(mails).toHaveLength(2);
    const second = extractCodeFrom(mails[1]!.text);
    if (first !== second) expect((await activate(token, first)).statusCode).toBe(400);
    expect((await activate(token, second)).statusCode).toBe(200);
    const again = await resend(token);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe(ErrorCode.ALREADY_ACTIVATED);
  });

  it('needs a valid activation token (401 otherwise)', async () => {
    for (const header of [undefined, 'Bearer nonsense', 'Bearer a.b.c']) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: '/v1/rest-auth/registration/activation/',
        headers: header ? { authorization: header } : {},
        payload: { code: '123456' },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(ErrorCode.NOT_AUTHENTICATED);
    }
  });
});

describe('registration switched off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ FEATURE_REGISTRATION: 'false' });
  });
  afterAll(() => t.close());

  it('answers 403 FEATURE_DISABLED and creates nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/registration/',
      payload: {
        email: uniqueEmail(),
        password1: STRONG_PASSWORD,
        password2: STRONG_PASSWORD,
        first_name: 'A',
        last_name: 'B',
      },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(ErrorCode.FEATURE_DISABLED);
    expect(await t.ctx.db.select().from(users)).toHaveLength(0);
  });
});
