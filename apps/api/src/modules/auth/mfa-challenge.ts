import {
  ErrorCode,
  MFA_MAX_ATTEMPTS,
  MFA_TOKEN_TTL_S,
  type MfaChallengeResponse,
  type MfaMethod,
  type SignInMethod,
} from '@portolan/contract';
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { mfaChallenges } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { assertionOptions, checkSecondFactor, type SecondFactor } from '../mfa/index.ts';
import { recordSecurityEvent } from '../security-log/index.ts';
import { findUserById } from '../users/index.ts';
import { Audience, signToken, verifyToken } from './tokens.ts';

export interface ChallengeOrigin {
  ip?: string | undefined;
  userAgent?: string | undefined;
}

/**
 * The first factor is proven (a password, Google) and the account has a second: no session yet,
 * but a challenge its token names. It lives MFA_TOKEN_TTL_S and allows MFA_MAX_ATTEMPTS answers.
 */
export async function openChallenge(
  ctx: AppContext,
  userId: string,
  method: SignInMethod,
  methods: MfaMethod[],
  origin: ChallengeOrigin,
): Promise<MfaChallengeResponse> {
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + MFA_TOKEN_TTL_S * 1000);
  const [row] = await ctx.db
    .insert(mfaChallenges)
    .values({
      user_id: userId,
      method,
      ip: origin.ip ?? null,
      user_agent: origin.userAgent?.slice(0, 300) ?? null,
      expires_at: expiresAt,
      created_at: now,
    })
    .returning({ id: mfaChallenges.id });
  const token = await signToken(ctx.jwtKey, ctx.clock, Audience.mfa, { sub: row!.id }, expiresAt);
  return { mfa_required: true, mfa_token: token, methods };
}

const deadChallenge = () =>
  new AppError(
    ErrorCode.INVALID_TOKEN,
    'This sign-in step has expired or had too many wrong codes. Sign in again.',
  );

/**
 * The live challenge a token names, read (not locked): for the passkey options of the second
 * step. Null when the token or its challenge is dead.
 */
export async function liveChallengeUser(ctx: AppContext, token: string): Promise<string | null> {
  const verified = await verifyToken(ctx.jwtKey, ctx.clock, Audience.mfa, token);
  if (!verified) return null;
  const [challenge] = await ctx.db
    .select()
    .from(mfaChallenges)
    .where(eq(mfaChallenges.id, verified.sub));
  const now = ctx.clock.now();
  const live =
    challenge &&
    challenge.consumed_at === null &&
    challenge.expires_at.getTime() > now.getTime() &&
    challenge.attempts < MFA_MAX_ATTEMPTS;
  return live ? challenge.user_id : null;
}

/** The passkey options of a sign-in's second step: a challenge for one of the user's passkeys. */
export async function secondStepPasskeyOptions(ctx: AppContext, token: string) {
  const userId = await liveChallengeUser(ctx, token);
  if (!userId) throw deadChallenge();
  return assertionOptions(ctx.db, ctx, 'second_factor', userId);
}

/** What answering a challenge gives: the user and how they signed in, or why not. */
export type ChallengeOutcome =
  | { ok: true; userId: string; method: SignInMethod; factor: 'totp' | 'recovery_code' | 'passkey' }
  | { ok: false; error: AppError };

/**
 * Answers a challenge in the caller's transaction (which then opens the session, so the two
 * commit together): the challenge row is locked, so its attempts are counted exactly under
 * parallel answers, then the factor is checked under the account's lock (checkSecondFactor).
 * A refusal is returned, not thrown: its counts must commit.
 */
export async function answerChallenge(
  tx: Tx,
  ctx: AppContext,
  token: string,
  proof: SecondFactor,
  origin: ChallengeOrigin,
): Promise<ChallengeOutcome> {
  const verified = await verifyToken(ctx.jwtKey, ctx.clock, Audience.mfa, token);
  if (!verified) return { ok: false, error: deadChallenge() };
  const now = ctx.clock.now();
  const [challenge] = await tx
    .select()
    .from(mfaChallenges)
    .where(eq(mfaChallenges.id, verified.sub))
    .for('update');
  if (
    !challenge ||
    challenge.consumed_at !== null ||
    challenge.expires_at.getTime() <= now.getTime() ||
    challenge.attempts >= MFA_MAX_ATTEMPTS
  ) {
    return { ok: false, error: deadChallenge() };
  }
  const user = await findUserById(tx, challenge.user_id);
  if (!user?.enabled || user.deleted_at !== null) return { ok: false, error: deadChallenge() };
  const check = await checkSecondFactor(tx, ctx, challenge.user_id, proof);
  if (!check.ok) {
    await tx
      .update(mfaChallenges)
      .set({ attempts: sql`${mfaChallenges.attempts} + 1` })
      .where(eq(mfaChallenges.id, challenge.id));
    await recordSecurityEvent(tx, {
      userId: challenge.user_id,
      kind: 'mfa_failed',
      method: challenge.method,
      factor: check.factor,
      at: now,
      ...origin,
    });
    return { ok: false, error: factorRefusal(check) };
  }
  await tx
    .update(mfaChallenges)
    .set({ consumed_at: now })
    .where(eq(mfaChallenges.id, challenge.id));
  return { ok: true, userId: challenge.user_id, method: challenge.method, factor: check.factor };
}

/** The answer to a wrong or refused second factor (sign-in and step-up alike). */
export function factorRefusal(check: { reason: 'wrong' | 'locked'; field: string }): AppError {
  if (check.reason === 'locked') {
    return new AppError(
      ErrorCode.TOO_MANY_ATTEMPTS,
      'Too many wrong codes for this account. Try again in 15 minutes.',
    );
  }
  const message =
    check.field === 'code'
      ? 'That code is not right, or it was already used. Enter the newest code from your authenticator app.'
      : check.field === 'passkey'
        ? 'The passkey could not be verified. Try again, or use another way.'
        : 'That recovery code is not right, or it was already used.';
  return new AppError(ErrorCode.INVALID_CODE, message, [{ field: check.field, message }]);
}
