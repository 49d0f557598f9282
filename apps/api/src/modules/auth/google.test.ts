import net from 'node:net';
import { and, eq } from 'drizzle-orm';
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
import {
  signInAtProvider,
  startTestOidcProvider,
  type TestOidcAccount,
  type TestOidcProvider,
} from '../../../test/support/oidc-provider.ts';
import { enrolTotp, secondStep } from '../../../test/support/mfa.ts';
import { oauthAccounts, oidcLogins, users } from '../../db/schema/index.ts';
import { minutes } from '../../lib/clock.ts';
import { sanitizeReturnPath } from './google-service.ts';

const PUBLIC_URL = 'http://localhost:3999';
const REDIRECT_URI = `${PUBLIC_URL}/google-auth`;
const CLIENT_ID = 'portolan-test-client';
const CLIENT_SECRET = 'portolan-test-secret-0123456789';

let sequence = 0;
const googleAccount = (fields: Partial<TestOidcAccount> = {}): TestOidcAccount => ({
  sub: `google-sub-${Date.now().toString(36)}-${sequence++}`,
  email: uniqueEmail('google'),
  email_verified: true,
  given_name: 'Grace',
  family_name: 'Hopper',
  ...fields,
});

/** Signing in with Google, end to end, against a local OpenID Connect provider. */
describe('sign-in with Google', () => {
  let provider: TestOidcProvider;
  let t: TestApp;

  beforeAll(async () => {
    provider = await startTestOidcProvider({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUri: REDIRECT_URI,
      account: googleAccount(),
    });
    t = await createTestApp({
      PUBLIC_URL,
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
      GOOGLE_ISSUER: provider.issuer,
    });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  const start = (path?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/v1/social-auth/google/start/',
      query: path === undefined ? {} : { path },
    });

  /** start → the provider's sign-in page → back to /google-auth with code and state. */
  async function callback(account: TestOidcAccount, path?: string) {
    provider.setAccount(account);
    const res = await start(path);
    expect(res.statusCode, res.body).toBe(302);
    const back = await signInAtProvider(String(res.headers.location), REDIRECT_URI);
    expect(back.origin + back.pathname).toBe(REDIRECT_URI);
    return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! };
  }

  const finish = (payload: { code: string; state: string }) =>
    t.app.inject({ method: 'POST', url: '/v1/social-auth/google/', payload });

  async function signInWithGoogle(account: TestOidcAccount, path?: string) {
    const res = await finish(await callback(account, path));
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { token: string; path: string | null };
  }

  const me = async (token: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/rest-auth/user/',
      headers: bearer(token),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  const linksOf = (subject: string) =>
    t.ctx.db
      .select()
      .from(oauthAccounts)
      .where(and(eq(oauthAccounts.provider, 'google'), eq(oauthAccounts.subject, subject)));

  it('redirects to the provider with state, nonce and PKCE, and keeps them', async () => {
    const res = await start('/ps/dashboard?tab=2');
    expect(res.statusCode).toBe(302);
    expect(res.headers['cache-control']).toBe('no-store');
    const url = new URL(String(res.headers.location));
    expect(url.origin).toBe(provider.issuer);
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(q.code_challenge).toMatch(/^[\w-]{43}$/);
    expect(q.state).toMatch(/^[\w-]{20,}$/);
    expect(q.nonce).toMatch(/^[\w-]{20,}$/);
    const [row] = await t.ctx.db.select().from(oidcLogins).where(eq(oidcLogins.state, q.state!));
    expect(row).toMatchObject({ nonce: q.nonce, return_path: '/ps/dashboard?tab=2' });
    expect(row!.code_verifier).not.toBe(q.code_challenge);
    expect(row!.expires_at.getTime() - t.clock.now().getTime()).toBe(minutes(10));
  });

  it('drops a return path that leaves the site', async () => {
    for (const path of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'ps']) {
      const res = await start(path);
      expect(res.statusCode).toBe(302);
      const state = new URL(String(res.headers.location)).searchParams.get('state')!;
      const [row] = await t.ctx.db.select().from(oidcLogins).where(eq(oidcLogins.state, state));
      expect(row!.return_path, path).toBeNull();
    }
    expect(sanitizeReturnPath('/login?path=%2Fps')).toBe('/login?path=%2Fps');
    expect(sanitizeReturnPath('/a\nb')).toBeNull();
    expect(sanitizeReturnPath(undefined)).toBeNull();
  });

  it('signs a new Google user up and in, with the names and e-mail from the ID token', async () => {
    const account = googleAccount({ given_name: 'Ada', family_name: 'Lovelace' });
    const { token, path } = await signInWithGoogle(account, '/ps/profile');
    expect(path).toBe('/ps/profile');
    const user = await me(token);
    expect(user).toMatchObject({
      email: account.email,
      first_name: 'Ada',
      last_name: 'Lovelace',
      can_create_client: true,
    });
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, user.user_id));
    expect(row!.password_hash).toBeNull();
    expect(row!.email_verified_at).not.toBeNull();
    const links = await linksOf(account.sub);
    expect(links).toHaveLength(1);
    expect(links[0]!.user_id).toBe(user.user_id);

    // The next sign-in with the same Google account is the same user, without a path.
    const again = await signInWithGoogle(account);
    expect(again.path).toBeNull();
    expect((await me(again.token)).user_id).toBe(user.user_id);
  });

  it('uses a state once', async () => {
    const cb = await callback(googleAccount());
    expect((await finish(cb)).statusCode).toBe(200);
    const second = await finish(cb);
    expect(second.statusCode).toBe(400);
    expect(second.json()).toMatchObject({
      code: ErrorCode.OIDC_FAILED,
      details: [{ field: 'state', message: expect.any(String) }],
    });
  });

  it('refuses an unknown state', async () => {
    const cb = await callback(googleAccount());
    const res = await finish({ code: cb.code, state: `${cb.state}x` });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(ErrorCode.OIDC_FAILED);
    expect(res.json().details[0].field).toBe('state');
  });

  it('refuses a tampered code, and the state is spent by the attempt', async () => {
    const account = googleAccount();
    const cb = await callback(account);
    const res = await finish({ code: `${cb.code}x`, state: cb.state });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: ErrorCode.OIDC_FAILED,
      message: expect.stringMatching(/invalid_grant/),
      details: [{ field: 'code', message: expect.any(String) }],
    });
    expect((await finish(cb)).statusCode).toBe(400);
    expect(await linksOf(account.sub)).toHaveLength(0);
  });

  it('refuses when the PKCE verifier or the nonce does not match', async () => {
    const pkce = await callback(googleAccount());
    await t.ctx.db
      .update(oidcLogins)
      .set({ code_verifier: 'x'.repeat(64) })
      .where(eq(oidcLogins.state, pkce.state));
    const badVerifier = await finish(pkce);
    expect(badVerifier.statusCode).toBe(400);
    expect(badVerifier.json().code).toBe(ErrorCode.OIDC_FAILED);

    const nonce = await callback(googleAccount());
    await t.ctx.db
      .update(oidcLogins)
      .set({ nonce: 'not-the-nonce' })
      .where(eq(oidcLogins.state, nonce.state));
    const badNonce = await finish(nonce);
    expect(badNonce.statusCode).toBe(400);
    expect(badNonce.json().code).toBe(ErrorCode.OIDC_FAILED);
  });

  it('refuses a sign-in finished more than 10 minutes after it started', async () => {
    const cb = await callback(googleAccount());
    t.clock.advance(minutes(10) + 1000);
    try {
      const res = await finish(cb);
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0].field).toBe('state');
    } finally {
      t.clock.advance(-(minutes(10) + 1000));
    }
  });

  it('links a verified Google e-mail to the existing account, then follows the subject', async () => {
    const { email } = await registerActiveUser(t, { first_name: 'Pat', last_name: 'Word' });
    const passwordToken = await signIn(t, email, STRONG_PASSWORD);
    const { user_id } = await me(passwordToken);

    // Same address in other letter case: still the same person.
    const account = googleAccount({ email: email.toUpperCase(), given_name: 'Other' });
    const first = await signInWithGoogle(account);
    const linked = await me(first.token);
    expect(linked).toMatchObject({ user_id, email, first_name: 'Pat', last_name: 'Word' });
    expect((await linksOf(account.sub))[0]!.user_id).toBe(user_id);

    // The password still works.
    await signIn(t, email, STRONG_PASSWORD);

    // The address at Google changes: the subject still finds the account.
    const moved = { ...account, email: uniqueEmail('moved') };
    const later = await signInWithGoogle(moved);
    expect(await me(later.token)).toMatchObject({ user_id, email });
    expect((await linksOf(account.sub))[0]!.email).toBe(moved.email);
  });

  it('never links on an e-mail the provider has not verified', async () => {
    const { email } = await registerActiveUser(t);
    const account = googleAccount({ email, email_verified: false });
    const res = await finish(await callback(account));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: ErrorCode.EMAIL_TAKEN,
      message: expect.stringMatching(/password/),
    });
    expect(await linksOf(account.sub)).toHaveLength(0);
  });

  it('activates a never-activated account it links to and drops its unproven password', async () => {
    const email = uniqueEmail('pending');
    const reg = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/registration/',
      payload: {
        email,
        password1: STRONG_PASSWORD,
        password2: STRONG_PASSWORD,
        first_name: 'Pending',
        last_name: 'User',
      },
    });
    expect(reg.statusCode).toBe(201);
    const { token } = await signInWithGoogle(googleAccount({ email }));
    const user = await me(token);
    expect(user.email).toBe(email);
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, user.user_id));
    expect(row!.email_verified_at).not.toBeNull();
    expect(row!.password_hash).toBeNull();
    const login = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/app/login/',
      payload: { email, password: STRONG_PASSWORD },
    });
    expect(login.statusCode).toBe(400);
  });

  it('creates an account for an unverified e-mail nobody has, left unverified', async () => {
    const account = googleAccount({ email_verified: false });
    const { token } = await signInWithGoogle(account);
    const user = await me(token);
    expect(user.email).toBe(account.email);
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, user.user_id));
    expect(row!.email_verified_at).toBeNull();
  });

  it('refuses a disabled user', async () => {
    const account = googleAccount();
    const { token } = await signInWithGoogle(account);
    const { user_id } = await me(token);
    await t.ctx.db.update(users).set({ enabled: false }).where(eq(users.id, user_id));
    const res = await finish(await callback(account));
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(ErrorCode.ACCOUNT_DISABLED);
  });

  it('asks an account with a second factor for it, as a password sign-in does', async () => {
    const account = googleAccount();
    const { token } = await signInWithGoogle(account, '/ps/profile');
    const { authenticator } = await enrolTotp(t, token);
    const res = await finish(await callback(account, '/ps/profile'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      mfa_required: true,
      mfa_token: expect.any(String),
      methods: ['totp', 'recovery_code'],
      path: '/ps/profile',
    });
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/v1/rest-auth/user/',
          headers: bearer(res.json().mfa_token),
        })
      ).statusCode,
    ).toBe(401);
    const done = await secondStep(t, res.json().mfa_token, { code: authenticator.code() });
    expect(done.statusCode).toBe(200);
    expect((await me(done.json().token)).email).toBe(account.email);
    // The security log tells the sign-in's first and second factor.
    const log = await t.app.inject({
      method: 'GET',
      url: '/v1/user/security-events/',
      headers: bearer(done.json().token),
    });
    expect(log.json().results[0]).toMatchObject({
      kind: 'sign_in',
      method: 'google',
      factor: 'totp',
    });
  });

  it('validates the body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/social-auth/google/',
      payload: { code: '', state: 'x', extra: 1 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(ErrorCode.VALIDATION_ERROR);
  });

  it('shows the Google button in the public config', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/config' });
    expect(res.json().features.google_login).toBe(true);
  });
});

