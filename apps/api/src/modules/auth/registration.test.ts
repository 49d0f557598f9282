import { performance } from 'node:perf_hooks';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import {
  createTestApp,
  extractCodeFrom,
  registerActiveUser,
  STRONG_PASSWORD,
  uniqueEmail,
  type TestApp,
} from '../../../test/support/app.ts';
import { expectAlikeInTime } from '../../../test/support/timing.ts';
import { activities, oneTimeCodes, sessions, users } from '../../db/schema/index.ts';

describe('registration and activation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  // Each request from an address of its own: the per-address limits are tested elsewhere.
  let ipCounter = 0;
  const nextIp = () => {
    ipCounter++;
    return `10.6.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
  };
  const register = (payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/registration/',
      payload,
      remoteAddress: nextIp(),
    });
  const activate = (token: string, code: unknown) =>
    t.app.inject({
      method: 'PATCH',
      url: '/v1/rest-auth/registration/activation/',
      headers: { authorization: `Bearer ${token}` },
      payload: { code },
      remoteAddress: nextIp(),
    });
  const resend = (token: string) =>
    t.app.inject({
      method: 'GET',
      url: '/v1/rest-auth/registration/activation/resend-code/',
      headers: { authorization: `Bearer ${token}` },
      remoteAddress: nextIp(),
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

  /** What anyone can read in a token: its claims, base64url-decoded, no key needed. */
  const claimsOf = (token: string) =>
    JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<
      string,
      unknown
    >;
  /** The answers to six wrong codes in a row. */
  const wrongCodeSeries = async (token: string, wrong = '000000') => {
    const answers = [];
    for (let i = 0; i < 6; i++) {
      const res = await activate(token, wrong);
      answers.push(`${res.statusCode} ${res.json().code}`);
    }
    return answers;
  };
  const wrongThenLocked = [
    ...Array(4).fill(`400 ${ErrorCode.INVALID_CODE}`),
    ...Array(2).fill(`429 ${ErrorCode.TOO_MANY_ATTEMPTS}`),
  ];
  const mailsTo = async (email: string) => {
    await t.ctx.outbox.drain();
    return t.mailbox.to(email);
  };

  it('answers an address that has an account like a new one, changes nothing and tells the owner', async () => {
    const { email } = await registerActiveUser(t);
    const before = await userRow(email);
    const mailsBefore = (await mailsTo(email)).length;

    const fresh = await register(form(uniqueEmail('fresh')));
    const again = await register({
      ...form(`  ${email.toUpperCase()} `),
      password1: 'Another fine passphrase 8',
      password2: 'Another fine passphrase 8',
    });
    expect(again.statusCode).toBe(201);
    expect(again.statusCode).toBe(fresh.statusCode);
    expect(Object.keys(again.json()).sort()).toEqual(Object.keys(fresh.json()).sort());
    expect(again.json()).toEqual({
      token: expect.any(String),
      email: email.toUpperCase(),
      detail: fresh.json().detail,
    });
    const a = claimsOf(fresh.json().token);
    const b = claimsOf(again.json().token);
    expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
    expect(b.aud).toBe(a.aud);
    expect((b.exp as number) - (b.iat as number)).toBe((a.exp as number) - (a.iat as number));
    expect(Object.values(b)).not.toContain(before!.id);

    // Nothing of the account changed (but the time of the notice): not the password, not the
    // names, not the activation.
    expect(await userRow(email)).toEqual({
      ...before,
      registration_notice_at: expect.any(Date),
      modified_at: expect.any(Date),
    });
    expect((await userRow(email))!.password_hash).toBe(before!.password_hash);

    // The owner hears of it, with the ways back in; no code is sent.
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(mailsBefore + 1);
    const notice = mails.at(-1)!;
    expect(notice.subject).toMatch(/tried to register/i);
    const base = t.ctx.mail.publicUrl.replace(/\/+$/, '');
    expect(notice.text).toContain(`${base}/login`);
    expect(notice.text).toContain(`${base}/forgot-password`);
    expect(notice.html).toContain(`href="${base}/login"`);
    expect(notice.html).toContain(`href="${base}/forgot-password"`);
    expect(notice.text).not.toMatch(/\b\d{6}\b/);

    // Its token meets exactly the answers a real one meets at wrong codes ...
    expect(await wrongCodeSeries(again.json().token)).toEqual(wrongThenLocked);
    expect(await wrongCodeSeries(fresh.json().token)).toEqual(wrongThenLocked);
    // ... and at a re-send, which starts the attempts over for both, and mails the owner nothing.
    const resentFresh = await resend(fresh.json().token);
    const resentAgain = await resend(again.json().token);
    expect(resentAgain.statusCode).toBe(200);
    expect(resentAgain.json()).toEqual(resentFresh.json());
    expect(await mailsTo(email)).toHaveLength(mailsBefore + 1);
    expect((await activate(again.json().token, '000000')).json().code).toBe(ErrorCode.INVALID_CODE);

    // The owner signs in as before.
    const login = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/app/login/',
      payload: { email, password: STRONG_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
  });

  it('tells the owner once an hour however many try, answering every attempt alike', async () => {
    const { email } = await registerActiveUser(t);
    const notices = async () =>
      (await mailsTo(email)).filter((m) => /tried to register/i.test(m.subject)).length;
    const answers = await Promise.all(Array.from({ length: 5 }, () => register(form(email))));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(5).fill(201));
    expect(await notices()).toBe(1);
    t.clock.advance(30 * 60_000);
    expect((await register(form(email))).statusCode).toBe(201);
    expect(await notices()).toBe(1);
    t.clock.advance(31 * 60_000);
    expect((await register(form(email))).statusCode).toBe(201);
    expect(await notices()).toBe(2);
  });

  it('re-sends a fresh code when an account not yet activated registers again with its password', async () => {
    const email = uniqueEmail('retry');
    const first = (await register(form(email))).json().token as string;
    const firstCode = extractCodeFrom((await t.mailTo(email)).text);
    const second = await register(form(email));
    expect(second.statusCode).toBe(201);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toMatch(/activation code/i);
    const secondCode = extractCodeFrom(mails[1]!.text);
    // The new code replaces the old one, and so the new token the old.
    expect((await activate(first, firstCode)).statusCode).toBe(400);
    expect((await activate(second.json().token, secondCode)).statusCode).toBe(200);
    expect(
      (await t.ctx.db.select().from(users)).filter((u) => u.email.toLowerCase() === email),
    ).toHaveLength(1);
  });

  it('never lets a second registration choose the password of an account not yet activated', async () => {
    const email = uniqueEmail('hijack');
    const { token } = (await register(form(email))).json();
    const code = extractCodeFrom((await t.mailTo(email)).text);
    const hash = (await userRow(email))!.password_hash;

    const other = 'Someone else entirely 5';
    const res = await register({ ...form(email), password1: other, password2: other });
    expect(res.statusCode).toBe(201);
    expect((await userRow(email))!.password_hash).toBe(hash);
    expect((await mailsTo(email)).at(-1)!.subject).toMatch(/tried to register/i);
    // The owner's activation is untouched, with the owner's password.
    expect((await activate(token, code)).statusCode).toBe(200);
    const login = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/rest-auth/app/login/',
        payload: { email, password },
        remoteAddress: '10.6.255.1',
      });
    expect((await login(STRONG_PASSWORD)).statusCode).toBe(200);
    expect((await login(other)).statusCode).toBe(400);
  });

  it('makes one account of two registrations racing for one address, answering both alike', async () => {
    const email = uniqueEmail('race');
    const answers = await Promise.all([register(form(email)), register(form(email))]);
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201]);
    expect(
      (await t.ctx.db.select().from(users)).filter((u) => u.email.toLowerCase() === email),
    ).toHaveLength(1);
  });

  it('takes about as long for an address that has an account as for a new one', async () => {
    const { email } = await registerActiveUser(t);
    const time = async (address: string) => {
      const start = performance.now();
      const res = await register(form(address));
      const ms = performance.now() - start;
      expect(res.statusCode).toBe(201);
      return ms;
    };
    await time(uniqueEmail('warm'));
    const measure = async () => {
      const differences: number[] = [];
      const newMs: number[] = [];
      for (let i = 0; i < 8; i++) {
        const fresh = uniqueEmail('timed');
        let e: number, n: number;
        if (i % 2) {
          e = await time(email);
          n = await time(fresh);
        } else {
          n = await time(fresh);
          e = await time(email);
        }
        differences.push(e - n);
        newMs.push(n);
      }
      const sorted = (values: number[]) => [...values].sort((x, y) => x - y);
      return { difference: sorted(differences)[4]!, typical: sorted(newMs)[4]! };
    };
    // Both run argon2 once (hash or verify, ~tens of ms); skipping it on one path would show.
    await expectAlikeInTime(measure, (typical) => 0.3 * typical, 'existing and new addresses');
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

  it('activates with the right code, once, and signs the user in', async () => {
    const email = uniqueEmail('act');
    const { token } = (await register(form(email))).json();
    const code = extractCodeFrom((await t.mailTo(email)).text);

    const ok = await activate(token, code);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ detail: expect.any(String), token: expect.any(String) });
    expect((await userRow(email))!.email_verified_at).toBeInstanceOf(Date);

    // A session token exactly as sign-in makes one, good on protected routes.
    const session = ok.json().token as string;
    const claims = claimsOf(session);
    expect(Object.keys(claims).sort()).toEqual(['aud', 'exp', 'iat', 'jti', 'sid', 'sub']);
    expect(claims.aud).toBe('portolan');
    expect((claims.exp as number) - (claims.iat as number)).toBe(12 * 3600);
    const me = await t.app.inject({
      method: 'GET',
      url: '/v1/rest-auth/user/',
      headers: { authorization: `Bearer ${session}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(email);
    const signIns = await t.ctx.db
      .select()
      .from(activities)
      .where(and(eq(activities.user_id, claims.sub as string), eq(activities.action, 'SIGN_IN')));
    expect(signIns).toHaveLength(1);

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

  it('activates a disabled account without signing it in', async () => {
    const email = uniqueEmail('off');
    const { token } = (await register(form(email))).json();
    const code = extractCodeFrom((await t.mailTo(email)).text);
    await t.ctx.db.update(users).set({ enabled: false }).where(eq(users.email, email));
    const res = await activate(token, code);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: ErrorCode.ACCOUNT_DISABLED, message: expect.any(String) });
    const user = await userRow(email);
    expect(await t.ctx.db.select().from(sessions).where(eq(sessions.user_id, user!.id))).toEqual(
      [],
    );
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
