// engine-parity: fifty step-ups at once with one recovery code
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, stepUpResponseSchema } from '@portolan/contract';
import {
  bearer,
  createTestApp,
  registerActiveUser,
  signIn,
  STRONG_PASSWORD,
  type TestApp,
} from '../../../test/support/app.ts';
import { enrolTotp } from '../../../test/support/mfa.ts';
import { FACTORY_PASSWORD } from '../../seed/factories.ts';
import { createTenantScene, type Person, type TenantScene } from '../../../test/support/tenants.ts';

const STALE_MS = 10 * 60_000 + 1000;

/**
 * Issue 20 item 4: sensitive actions need a proof of presence within STEP_UP_MAX_AGE_S (600 s;
 * the sign-in counts), declared by the route (`stepUp` in config.access), else 403
 * STEP_UP_REQUIRED naming how to prove it; POST /v1/user/step-up/ renews it for the session.
 * Runs on both engines.
 */
describe('step-up', () => {
  let t: TestApp;
  let s: TenantScene;
  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
  });
  afterAll(() => t.close());

  async function account() {
    const { email, password } = await registerActiveUser(t);
    return { email, password, token: await signIn(t, email, password) };
  }
  const stepUp = (token: string, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/user/step-up/',
      headers: bearer(token),
      payload,
    });
  const changePassword = (token: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/password/change/',
      headers: bearer(token),
      payload: {
        old_password: STRONG_PASSWORD,
        new_password1: STRONG_PASSWORD,
        new_password2: STRONG_PASSWORD,
      },
    });

  it('lets a fresh sign-in act, asks again after 10 minutes, and a password renews it', async () => {
    const { token } = await account();
    expect((await changePassword(token)).statusCode).toBe(200);
    t.clock.advance(STALE_MS);
    const refused = await changePassword(token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: ErrorCode.STEP_UP_REQUIRED,
      message: expect.stringContaining('confirm it is you'),
      details: { methods: ['password'] },
    });
    const wrong = await stepUp(token, { password: 'not my password at all' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: ErrorCode.WRONG_PASSWORD,
      details: [{ field: 'password' }],
    });
    expect((await changePassword(token)).statusCode).toBe(403);

    const renewed = await stepUp(token, { password: STRONG_PASSWORD });
    expect(renewed.statusCode).toBe(200);
    const body = stepUpResponseSchema.parse(renewed.json());
    expect(new Date(body.step_up_until).getTime()).toBe(t.clock.now().getTime() + 600_000);
    expect((await changePassword(token)).statusCode).toBe(200);
  });

  it('renews only the session that proved it', async () => {
    const { email, password, token } = await account();
    const other = await signIn(t, email, password);
    t.clock.advance(STALE_MS);
    expect((await stepUp(token, { password })).statusCode).toBe(200);
    const stale = await t.app.inject({
      method: 'POST',
      url: '/v1/user/mfa/totp/',
      headers: bearer(other),
    });
    expect(stale.json().code).toBe(ErrorCode.STEP_UP_REQUIRED);
    const fresh = await t.app.inject({
      method: 'POST',
      url: '/v1/user/mfa/totp/',
      headers: bearer(token),
    });
    expect(fresh.statusCode).toBe(200);
  });

  it('takes a code or a recovery code, each once', async () => {
    const { token } = await account();
    const { authenticator, recoveryCodes } = await enrolTotp(t, token);
    t.clock.advance(STALE_MS);
    const code = authenticator.code();
    expect((await stepUp(token, { code })).statusCode).toBe(200);
    // The same code again within its window: a replay.
    const replay = await stepUp(token, { code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe(ErrorCode.INVALID_CODE);
    // 50 step-ups at once with one recovery code: exactly one is taken.
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => stepUp(token, { recovery_code: recoveryCodes[0]! })),
    );
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(answers.every((r) => [200, 400, 429].includes(r.statusCode))).toBe(true);
  });

  it('refuses bad input naming the field, and anyone not signed in', async () => {
    const { token } = await account();
    const cases: [object, string][] = [
      [{}, 'password'],
      [{ password: 'x', code: '123456' }, 'code'],
      [{ code: '12' }, 'code'],
      [{ recovery_code: '!' }, 'recovery_code'],
    ];
    for (const [payload, field] of cases) {
      const res = await stepUp(token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/v1/user/step-up/',
      payload: { password: STRONG_PASSWORD },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  describe('on the organization’s sensitive routes', () => {
    /** Each route, its body, and its headers: every one needs a step-up from a stale session. */
    const routes = (orgId: string) =>
      [
        ['POST', `/v1/organizations/${orgId}/grade-changes/checkout/`, { plan: 'PROFESSIONAL' }],
        ['POST', `/v1/organizations/${orgId}/payment-methods/checkout/`, undefined],
        [
          'POST',
          `/v1/organizations/${orgId}/payment-methods/modification/`,
          { payment_method_id: crypto.randomUUID() },
        ],
        [
          'DELETE',
          `/v1/organizations/${orgId}/payment-methods/modification/`,
          { payment_method_id: crypto.randomUUID() },
        ],
        ['POST', `/v1/organizations/${orgId}/data-exports/`, undefined],
      ] as const;
    const send = (
      method: 'POST' | 'DELETE',
      url: string,
      who: Person | 'anonymous',
      payload?: object,
    ) =>
      t.app.inject({
        method,
        url,
        headers: {
          'idempotency-key': crypto.randomUUID(),
          ...(who === 'anonymous' ? {} : bearer(who.token)),
        },
        ...(payload && { payload }),
      });

    it('asks the OWNER to step up, and answers others as before (401, 404, 403)', async () => {
      t.clock.advance(STALE_MS);
      for (const [method, url, payload] of routes(s.orgId)) {
        const owner = await send(method, url, s.people.OWNER, payload);
        expect(owner.statusCode, url).toBe(403);
        expect(owner.json().code, url).toBe(ErrorCode.STEP_UP_REQUIRED);
        expect((await send(method, url, 'anonymous', payload)).statusCode, url).toBe(401);
        const stranger = await send(method, url, s.people.STRANGER, payload);
        expect(stranger.statusCode, url).toBe(404);
        const staff = await send(method, url, s.people.STAFF, payload);
        expect(staff.statusCode, url).toBe(403);
        expect(staff.json().code, url).toBe(ErrorCode.PERMISSION_DENIED);
        // Bad input is answered first: nothing is asked of a request that cannot run.
        if (payload) {
          const bad = await send(method, url, s.people.OWNER, { wrong: true });
          expect(bad.statusCode, url).toBe(400);
        }
      }
    });

    it('asks for a step-up to make someone OWNER or ADMIN, not MEMBER or STAFF', async () => {
      const target = await s.member('STAFF');
      t.clock.advance(STALE_MS);
      const url = `/v1/organizations/${s.orgId}/users/${target.id}/role/`;
      for (const role of ['OWNER', 'ADMIN']) {
        const res = await s.send('PUT', url, s.people.OWNER, { role });
        expect(res.statusCode, role).toBe(403);
        expect(res.json().code).toBe(ErrorCode.STEP_UP_REQUIRED);
      }
      const client = await s.send('PUT', url, s.people.OWNER, { role: 'CLIENT' });
      expect(client.statusCode).toBe(200);
      expect((await stepUp(s.people.OWNER.token, { password: FACTORY_PASSWORD })).statusCode).toBe(
        200,
      );
      const admin = await s.send('PUT', url, s.people.OWNER, { role: 'ADMIN' });
      expect(admin.statusCode).toBe(200);
    });
  });
});
