import crypto from 'node:crypto';
import { and, eq, TransactionRollbackError } from 'drizzle-orm';
import { errors as joseErrors, jwtVerify } from 'jose';
import { CODE_TTL_MINUTES, ErrorCode } from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import { oneTimeCodes } from '../../db/schema/index.ts';
import { hours, minutes } from '../../lib/clock.ts';
import { fieldError } from '../../lib/errors.ts';
import type { SessionAuth } from '../access/index.ts';
import { enqueueMail } from '../../lib/mail/outbox.ts';
import { passwordResetCodeMail } from '../../lib/mail/templates.ts';
import {
  checkCode,
  codeError,
  consumeCode,
  countCodesSince,
  issueCode,
  lockLiveCode,
} from './codes.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { assertPasswordPolicy } from './service.ts';
import { revokeUserSessions } from './sessions.ts';
import { Audience, signToken, verifyToken, type VerifiedToken } from './tokens.ts';
import { findUserByEmail, findUserById, resetPassword, setPassword } from '../users/index.ts';
import { recordSecurityEvent, type RequestOrigin } from '../security-log/index.ts';

/**
 * Password reset in three steps, each single use:
 *  1. e-mail → a 6-digit code by mail and a reset token, the same answer whether or not the
 *     account exists (status, body, token claims, time taken);
 *  2. code + reset token → a confirm token (the code row is marked verified);
 *  3. confirm token + new password → the password is set, the account activated, the code row
 *     consumed and every session of the user revoked.
 * Both tokens name the code row (`sub`) and nothing else: the account is found from the row,
 * server-side, so no token carries a value that is the same for every request of one person.
 * And the password change of a signed-in user, which keeps only the caller's session.
 */

const RESET_TOKEN_TTL_MS = minutes(CODE_TTL_MINUTES);

/** Reset mails per account per rolling hour; further requests get the same answer, no mail. */
export const MAX_RESET_MAILS_PER_HOUR = 5;

export const RESET_REQUESTED_DETAIL =
  'If an account exists for this e-mail, we sent a 6-digit code to it. Enter it to choose a new password.';

const invalidToken = (message: string) => fieldError('token', message, ErrorCode.INVALID_TOKEN);

const resetExpired = () =>
  invalidToken('This password reset has expired or is not valid. Ask for a new code.');

const expiresIn = (ctx: AppContext) => new Date(ctx.clock.now().getTime() + RESET_TOKEN_TTL_MS);

/** A verified token, 'expired' for a genuine token past its expiry, or null for anything else. */
async function verifyResetToken(
  ctx: AppContext,
  audience: Audience,
  token: string,
): Promise<VerifiedToken | 'expired' | null> {
  const verified = await verifyToken(ctx.jwtKey, ctx.clock, audience, token);
  if (verified) return verified;
  try {
    // jose checks the signature before the claims: JWTExpired means a token we signed, only late.
    await jwtVerify(token, ctx.jwtKey, {
      algorithms: ['HS256'],
      audience,
      currentDate: ctx.clock.now(),
    });
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) return 'expired';
  }
  return null;
}

const ignoreRollback = (err: unknown) => {
  if (!(err instanceof TransactionRollbackError)) throw err;
};

export async function requestPasswordReset(ctx: AppContext, email: string) {
  const since = new Date(ctx.clock.now().getTime() - hours(1));
  const codeRowId = await ctx.db.transaction(async (tx) => {
    // The account's row is locked: parallel requests for it count its mails one at a time.
    const user = await findUserByEmail(tx, email, { lock: true });
    // A random id matches no row: the count runs, and costs the same, for every request.
    const recent = await countCodesSince(
      tx,
      user?.id ?? crypto.randomUUID(),
      'password_reset',
      since,
    );
    const account = user?.enabled && recent < MAX_RESET_MAILS_PER_HOUR ? user : null;
    // Nobody to mail (no account, a disabled one, or its mails of the hour are spent): a blank
    // code all the same. Its row is written and committed like a real one, so the answer takes
    // as long, and its token meets the same answers at the code step (wrong, then too many).
    const { id, code } = await issueCode(
      tx,
      ctx.jwtKey,
      ctx.clock,
      account?.id ?? null,
      'password_reset',
    );
    // The mail is written either way; for nobody it is rolled back (to a savepoint) at once.
    await tx
      .transaction(async (mail) => {
        await enqueueMail(
          mail,
          ctx.clock,
          passwordResetCodeMail(ctx.mail, account?.email ?? email, account?.first_name ?? '', code),
        );
        if (!account) mail.rollback();
      })
      .catch(ignoreRollback);
    return id;
  });
  ctx.outbox.kick();
  const token = await signToken(
    ctx.jwtKey,
    ctx.clock,
    Audience.passwordReset,
    { sub: codeRowId },
    expiresIn(ctx),
  );
  return { detail: RESET_REQUESTED_DETAIL, token };
}

