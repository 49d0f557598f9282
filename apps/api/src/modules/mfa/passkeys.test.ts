// engine-parity: issue 20 asks every account-security item of both engines (codes, locks, policy)
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, passkeyOptionsResponseSchema } from '@portolan/contract';
import {
  bearer,
  createTestApp,
  registerActiveUser,
  signIn,
  type TestApp,
} from '../../../test/support/app.ts';
import { passwordStep, secondStep } from '../../../test/support/mfa.ts';
import { SoftAuthenticator } from '../../../test/support/webauthn.ts';
import { users } from '../../db/schema/index.ts';

const PUBLIC_URL = 'http://localhost:3999';

/**
 * Issue 20 item 2: passkeys (WebAuthn, verified by @simplewebauthn/server). Registered, listed and
 * removed under /v1/user/mfa/passkeys/; a second factor of a password sign-in and of a step-up,
 * and a sign-in of their own without a password. The test's authenticator is a software one
 * (test/support/webauthn.ts); the browser tests use Chromium's virtual authenticator.
 */
describe('passkeys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL });
  });
  afterAll(() => t.close());

  async function account() {
    const { email, password } = await registerActiveUser(t);
    return { email, password, token: await signIn(t, email, password) };
  }
  const post = (url: string, token: string | null, payload?: object) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: token ? bearer(token) : {},
      ...(payload && { payload }),
    });
  /** Adds a passkey of a new software authenticator; returns it and the answer. */
  async function addPasskey(token: string, name?: string) {
    const device = new SoftAuthenticator(PUBLIC_URL);
    const options = passkeyOptionsResponseSchema.parse(
      (await post('/v1/user/mfa/passkeys/options/', token)).json(),
    );
    const res = await post('/v1/user/mfa/passkeys/', token, {
      challenge_id: options.challenge_id,
      response: device.register(options.options as never),
      ...(name && { name }),
    });
    return { device, res, options };
  }
  const options = async (url: string, token: string | null, payload?: object) =>
    passkeyOptionsResponseSchema.parse((await post(url, token, payload)).json());

  it('registers a discoverable, user-verifying passkey; the first factor brings recovery codes', async () => {
    const { token } = await account();
    const first = await addPasskey(token, 'My laptop');
    expect(first.options.options).toMatchObject({
      rp: { id: 'localhost', name: 'Portolan' },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      excludeCredentials: [],
    });
    expect(first.res.statusCode, first.res.body).toBe(201);
    expect(first.res.json()).toMatchObject({
      passkey: { name: 'My laptop', last_used_at: null, backed_up: false },
      recovery_codes: expect.arrayContaining([expect.any(String)]),
    });
    expect(first.res.json().recovery_codes).toHaveLength(10);

    const second = await addPasskey(token);
    expect(second.options.options.excludeCredentials).toEqual([
      expect.objectContaining({ id: first.device.credentialId.toString('base64url') }),
    ]);
    expect(second.res.json()).toMatchObject({
      passkey: { name: expect.stringMatching(/^Passkey on /) },
      recovery_codes: null,
    });
    const list = await t.app.inject({
      method: 'GET',
      url: '/v1/user/mfa/passkeys/',
      headers: bearer(token),
    });
    expect(list.json().results.map((p: { name: string }) => p.name)[0]).toBe('My laptop');
    const status = await t.app.inject({
      method: 'GET',
      url: '/v1/user/mfa/',
      headers: bearer(token),
    });
    expect(status.json()).toMatchObject({ methods: ['passkey', 'recovery_code'], passkeys: 2 });
  });

  it('refuses an answer for another origin, a spent challenge, and the same passkey twice', async () => {
    const { token } = await account();
    const device = new SoftAuthenticator(PUBLIC_URL);
    const opts = await options('/v1/user/mfa/passkeys/options/', token);
    const phished = await post('/v1/user/mfa/passkeys/', token, {
      challenge_id: opts.challenge_id,
      response: device.register(opts.options as never, 'https://evil.example'),
    });
    expect(phished.statusCode).toBe(400);
    expect(phished.json()).toMatchObject({
      code: ErrorCode.INVALID_CODE,
      details: [{ field: 'response' }],
    });
    // The challenge was spent by that attempt.
    const again = await post('/v1/user/mfa/passkeys/', token, {
      challenge_id: opts.challenge_id,
      response: device.register(opts.options as never),
    });
    expect(again.json().details[0].field).toBe('challenge_id');
    const fresh = await options('/v1/user/mfa/passkeys/options/', token);
    expect(
      (
        await post('/v1/user/mfa/passkeys/', token, {
          challenge_id: fresh.challenge_id,
          response: device.register(fresh.options as never),
        })
      ).statusCode,
    ).toBe(201);
    const twice = await options('/v1/user/mfa/passkeys/options/', token);
    const dup = await post('/v1/user/mfa/passkeys/', token, {
      challenge_id: twice.challenge_id,
      response: device.register(twice.options as never),
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe(ErrorCode.PASSKEY_LIMIT);
    // Bad input names its field.
    const bad = await post('/v1/user/mfa/passkeys/', token, { challenge_id: 'x', response: {} });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((d: { field: string }) => d.field)).toEqual(
      expect.arrayContaining(['challenge_id']),
    );
  });

  it('is the second step of a password sign-in', async () => {
    const { email, password, token } = await account();
    const { device } = await addPasskey(token);
    const first = (await passwordStep(t, email, password)).json();
    expect(first.methods).toEqual(['passkey', 'recovery_code']);
    const opts = await options('/v1/rest-auth/app/login/mfa/passkey-options/', null, {
      mfa_token: first.mfa_token,
    });
    expect(opts.options.allowCredentials).toEqual([
      expect.objectContaining({ id: device.credentialId.toString('base64url') }),
    ]);
    const done = await post('/v1/rest-auth/app/login/mfa/', null, {
      mfa_token: first.mfa_token,
      passkey: { challenge_id: opts.challenge_id, response: device.assert(opts.options as never) },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().token).toEqual(expect.any(String));
    // Another authenticator's answer is no factor of this account.
    const other = new SoftAuthenticator(PUBLIC_URL);
    const next = (await passwordStep(t, email, password)).json();
    const opts2 = await options('/v1/rest-auth/app/login/mfa/passkey-options/', null, {
      mfa_token: next.mfa_token,
    });
    const wrong = await secondStep(t, next.mfa_token, {
      passkey: { challenge_id: opts2.challenge_id, response: other.assert(opts2.options as never) },
    } as never);
    expect(wrong.json()).toMatchObject({
      code: ErrorCode.INVALID_CODE,
      details: [{ field: 'passkey' }],
    });
    const dead = await post('/v1/rest-auth/app/login/mfa/passkey-options/', null, {
      mfa_token: 'x',
    });
    expect(dead.json().code).toBe(ErrorCode.INVALID_TOKEN);
  });

  it('signs in without a password, once per challenge, and logs how', async () => {
    const { token } = await account();
    const { device } = await addPasskey(token);
    t.clock.advance(1000);
    const opts = await options('/v1/rest-auth/passkey/options/', null);
    expect(opts.options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(opts.options.allowCredentials ?? []).toEqual([]);
    const assertion = {
      challenge_id: opts.challenge_id,
      response: device.assert(opts.options as never),
    };
    const signedIn = await post('/v1/rest-auth/passkey/', null, assertion);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const session = signedIn.json().token as string;
    const log = await t.app.inject({
      method: 'GET',
      url: '/v1/user/security-events/',
      headers: bearer(session),
    });
    expect(log.json().results[0]).toMatchObject({
      kind: 'sign_in',
      method: 'passkey',
      factor: null,
    });
    // The same answer again: the challenge is spent.
    const replay = await post('/v1/rest-auth/passkey/', null, assertion);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe(ErrorCode.INVALID_CREDENTIALS);
    // A passkey the portal does not know.
    const stranger = new SoftAuthenticator(PUBLIC_URL);
    const opts2 = await options('/v1/rest-auth/passkey/options/', null);
    const unknown = await post('/v1/rest-auth/passkey/', null, {
      challenge_id: opts2.challenge_id,
      response: stranger.assert(opts2.options as never),
    });
    expect(unknown.json().code).toBe(ErrorCode.INVALID_CREDENTIALS);
  });

  it('does not sign a disabled account in', async () => {
    const { email, token } = await account();
    const { device } = await addPasskey(token);
    await t.ctx.db.update(users).set({ enabled: false }).where(eq(users.email, email));
    const opts = await options('/v1/rest-auth/passkey/options/', null);
    const res = await post('/v1/rest-auth/passkey/', null, {
      challenge_id: opts.challenge_id,
      response: device.assert(opts.options as never),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(ErrorCode.ACCOUNT_DISABLED);
  });

  it('steps up, and is removed with the recovery codes when it is the last factor', async () => {
    const { email, password, token } = await account();
    const { device, res } = await addPasskey(token);
    const passkeyId = res.json().passkey.id as string;
    t.clock.advance(11 * 60_000);
    const stale = await t.app.inject({
      method: 'DELETE',
      url: `/v1/user/mfa/passkeys/${passkeyId}/`,
      headers: bearer(token),
    });
    expect(stale.json()).toMatchObject({
      code: ErrorCode.STEP_UP_REQUIRED,
      details: { methods: ['password', 'passkey', 'recovery_code'] },
    });
    const opts = await options('/v1/user/step-up/passkey-options/', token);
    const stepped = await post('/v1/user/step-up/', token, {
      passkey: { challenge_id: opts.challenge_id, response: device.assert(opts.options as never) },
    });
    expect(stepped.statusCode, stepped.body).toBe(200);
    const other = await account();
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `/v1/user/mfa/passkeys/${passkeyId}/`,
      headers: bearer(other.token),
    });
    expect(foreign.statusCode).toBe(404);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/v1/user/mfa/passkeys/${passkeyId}/`,
      headers: bearer(token),
    });
    expect(removed.statusCode).toBe(200);
    const status = await t.app.inject({
      method: 'GET',
      url: '/v1/user/mfa/',
      headers: bearer(token),
    });
    expect(status.json()).toMatchObject({ methods: [], passkeys: 0, recovery_codes_remaining: 0 });
    expect((await passwordStep(t, email, password)).json().token).toEqual(expect.any(String));
  });

  it('answers 401 to anyone not signed in', async () => {
    for (const [method, url] of [
      ['GET', '/v1/user/mfa/passkeys/'],
      ['POST', '/v1/user/mfa/passkeys/options/'],
      ['POST', '/v1/user/mfa/passkeys/'],
      ['DELETE', `/v1/user/mfa/passkeys/${crypto.randomUUID()}/`],
      ['POST', '/v1/user/step-up/passkey-options/'],
    ] as const) {
      expect((await t.app.inject({ method, url })).statusCode, url).toBe(401);
    }
  });
});
