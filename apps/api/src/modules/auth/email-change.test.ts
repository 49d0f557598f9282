// engine-parity: issue 20 asks every account-security item of both engines (codes, locks, policy)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@portolan/contract';
import {
  bearer,
  createTestApp,
  extractCodeFrom,
  registerActiveUser,
  signIn,
  uniqueEmail,
  type TestApp,
} from '../../../test/support/app.ts';

/**
 * Issue 20 item 7: changing the account's e-mail address. The request (password, and a fresh
 * proof of presence) sends a code to the new address and a notice to the current one; the code
 * switches the account. A taken address answers exactly like a free one and changes nothing.
 */
describe('changing the e-mail address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function account() {
    const { email, password } = await registerActiveUser(t);
    return { email, password, token: await signIn(t, email, password) };
  }
  const ask = (token: string, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/user/email-change/',
      headers: bearer(token),
      payload,
    });
  const confirm = (token: string, code: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/user/email-change/confirm/',
      headers: bearer(token),
      payload: { code },
    });
  const me = async (token: string) =>
    (
      await t.app.inject({ method: 'GET', url: '/v1/rest-auth/user/', headers: bearer(token) })
    ).json();

  it('sends a code to the new address and a notice to the old; the code switches the account', async () => {
    const { email, password, token } = await account();
    const next = uniqueEmail('moved');
    const asked = await ask(token, { new_email: next, password });
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({
      detail: `We sent a 6-digit code to ${next}. Enter it to confirm the change.`,
      email: next,
    });
    const codeMail = await t.mailTo(next);
    expect(codeMail.subject).toContain('Confirm your new');
    const notice = await t.mailTo(email);
    expect(notice.subject).toContain('change of your');
    expect(notice.text).toContain(next);
    expect((await me(token)).email).toBe(email);

    const wrong = await confirm(
      token,
      extractCodeFrom(codeMail.text) === '000000' ? '000001' : '000000',
    );
    expect(wrong.json().code).toBe(ErrorCode.INVALID_CODE);
    const done = await confirm(token, extractCodeFrom(codeMail.text));
    expect(done.statusCode).toBe(200);
    expect(done.json().email).toBe(next);
    expect((await me(token)).email).toBe(next);
    expect((await t.mailTo(email)).subject).toContain('was changed');
    // Signing in takes the new address, not the old one.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/v1/rest-auth/app/login/',
          payload: { email: next, password },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/v1/rest-auth/app/login/',
          payload: { email, password },
        })
      ).statusCode,
    ).toBe(400);
    // The code is spent.
    expect((await confirm(token, extractCodeFrom(codeMail.text))).json().code).toBe(
      ErrorCode.INVALID_CODE,
    );
  });

  it('answers a taken address exactly like a free one, sends it nothing, and changes nothing', async () => {
    const other = await account();
    const { email, password, token } = await account();
    const free = await ask(token, { new_email: uniqueEmail('free'), password });
    const taken = await ask(token, { new_email: other.email.toUpperCase(), password });
    expect(taken.statusCode).toBe(free.statusCode);
    expect(Object.keys(taken.json())).toEqual(Object.keys(free.json()));
    expect(taken.json().email).toBe(other.email.toUpperCase());
    await t.ctx.outbox.drain();
    // The taken address's owner got only their own registration's mail.
    expect(t.mailbox.to(other.email).map((m) => m.subject)).toEqual([
      expect.stringContaining('activation code'),
    ]);
    // Whatever code is tried, nothing changes.
    for (const code of ['000000', '123456', '999999']) {
      expect((await confirm(token, code)).json().code).toBe(ErrorCode.INVALID_CODE);
    }
    expect((await me(token)).email).toBe(email);
    expect((await me(other.token)).email).toBe(other.email);
  });

  it('refuses a wrong password, its own address, bad input; and after 5 wrong codes, the code', async () => {
    const { email, password, token } = await account();
    const wrong = await ask(token, { new_email: uniqueEmail(), password: 'not my password' });
    expect(wrong.json()).toMatchObject({
      code: ErrorCode.WRONG_PASSWORD,
      details: [{ field: 'password' }],
    });
    const same = await ask(token, { new_email: email.toUpperCase(), password });
    expect(same.json()).toMatchObject({ details: [{ field: 'new_email' }] });
    for (const [payload, field] of [
      [{ new_email: 'not-an-address', password }, 'new_email'],
      [{ password }, 'new_email'],
      [{ new_email: uniqueEmail() }, 'password'],
    ] as const) {
      const res = await ask(token, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const next = uniqueEmail('five');
    await ask(token, { new_email: next, password });
    const code = extractCodeFrom((await t.mailTo(next)).text);
    const bad = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 4; i++)
      expect((await confirm(token, bad)).json().code).toBe(ErrorCode.INVALID_CODE);
    expect((await confirm(token, bad)).json().code).toBe(ErrorCode.TOO_MANY_ATTEMPTS);
    expect((await confirm(token, code)).json().code).toBe(ErrorCode.TOO_MANY_ATTEMPTS);
    expect((await me(token)).email).toBe(email);
    for (const c of ['12345', 'abcdef']) expect((await confirm(token, c)).statusCode).toBe(400);
  });

  it('needs a fresh proof of presence to ask, and a session for both', async () => {
    const { password, token } = await account();
    t.clock.advance(11 * 60_000);
    const stale = await ask(token, { new_email: uniqueEmail(), password });
    expect(stale.json().code).toBe(ErrorCode.STEP_UP_REQUIRED);
    for (const url of ['/v1/user/email-change/', '/v1/user/email-change/confirm/']) {
      const res = await t.app.inject({ method: 'POST', url, payload: { code: '123456' } });
      expect(res.statusCode, url).toBe(401);
    }
  });
});
