import { ErrorCode, type StepUpRequest, type StepUpResponse } from '@portolan/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { sessions } from '../../db/schema/index.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import type { SessionAuth } from '../access/index.ts';
import { checkSecondFactor, mfaMethodsOf } from '../mfa/index.ts';
import { recordSecurityEvent } from '../security-log/index.ts';
import { factorRefusal, type ChallengeOrigin } from './mfa-challenge.ts';
import { verifyPassword } from './passwords.ts';

/**
 * How the caller can prove presence (the `details.methods` of 403 STEP_UP_REQUIRED): the password
 * if the account has one, and its second factors. None (an account of Google alone, without a
 * factor): the only proof left is signing in again, which counts.
 */
export async function stepUpMethodsOf(ctx: AppContext, auth: SessionAuth): Promise<string[]> {
  return [
    ...(auth.user.password_hash !== null ? ['password'] : []),
    ...(await mfaMethodsOf(ctx.db, auth.userId)),
  ];
}

/**
 * A fresh proof of presence for the session (issue 20 item 4): the password, a TOTP code or a
 * recovery code. A wrong password or factor is logged and counted like a failed second factor
 * (the account-wide limit: checkSecondFactor), so step-up is no way around sign-in's limits.
 */
export async function stepUp(
  ctx: AppContext,
  auth: SessionAuth,
  input: StepUpRequest,
  origin: ChallengeOrigin,
): Promise<StepUpResponse> {
  const outcome = await ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now();
    let method: 'password' | 'totp' | 'recovery_code' | 'passkey';
    if (input.password !== undefined) {
      method = 'password';
      if (!(await verifyPassword(auth.user.password_hash, input.password))) {
        await recordSecurityEvent(tx, {
          userId: auth.userId,
          kind: 'mfa_failed',
          method,
          at: now,
          ...origin,
        });
        return fieldError('password', 'Your password is not correct.', ErrorCode.WRONG_PASSWORD);
      }
    } else {
      const proof =
        input.code !== undefined
          ? { code: input.code }
          : input.passkey !== undefined
            ? { passkey: input.passkey, purpose: 'step_up' as const }
            : { recovery_code: input.recovery_code! };
      const check = await checkSecondFactor(tx, ctx, auth.userId, proof);
      method = check.factor;
      if (!check.ok) {
        await recordSecurityEvent(tx, {
          userId: auth.userId,
          kind: 'mfa_failed',
          factor: check.factor,
          at: now,
          ...origin,
        });
        return factorRefusal(check);
      }
    }
    await tx.update(sessions).set({ stepped_up_at: now }).where(eq(sessions.id, auth.sessionId));
    await recordSecurityEvent(tx, {
      userId: auth.userId,
      kind: 'step_up',
      method: method === 'password' ? 'password' : null,
      factor: method === 'password' ? null : method,
      at: now,
      ...origin,
    });
    return now;
  });
  if (outcome instanceof AppError) throw outcome;
  return {
    detail: 'Thank you. You can go on.',
    step_up_until: new Date(outcome.getTime() + ctx.config.stepUpMaxAgeMs).toISOString(),
  };
}
