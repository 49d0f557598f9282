import {
  MFA_FAILURE_WINDOW_S,
  MFA_MAX_FAILURES,
  TOTP_WINDOW_STEPS,
  type MfaMethod,
  type PasskeyAssertion,
} from '@portolan/contract';
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db, Tx } from '../../db/client.ts';
import { passkeys, userMfa, users } from '../../db/schema/index.ts';
import { matchTotp } from '../../lib/totp.ts';
import { verifyAssertion } from './passkeys.ts';
import { useRecoveryCode } from './recovery-codes.ts';

export type MfaRow = typeof userMfa.$inferSelect;

/** The second factors a sign-in challenge of this account offers; empty when it has none. */
export function methodsOf(factors: { totp: boolean; passkeys: number }): MfaMethod[] {
  const methods: MfaMethod[] = [];
  if (factors.totp) methods.push('totp');
  if (factors.passkeys > 0) methods.push('passkey');
  if (methods.length > 0) methods.push('recovery_code');
  return methods;
}

/** The account's factors in one query: its TOTP and how many passkeys. */
export async function factorsOf(db: Db | Tx, userId: string) {
  const [row] = await db
    .select({
      totp: userMfa.totp_confirmed_at,
      passkeys:
        sql<number>`(select count(*) from ${passkeys} where ${passkeys.user_id} = ${userId})`.mapWith(
          Number,
        ),
    })
    .from(users)
    .leftJoin(userMfa, eq(userMfa.user_id, users.id))
    .where(eq(users.id, userId));
  return {
    totp: Boolean(row?.totp),
    totpConfirmedAt: row?.totp ?? null,
    passkeys: row?.passkeys ?? 0,
  };
}

export async function mfaMethodsOf(db: Db | Tx, userId: string): Promise<MfaMethod[]> {
  return methodsOf(await factorsOf(db, userId));
}

/** The account's row, locked: every check and change of a factor queues on it. */
export async function lockMfa(tx: Tx, userId: string): Promise<MfaRow | undefined> {
  const [row] = await tx.select().from(userMfa).where(eq(userMfa.user_id, userId)).for('update');
  return row;
}

/**
 * The TOTP secret, or null when it cannot be opened (ENCRYPTION_KEY changed or lost): no code
 * matches then, and the owner signs in with a recovery code and sets the app up again.
 */
function openSecret(ctx: Pick<AppContext, 'secretBox'>, sealed: string, userId: string) {
  try {
    return ctx.secretBox.open(sealed, userId);
  } catch {
    return null;
  }
}

/** A second factor as a request gives it: a TOTP code, a passkey's answer or a recovery code. */
export type SecondFactor =
  | { code: string }
  | { recovery_code: string }
  | { passkey: PasskeyAssertion; purpose: 'second_factor' | 'step_up' };
type Factor = 'totp' | 'recovery_code' | 'passkey';

export type FactorCheck =
  | { ok: true; factor: Factor }
  | {
      ok: false;
      reason: 'wrong' | 'locked';
      field: 'code' | 'recovery_code' | 'passkey';
      factor: Factor;
    };

const factorOf = (proof: SecondFactor): Factor =>
  'code' in proof ? 'totp' : 'passkey' in proof ? 'passkey' : 'recovery_code';

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
  ctx: Pick<AppContext, 'clock' | 'jwtKey' | 'secretBox' | 'config'>,
  userId: string,
  proof: SecondFactor,
): Promise<FactorCheck> {
  const now = ctx.clock.now();
  const factor = factorOf(proof);
  const field = factor === 'totp' ? 'code' : factor;
  const row = await lockMfa(tx, userId);
  // No row: the account never had a factor, so nothing can match (and no count is kept).
  if (!row) return { ok: false, reason: 'wrong', field, factor };
  const windowOpen =
    row.failures_since !== null &&
    now.getTime() - row.failures_since.getTime() < MFA_FAILURE_WINDOW_S * 1000;
  const failures = windowOpen ? row.failures : 0;
  if (failures >= MFA_MAX_FAILURES) return { ok: false, reason: 'locked', field, factor };

  if ('passkey' in proof) {
    if (await verifyAssertion(tx, ctx, proof.passkey, proof.purpose, userId)) {
      await clearFailures(tx, userId);
      return { ok: true, factor };
    }
  } else if ('code' in proof) {
    const secret =
      row.totp_confirmed_at && row.totp_secret ? openSecret(ctx, row.totp_secret, userId) : null;
    const step = secret
      ? matchTotp(secret, proof.code, now, TOTP_WINDOW_STEPS, row.totp_last_step)
      : null;
    if (step !== null) {
      await tx
        .update(userMfa)
        .set({ totp_last_step: step, failures: 0, failures_since: null })
        .where(eq(userMfa.user_id, userId));
      return { ok: true, factor };
    }
  } else if (await useRecoveryCode(tx, ctx.jwtKey, userId, proof.recovery_code, now)) {
    await clearFailures(tx, userId);
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

const clearFailures = (tx: Tx, userId: string) =>
  tx.update(userMfa).set({ failures: 0, failures_since: null }).where(eq(userMfa.user_id, userId));
