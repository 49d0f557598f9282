import crypto from 'node:crypto';
import { CODE_TTL_MINUTES, ErrorCode, type EmailChangeRequest } from '@portolan/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { oneTimeCodes } from '../../db/schema/index.ts';
import { minutes } from '../../lib/clock.ts';
import { conflict, fieldError } from '../../lib/errors.ts';
import { enqueueMail } from '../../lib/mail/outbox.ts';
import {
  emailChangeCodeMail,
  emailChangedMail,
  emailChangeRequestedMail,
} from '../../lib/mail/templates.ts';
import type { SessionAuth } from '../access/index.ts';
import { recordSecurityEvent, type RequestOrigin } from '../security-log/index.ts';
import { findUserByEmail, setEmail } from '../users/index.ts';
import {
  checkCode,
  codeError,
  generateCode,
  hashCode,
  lockLiveCode,
  retireCodes,
} from './codes.ts';
import { verifyPassword } from './passwords.ts';

const isUniqueViolation = (err: unknown) =>
  (err as { code?: string }).code === '23505' ||
  (err as { cause?: { code?: string } }).cause?.code === '23505';

/**
 * POST /v1/user/email-change/ (issue 20 item 7): with the password, a code goes to the new
 * address and a notice to the current one. A taken address answers exactly like a free one and
 * changes nothing: its code is blank (never sent, matched by no entry), so confirming it fails
 * like a wrong code. A new request replaces the one before.
 */
export async function requestEmailChange(
  ctx: AppContext,
  auth: SessionAuth,
  input: EmailChangeRequest,
  origin: RequestOrigin,
) {
  const user = auth.user;
  if (!(await verifyPassword(user.password_hash, input.password))) {
    throw fieldError('password', 'Your password is not correct.', ErrorCode.WRONG_PASSWORD);
  }
  const wanted = input.new_email.trim();
  if (wanted.toLowerCase() === user.email.toLowerCase()) {
    throw fieldError('new_email', 'This is already your e-mail address.');
  }
  const taken = (await findUserByEmail(ctx.db, wanted)) !== undefined;
  const code = generateCode();
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await retireCodes(tx, ctx.clock, user.id, 'email_change');
    await tx.insert(oneTimeCodes).values({
      user_id: user.id,
      purpose: 'email_change',
      email: taken ? null : wanted,
      code_hash: hashCode(ctx.jwtKey, taken ? crypto.randomBytes(16).toString('hex') : code),
      expires_at: new Date(now.getTime() + minutes(CODE_TTL_MINUTES)),
      created_at: now,
    });
    if (!taken) {
      await enqueueMail(
        tx,
        ctx.clock,
        emailChangeCodeMail(ctx.mail, wanted, user.first_name, code),
      );
    }
    await enqueueMail(
      tx,
      ctx.clock,
      emailChangeRequestedMail(ctx.mail, user.email, user.first_name, wanted),
    );
    await recordSecurityEvent(tx, {
      userId: user.id,
      kind: 'email_change_requested',
      at: now,
      ...origin,
    });
  });
  ctx.outbox.kick();
  return {
    detail: `We sent a 6-digit code to ${wanted}. Enter it to confirm the change.`,
    email: wanted,
  };
}

/**
 * POST /v1/user/email-change/confirm/: the code sent to the new address switches the account to
 * it (verified), and the former address is told. Wrong codes are counted (5, then a new request).
 */
export async function confirmEmailChange(
  ctx: AppContext,
  auth: SessionAuth,
  code: string,
  origin: RequestOrigin,
) {
  const outcome = await ctx.db.transaction(async (tx) => {
    const row = await lockLiveCode(tx, { purpose: 'email_change', userId: auth.userId });
    const check = await checkCode(tx, ctx.jwtKey, ctx.clock, row, code);
    if (check !== 'ok') return check;
    const now = ctx.clock.now();
    await tx.update(oneTimeCodes).set({ consumed_at: now }).where(eq(oneTimeCodes.id, row!.id));
    // A blank row cannot get here (no entry matches it); a row without an address is no change.
    if (!row!.email) return 'wrong' as const;
    try {
      await tx.transaction(async (savepoint) => setEmail(savepoint, auth.userId, row!.email!, now));
    } catch (err) {
      if (isUniqueViolation(err)) return 'taken' as const;
      throw err;
    }
    await recordSecurityEvent(tx, {
      userId: auth.userId,
      kind: 'email_changed',
      at: now,
      ...origin,
    });
    await enqueueMail(
      tx,
      ctx.clock,
      emailChangedMail(ctx.mail, auth.user.email, auth.user.first_name, row!.email),
    );
    return { email: row!.email };
  });
  if (outcome === 'taken') {
    throw conflict(
      ErrorCode.EMAIL_TAKEN,
      'Another account has taken this address meanwhile. Choose another one.',
    );
  }
  if (typeof outcome === 'string') throw codeError(outcome);
  ctx.outbox.kick();
  return { detail: `Your e-mail address is now ${outcome.email}.`, email: outcome.email };
}
