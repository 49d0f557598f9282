// engine-parity: issue 20 asks every account-security item of both engines (codes, locks, policy)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, securityEventListResponseSchema } from '@portolan/contract';
import {
  bearer,
  createTestApp,
  registerActiveUser,
  signIn,
  STRONG_PASSWORD,
  type TestApp,
} from '../../../test/support/app.ts';
import { enrolTotp, passwordStep, secondStep } from '../../../test/support/mfa.ts';

const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/**
 * Issue 20 item 8: the account's security log. Sign-ins with their method and device, failed
 * sign-ins and factors, MFA and password changes, sessions ended, step-ups; only the caller's own.
 */
describe('the security log', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const log = async (token: string, query = '') => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/user/security-events/${query}`,
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    return securityEventListResponseSchema.parse(res.json());
  };

  it('records what happens to the account’s security, newest first', async () => {
    const { email, password } = await registerActiveUser(t);
    const token = await signIn(t, email, password);
    t.clock.advance(1000);
    await passwordStep(t, email, 'a wrong password entirely', PHONE);
    t.clock.advance(1000);
    const { authenticator } = await enrolTotp(t, token);
    const challenge = (await passwordStep(t, email, password, PHONE)).json();
    const wrong = authenticator.code() === '000000' ? '000001' : '000000';
    await secondStep(t, challenge.mfa_token, { code: wrong }, PHONE);
    t.clock.advance(1000);
    const phone = (
      await secondStep(t, challenge.mfa_token, { code: authenticator.code() }, PHONE)
    ).json().token as string;
    t.clock.advance(1000);
    await t.app.inject({
      method: 'POST',
      url: '/v1/user/sessions/revoke-others/',
      headers: bearer(phone),
    });
    t.clock.advance(1000);
    await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/password/change/',
      headers: bearer(phone),
      payload: {
        old_password: STRONG_PASSWORD,
        new_password1: 'A brand new passphrase 31',
        new_password2: 'A brand new passphrase 31',
      },
    });
    const page = await log(phone);
    expect(page.results.map((e) => e.kind)).toEqual([
      'password_changed',
      'sessions_revoked',
      'sign_in',
      'mfa_failed',
      'totp_enabled',
      'sign_in_failed',
      'sign_in',
      'sign_in',
    ]);
    expect(page.results[2]).toMatchObject({
      method: 'password',
      factor: 'totp',
      device: 'mobile',
      browser: 'Safari 17',
      os: 'iOS 17.4',
    });
    expect(page.results[5]).toMatchObject({
      kind: 'sign_in_failed',
      method: 'password',
      device: 'mobile',
    });
    // Pages: 3 a page.
    const first = await log(phone, '?limit=3');
    expect(first).toMatchObject({ count: 8, next: 2, previous: null });
    expect((await log(phone, '?limit=3&page=3')).results).toHaveLength(2);
  });

  it('shows nobody else’s events', async () => {
    const a = await registerActiveUser(t);
    const b = await registerActiveUser(t);
    const tokenA = await signIn(t, a.email, a.password);
    await passwordStep(t, b.email, 'wrong guess at b password');
    const events = await log(tokenA);
    expect(events.results.every((e) => e.kind === 'sign_in')).toBe(true);
    expect(events.count).toBe(2);
  });

  it('refuses bad paging and anyone not signed in', async () => {
    const a = await registerActiveUser(t);
    const token = await signIn(t, a.email, a.password);
    for (const query of ['?limit=0', '?limit=101', '?page=0', '?page=x', '?sort=kind']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v1/user/security-events/${query}`,
        headers: bearer(token),
      });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe(ErrorCode.VALIDATION_ERROR);
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/v1/user/security-events/' });
    expect(anonymous.statusCode).toBe(401);
  });
});