export async function verifyResetCode(ctx: AppContext, token: string, code: string) {
  const verified = await verifyResetToken(ctx, Audience.passwordReset, token);
  // The reset token lives exactly as long as its code: a late one is an expired code.
  if (verified === 'expired') throw codeError('expired');
  if (!verified) throw resetExpired();
  const rowId = verified.sub;
  const result = await ctx.db.transaction(async (tx) => {
    const row = await lockLiveCode(tx, { purpose: 'password_reset', id: rowId });
    if (row?.verified_at) return 'used' as const;
    const check = await checkCode(tx, ctx.jwtKey, ctx.clock, row, code);
    if (check === 'ok') {
      await tx
        .update(oneTimeCodes)
        .set({ verified_at: ctx.clock.now() })
        .where(eq(oneTimeCodes.id, rowId));
    }
    return check;
  });
  // Thrown after the commit, so a wrong guess still counts against the attempts.
  if (result === 'used') throw invalidToken('This code was already used. Ask for a new one.');
  if (result !== 'ok') throw codeError(result);
  const confirmToken = await signToken(
    ctx.jwtKey,
    ctx.clock,
    Audience.passwordResetConfirm,
    { sub: rowId },
    expiresIn(ctx),
  );
  return { token: confirmToken };
}

export async function confirmPasswordReset(
  ctx: AppContext,
  token: string,
  password: string,
  origin: RequestOrigin,
) {
  const verified = await verifyResetToken(ctx, Audience.passwordResetConfirm, token);
  if (!verified || verified === 'expired') throw resetExpired();
  const rowId = verified.sub;
  const isLive = (row: typeof oneTimeCodes.$inferSelect | undefined) =>
    row !== undefined && row.verified_at !== null && row.consumed_at === null;
  const [peek] = await ctx.db
    .select()
    .from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.id, rowId), eq(oneTimeCodes.purpose, 'password_reset')))
    .limit(1);
  const user = peek?.user_id ? await findUserById(ctx.db, peek.user_id) : undefined;
  if (!user) throw resetExpired();
  if (!isLive(peek))
    throw invalidToken('This password reset was already used. Ask for a new code.');
  assertPasswordPolicy(password, user.email, 'password');
  const passwordHash = await hashPassword(password);
  const done = await ctx.db.transaction(async (tx) => {
    // Locked and checked again: of two confirmations racing, only one sets a password.
    const row = await lockLiveCode(tx, { purpose: 'password_reset', id: rowId, userId: user.id });
    if (!isLive(row)) return false;
    const now = ctx.clock.now();
    await resetPassword(tx, user, passwordHash, now);
    await consumeCode(tx, ctx.clock, rowId);
    await revokeUserSessions(tx, ctx.clock, user.id);
    await recordSecurityEvent(tx, { userId: user.id, kind: 'password_reset', at: now, ...origin });
    return true;
  });
  if (!done) throw invalidToken('This password reset was already used. Ask for a new code.');
  return { detail: 'Your password has been changed. Sign in with the new password.' };
}

export interface PasswordChange {
  old_password: string;
  new_password1: string;
  new_password2: string;
}

export async function changePassword(
  ctx: AppContext,
  caller: SessionAuth,
  input: PasswordChange,
  origin: RequestOrigin,
) {
  const { user } = caller;
  if (!(await verifyPassword(user.password_hash, input.old_password))) {
    throw fieldError(
      'old_password',
      'Your current password is not correct.',
      ErrorCode.WRONG_PASSWORD,
    );
  }
  if (input.new_password1 !== input.new_password2)
    throw fieldError('new_password2', 'The two passwords do not match.');
  assertPasswordPolicy(input.new_password1, user.email, 'new_password1');
  const passwordHash = await hashPassword(input.new_password1);
  await ctx.db.transaction(async (tx) => {
    await setPassword(tx, user.id, passwordHash);
    await revokeUserSessions(tx, ctx.clock, user.id, caller.sessionId);
    await recordSecurityEvent(tx, {
      userId: user.id,
      kind: 'password_changed',
      at: ctx.clock.now(),
      ...origin,
    });
  });
  return { detail: 'Your password has been changed. Other devices were signed out.' };
}