describe('sign-in with Google switched off or unreachable', () => {
  const apps: TestApp[] = [];
  afterAll(() => Promise.all(apps.map((a) => a.close())));
  const app = async (env: Record<string, string>) => {
    const t = await createTestApp({ PUBLIC_URL, ...env });
    apps.push(t);
    return t;
  };

  it('answers 403 FEATURE_DISABLED when the switch is off or no client id is set', async () => {
    const off = await app({ FEATURE_GOOGLE_LOGIN: 'false', GOOGLE_CLIENT_ID: CLIENT_ID });
    const noId = await app({});
    for (const t of [off, noId]) {
      const s = await t.app.inject({ method: 'GET', url: '/v1/social-auth/google/start/' });
      expect(s.statusCode).toBe(403);
      expect(s.json().code).toBe(ErrorCode.FEATURE_DISABLED);
      const f = await t.app.inject({
        method: 'POST',
        url: '/v1/social-auth/google/',
        payload: { code: 'c', state: 's' },
      });
      expect(f.statusCode).toBe(403);
      expect(f.json().code).toBe(ErrorCode.FEATURE_DISABLED);
      const config = await t.app.inject({ method: 'GET', url: '/v1/config' });
      expect(config.json().features.google_login).toBe(false);
    }
  });

  it('answers 503 when the provider cannot be reached', async () => {
    const port = await freePort();
    const t = await app({
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
      GOOGLE_ISSUER: `http://127.0.0.1:${port}`,
    });
    const res = await t.app.inject({ method: 'GET', url: '/v1/social-auth/google/start/' });
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe(ErrorCode.SERVICE_UNAVAILABLE);
  });

  it('limits the start per IP', async () => {
    const t = await app({ FEATURE_GOOGLE_LOGIN: 'false' });
    const codes: number[] = [];
    for (let i = 0; i < 61; i++) {
      codes.push(
        (await t.app.inject({ method: 'GET', url: '/v1/social-auth/google/start/' })).statusCode,
      );
    }
    expect(codes.slice(0, 60).every((c) => c === 403)).toBe(true);
    expect(codes[60]).toBe(429);
  });
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
