import crypto from 'node:crypto';
import { jwtVerify, errors as joseErrors } from 'jose';
import type { Clock } from '../../lib/clock.ts';

/**
 * Every token the server signs is an HS256 JWT whose audience says what it is for, so a token
 * of one kind can never be used as another.
 */
export const Audience = {
  session: 'portolan',
  activation: 'portolan:activation',
  passwordReset: 'portolan:password-reset',
  passwordResetConfirm: 'portolan:password-reset-confirm',
  /** A sign-in waiting for its second factor (`sub`: the mfa_challenges row). */
  mfa: 'portolan:mfa',
} as const;
export type Audience = (typeof Audience)[keyof typeof Audience];

export interface TokenClaims {
  sub: string;
  /** Session id (session tokens) or one-time-code row id (reset tokens). */
  sid?: string;
  jti?: string;
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** The protected header of every token: HS256, as jwtVerify requires. */
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/**
 * A compact HS256 JWS (RFC 7515), signed here with node:crypto's HMAC: jose's SignJWT signs
 * through WebCrypto, an asynchronous job per token (a key import, a trip to the thread pool the
 * argon2 runs of sign-in share) that was the largest cost of a sign-in after the hash. The
 * claims are those jose wrote, in its order; tokens are verified with jose (verifySignedToken).
 */
export async function signToken(
  key: Uint8Array,
  clock: Clock,
  audience: Audience,
  claims: TokenClaims,
  expiresAt: Date,
): Promise<string> {
  const payload = Buffer.from(
    JSON.stringify({
      ...(claims.sid && { sid: claims.sid }),
      sub: claims.sub,
      aud: audience,
      iat: seconds(clock.now()),
      exp: seconds(expiresAt),
      jti: claims.jti ?? crypto.randomUUID(),
    }),
  ).toString('base64url');
  const signingInput = `${HEADER}.${payload}`;
  const signature = crypto.createHmac('sha256', key).update(signingInput).digest('base64url');
  return `${signingInput}.${signature}`;
}

export interface VerifiedToken {
  sub: string;
  sid: string | undefined;
  jti: string | undefined;
  iat: number;
  exp: number;
}

// Every id the server puts in a token (user, session, code row, random jti) is a UUID. A claim
// that is not one, even under a valid signature, is refused here: it would otherwise reach a
// uuid column and fail there (a 500 rather than a 401).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
const isOptionalUuid = (value: unknown): value is string | undefined =>
  value === undefined || isUuid(value);

/**
 * Verifies signature (HS256 only), audience and expiry, and that `sub`, `sid` and `jti` (when
 * present) are UUIDs; returns null for any bad token.
 */
export async function verifyToken(
  key: Uint8Array,
  clock: Clock,
  audience: Audience,
  token: string,
): Promise<VerifiedToken | null> {
  // A token verified before needs only its time checked again: its signature, audience and
  // claims cannot have changed (the cache is per key and audience).
  const verified = verifiedTokens(key, audience);
  const known = verified.get(token);
  if (known) {
    const now = Math.floor(clock.now().getTime() / 1000);
    if (now < known.exp) return known;
    verified.delete(token);
    return null;
  }
  const found = await verifySignedToken(key, clock, audience, token);
  if (found) {
    if (verified.size >= VERIFIED_TOKENS_MAX) verified.delete(verified.keys().next().value!);
    verified.set(token, found);
  }
  return found;
}

/**
 * Tokens already verified, per signing key and audience: verifying an HS256 token through
 * WebCrypto (importing the key, checking the MAC, parsing the claims) was a tenth of the time of
 * a small signed-in read (issue 12's profile).
 */
const VERIFIED_TOKENS_MAX = 20_000;
const verifiedByKey = new WeakMap<Uint8Array, Map<Audience, Map<string, VerifiedToken>>>();
function verifiedTokens(key: Uint8Array, audience: Audience): Map<string, VerifiedToken> {
  let byAudience = verifiedByKey.get(key);
  if (!byAudience) verifiedByKey.set(key, (byAudience = new Map()));
  let tokens = byAudience.get(audience);
  if (!tokens) byAudience.set(audience, (tokens = new Map()));
  return tokens;
}

async function verifySignedToken(
  key: Uint8Array,
  clock: Clock,
  audience: Audience,
  token: string,
): Promise<VerifiedToken | null> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      audience,
      currentDate: clock.now(),
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    const { sub, sid, jti } = payload;
    if (!isUuid(sub) || !isOptionalUuid(sid) || !isOptionalUuid(jti)) return null;
    return {
      sub,
      sid,
      jti,
      iat: payload.iat!,
      exp: payload.exp!,
    };
  } catch (err) {
    if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return null;
    throw err;
  }
}

/** Reads `Authorization: Bearer <token>` (or the older `JWT <token>`); null when absent. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^(?:Bearer|JWT)\s+(\S+)$/i.exec(header.trim());
  return match?.[1] ?? null;
}
