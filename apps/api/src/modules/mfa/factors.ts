import {
  MFA_FAILURE_WINDOW_S,
  MFA_MAX_FAILURES,
  TOTP_WINDOW_STEPS,
  type MfaMethod,
} from '@portolan/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db, Tx } from '../../db/client.ts';
import { userMfa } from '../../db/schema/index.ts';
import { matchTotp } from '../../lib/totp.ts';
import { useRecoveryCode } from './recovery-codes.ts';

export type MfaRow = typeof userMfa.$inferSelect;

/** The second factors a sign-in challenge of this account offers; empty when it has none. */
export const methodsOfRow = (row: MfaRow | undefined): MfaMethod[] =>
  row?.totp_confirmed_at ? ['totp', 'recovery_code'] : [];

export async function mfaMethodsOf(db: Db | Tx, userId: string): Promise<MfaMethod[]> {
  const [row] = await db.select().from(userMfa).where(eq(userMfa.user_id, userId));
  return methodsOfRow(row);
}

/** The account's row, locked: every check and change of a factor queues on it. */
export async function lockMfa(tx: Tx, userId: string): Promise<MfaRow | undefined> {
  const [row] = await tx.select().from(userMfa).where(eq(userMfa.user_id, userId)).for('update');
  return row;
}

/** A second factor as a request gives it: a TOTP code or a recovery code. */
export type SecondFactor = { code: string } | { recovery_code: string };
type Factor = 'totp' | 'recovery_code';

export type FactorCheck =
  | { ok: true; factor: Factor }
  | { ok: false; reason: 'wrong' | 'locked'; field: 'code' | 'recovery_code'; factor: Factor };

/**
 * Checks a second factor in the caller's transaction, under the account's row lock, so that of
 * parallel attempts each sees the failures and the TOTP step the others wrote:
 *  - past MFA_MAX_FAILURES wrong answers within MFA_FAILURE_WINDOW_S, every answer is `locked`;
 *  - a TOTP code must be of a step after the last one accepted (no replay within its window);
 *  - a recovery code is used once (useRecoveryCode);
 *  - a wrong answer counts; a right one clears the count.
 * The caller commits (the count must persist) and then answers the refusal.
 */
export async function checkSecondFactor(
  tx: Tx,
  ctx: Pick<AppContext, 'clock' | 'jwtKey' | 'secretBox'>,
  userId: string,
  proof: SecondFactor,
): Promise<FactorCheck> {
  const now = ctx.clock.now();
  const factor: Factor = 'code' in proof ? 'totp' : 'recovery_code';
  const field = 'code' in proof ? 'code' : 'recovery_code';
  const row = await lockMfa(tx, userId);
  if (!row?.totp_confirmed_at || !row.totp_secret)
    return { ok: false, reason: 'wrong', field, factor };
  const windowOpen =
    row.failures_since !== null &&
    now.getTime() - row.failures_since.getTime() < MFA_FAILURE_WINDOW_S * 1000;
  const failures = windowOpen ? row.failures : 0;
  if (failures >= MFA_MAX_FAILURES) return { ok: false, reason: 'locked', field, factor };

  if ('code' in proof) {
    const secret = ctx.secretBox.open(row.totp_secret, userId);
    const step = matchTotp(secret, proof.code, now, TOTP_WINDOW_STEPS, row.totp_last_step);
    if (step !== null) {
      await tx
        .update(userMfa)
        .set({ totp_last_step: step, failures: 0, failures_since: null })
        .where(eq(userMfa.user_id, userId));
      return { ok: true, factor };
    }
  } else if (await useRecoveryCode(tx, ctx.jwtKey, userId, proof.recovery_code, now)) {
    await tx
      .update(userMfa)
      .set({ failures: 0, failures_since: null })
      .where(eq(userMfa.user_id, userId));
    return { ok: true, factor };
  }
  await tx
    .update(userMfa)
    .set({
      failures: failures + 1,
      failures_since: windowOpen ? row.failures_since : now,
    })
    .where(eq(userMfa.user_id, userId));
  return { ok: false, reason: 'wrong', field, factor };
}
