import crypto from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { CODE_MAX_ATTEMPTS, CODE_TTL_MINUTES, ErrorCode } from '@portolan/contract';
import type { Db, Tx } from '../../db/client.ts';
import { oneTimeCodes } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { minutes, type Clock } from '../../lib/clock.ts';

export type CodePurpose = 'activation' | 'password_reset';

/** Six random digits, uniformly drawn. */
export const generateCode = () => crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');

/** Codes are stored as an HMAC keyed with the server secret, never in clear. */
export const hashCode = (key: Uint8Array, code: string) =>
  crypto.createHmac('sha256', key).update(code).digest('hex');

/** A new code replaces every earlier unused one of the same purpose. */
export async function issueCode(
  tx: Db | Tx,
  key: Uint8Array,
  clock: Clock,
  userId: string,
  purpose: CodePurpose,
): Promise<{ id: string; code: string }> {
  const now = clock.now();
  await tx
    .update(oneTimeCodes)
    .set({ consumed_at: now })
    .where(
      and(
        eq(oneTimeCodes.user_id, userId),
        eq(oneTimeCodes.purpose, purpose),
        isNull(oneTimeCodes.consumed_at),
      ),
    );
  const code = generateCode();
  const [row] = await tx
    .insert(oneTimeCodes)
    .values({
      user_id: userId,
      purpose,
      code_hash: hashCode(key, code),
      expires_at: new Date(now.getTime() + minutes(CODE_TTL_MINUTES)),
      created_at: now,
    })
    .returning({ id: oneTimeCodes.id });
  return { id: row!.id, code };
}

type CodeRow = typeof oneTimeCodes.$inferSelect;

/** The live code row of a user for a purpose (or a given row id), locked for this transaction. */
export async function lockLiveCode(
  tx: Tx,
  where: { userId: string; purpose: CodePurpose; id?: string },
): Promise<CodeRow | undefined> {
  const [row] = await tx
    .select()
    .from(oneTimeCodes)
    .where(
      and(
        eq(oneTimeCodes.user_id, where.userId),
        eq(oneTimeCodes.purpose, where.purpose),
        isNull(oneTimeCodes.consumed_at),
        ...(where.id ? [eq(oneTimeCodes.id, where.id)] : []),
      ),
    )
    .orderBy(desc(oneTimeCodes.created_at))
    .limit(1)
    .for('update');
  return row;
}

export type CodeCheck = 'ok' | 'missing' | 'expired' | 'too_many' | 'wrong';

/**
 * Checks a submitted code against a locked row and counts the attempt. The caller commits the
 * attempt count even when the code is wrong, so guesses are limited.
 */
export async function checkCode(
  tx: Tx,
  key: Uint8Array,
  clock: Clock,
  row: CodeRow | undefined,
  submitted: string,
): Promise<CodeCheck> {
  if (!row) return 'missing';
  if (row.expires_at.getTime() <= clock.now().getTime()) return 'expired';
  if (row.attempts >= CODE_MAX_ATTEMPTS) return 'too_many';
  const expected = Buffer.from(row.code_hash, 'hex');
  const given = Buffer.from(hashCode(key, submitted), 'hex');
  const ok = expected.length === given.length && crypto.timingSafeEqual(expected, given);
  await tx
    .update(oneTimeCodes)
    .set({ attempts: row.attempts + 1 })
    .where(eq(oneTimeCodes.id, row.id));
  if (ok) return 'ok';
  return row.attempts + 1 >= CODE_MAX_ATTEMPTS ? 'too_many' : 'wrong';
}

/** The error a failed check answers with. */
export function codeError(result: Exclude<CodeCheck, 'ok'>): AppError {
  switch (result) {
    case 'expired':
      return new AppError(
        400,
        ErrorCode.CODE_EXPIRED,
        'This code has expired. Ask for a new one.',
        [{ field: 'code', message: 'This code has expired. Ask for a new one.' }],
      );
    case 'too_many':
      return new AppError(
        429,
        ErrorCode.TOO_MANY_ATTEMPTS,
        'Too many wrong codes. Ask for a new one.',
        [{ field: 'code', message: 'Too many wrong codes. Ask for a new one.' }],
      );
    case 'missing':
    case 'wrong':
      return new AppError(
        400,
        ErrorCode.INVALID_CODE,
        'The code is not correct. Check the e-mail and try again.',
        [{ field: 'code', message: 'The code is not correct. Check the e-mail and try again.' }],
      );
  }
}

export async function consumeCode(tx: Tx, clock: Clock, id: string): Promise<void> {
  await tx.update(oneTimeCodes).set({ consumed_at: clock.now() }).where(eq(oneTimeCodes.id, id));
}
