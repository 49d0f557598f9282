import crypto from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { CODE_MAX_ATTEMPTS, CODE_TTL_MINUTES, ErrorCode } from '@portolan/contract';
import type { Db, Tx } from '../../db/client.ts';
import { oneTimeCodes } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { minutes, type Clock } from '../../lib/clock.ts';

export type CodePurpose = 'activation' | 'password_reset' | 'email_change';

/** Six random digits, uniformly drawn. */
export const generateCode = () => crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');

/** Codes are stored as an HMAC keyed with the server secret, never in clear. */
export const hashCode = (key: Uint8Array, code: string) =>
  crypto.createHmac('sha256', key).update(code).digest('hex');

/** Marks every unused code of a user for a purpose as consumed. */
export async function retireCodes(
  tx: Db | Tx,
  clock: Clock,
  userId: string,
  purpose: CodePurpose,
): Promise<void> {
  await tx
    .update(oneTimeCodes)
    .set({ consumed_at: clock.now() })
    .where(
      and(
        eq(oneTimeCodes.user_id, userId),
        eq(oneTimeCodes.purpose, purpose),
        isNull(oneTimeCodes.consumed_at),
      ),
    );
}

/** How many codes of a purpose a user was issued since a time, used or not. */
export async function countCodesSince(
  tx: Db | Tx,
  userId: string,
  purpose: CodePurpose,
  since: Date,
): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(oneTimeCodes)
    .where(
      and(
        eq(oneTimeCodes.user_id, userId),
        eq(oneTimeCodes.purpose, purpose),
        gt(oneTimeCodes.created_at, since),
      ),
    );
  return row?.n ?? 0;
}

/**
 * A new code replaces every earlier unused one of the same purpose. Without a user it is a blank
 * code: never to be sent, and stored as the hash of a secret no 6-digit entry can match, so every
 * attempt at it is wrong (and counted, like any other).
 */
export async function issueCode(
  tx: Db | Tx,
  key: Uint8Array,
  clock: Clock,
  userId: string | null,
  purpose: CodePurpose,
): Promise<{ id: string; code: string }> {
  const now = clock.now();
  // A blank code retires nobody's (a random id matches no row), in the same statement as a real
  // one, so issuing either costs the same.
  await retireCodes(tx, clock, userId ?? crypto.randomUUID(), purpose);
  const code = generateCode();
  const [row] = await tx
    .insert(oneTimeCodes)
    .values({
      user_id: userId,
      purpose,
      code_hash: hashCode(key, userId ? code : crypto.randomBytes(16).toString('hex')),
      expires_at: new Date(now.getTime() + minutes(CODE_TTL_MINUTES)),
      created_at: now,
    })
    .returning({ id: oneTimeCodes.id });
  return { id: row!.id, code };
}

export type CodeRow = typeof oneTimeCodes.$inferSelect;

/** A code row of a purpose by id, used or not, locked for this transaction. */
export async function lockCode(
  tx: Tx,
  id: string,
  purpose: CodePurpose,
): Promise<CodeRow | undefined> {
  const [row] = await tx
    .select()
    .from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.id, id), eq(oneTimeCodes.purpose, purpose)))
    .limit(1)
    .for('update');
  return row;
}

/**
 * A fresh code in an existing row (a re-send): new code, new expiry, attempts from zero, so the
 * tokens naming the row keep working. `real` false makes it blank, like `issueCode` without a user.
 */
export async function renewCode(
  tx: Tx,
  key: Uint8Array,
  clock: Clock,
  id: string,
  real: boolean,
): Promise<string> {
  const code = generateCode();
  await tx
    .update(oneTimeCodes)
    .set({
      code_hash: hashCode(key, real ? code : crypto.randomBytes(16).toString('hex')),
      attempts: 0,
      expires_at: new Date(clock.now().getTime() + minutes(CODE_TTL_MINUTES)),
    })
    .where(eq(oneTimeCodes.id, id));
  return code;
}

/**
 * The live (unconsumed) code row for a purpose, locked for this transaction: the row of a given
 * id, or else the newest of a user.
 */
export async function lockLiveCode(
  tx: Tx,
  where: { purpose: CodePurpose } & ({ id: string; userId?: string } | { userId: string }),
): Promise<CodeRow | undefined> {
  const [row] = await tx
    .select()
    .from(oneTimeCodes)
    .where(
      and(
        eq(oneTimeCodes.purpose, where.purpose),
        isNull(oneTimeCodes.consumed_at),
        ...('id' in where ? [eq(oneTimeCodes.id, where.id)] : []),
        ...(where.userId ? [eq(oneTimeCodes.user_id, where.userId)] : []),
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
      return new AppError(ErrorCode.CODE_EXPIRED, 'This code has expired. Ask for a new one.', [
        { field: 'code', message: 'This code has expired. Ask for a new one.' },
      ]);
    case 'too_many':
      return new AppError(ErrorCode.TOO_MANY_ATTEMPTS, 'Too many wrong codes. Ask for a new one.', [
        { field: 'code', message: 'Too many wrong codes. Ask for a new one.' },
      ]);
    case 'missing':
    case 'wrong':
      return new AppError(
        ErrorCode.INVALID_CODE,
        'The code is not correct. Check the e-mail and try again.',
        [{ field: 'code', message: 'The code is not correct. Check the e-mail and try again.' }],
      );
  }
}

export async function consumeCode(tx: Tx, clock: Clock, id: string): Promise<void> {
  await tx.update(oneTimeCodes).set({ consumed_at: clock.now() }).where(eq(oneTimeCodes.id, id));
}
