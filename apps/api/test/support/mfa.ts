import { base32Decode, hotp, totpStep } from '../../src/lib/totp.ts';
import { bearer, type TestApp } from './app.ts';

/** An account's authenticator app, as a test holds it: the secret and the codes it shows. */
export interface Authenticator {
  secret: Buffer;
  /** The code of the test clock's step, or of a step `offset` away. */
  code(offset?: number): string;
}

export function authenticatorFor(t: TestApp, base32: string): Authenticator {
  const secret = base32Decode(base32);
  return { secret, code: (offset = 0) => hotp(secret, totpStep(t.clock.now()) + offset) };
}

/**
 * Sets up TOTP through the API with a freshly signed-in session (no step-up needed) and returns
 * the authenticator and the recovery codes. The code that confirmed is spent: the clock moves to
 * the next step, so `code()` is a new one.
 */
export async function enrolTotp(t: TestApp, token: string) {
  const setup = await t.app.inject({
    method: 'POST',
    url: '/v1/user/mfa/totp/',
    headers: bearer(token),
  });
  if (setup.statusCode !== 200) throw new Error(`TOTP setup failed: ${setup.body}`);
  const authenticator = authenticatorFor(t, setup.json().secret);
  const confirm = await t.app.inject({
    method: 'POST',
    url: '/v1/user/mfa/totp/confirm/',
    headers: bearer(token),
    payload: { code: authenticator.code() },
  });
  if (confirm.statusCode !== 200) throw new Error(`TOTP confirm failed: ${confirm.body}`);
  t.clock.advance(30_000);
  return { authenticator, recoveryCodes: confirm.json().recovery_codes as string[] };
}

let address = 0;
/** An address of its own for each call: the per-address limits of sign-in are not under test. */
const nextAddress = () => {
  const n = address++;
  return `10.99.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
};

/** The first step of a sign-in: the answer (a token, or the MFA challenge). */
export const passwordStep = (t: TestApp, email: string, password: string, userAgent?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/rest-auth/app/login/',
    headers: userAgent ? { 'user-agent': userAgent } : {},
    payload: { email, password },
    remoteAddress: nextAddress(),
  });

/** The second step: the challenge's token and a factor. */
export const secondStep = (
  t: TestApp,
  mfaToken: string,
  proof: { code: string } | { recovery_code: string },
  userAgent?: string,
) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/rest-auth/app/login/mfa/',
    headers: userAgent ? { 'user-agent': userAgent } : {},
    payload: { mfa_token: mfaToken, ...proof },
    remoteAddress: nextAddress(),
  });
