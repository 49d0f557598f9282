import crypto from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@portolan/contract';
import { and, count, eq, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { recoveryCodes } from '../../db/schema/index.ts';

/** Letters and digits that cannot be misread for one another (no 0/o, 1/l/i). */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** `k7p2m-x9c4t`: ten characters of 31, about 49 bits, with a dash for reading. */
function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => ALPHABET[crypto.randomInt(ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** How a code is compared: case and the dash do not matter. */
const normalize = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * An HMAC keyed with the server secret. A recovery code is random (about 49 bits), so a keyed
 * hash is enough: no dictionary to guess from, and a stolen table is useless without the key.
 */
export const hashRecoveryCode = (key: Uint8Array, code: string) =>
  crypto
    .createHmac('sha256', key)
    .update(`recovery:${normalize(code)}`)
    .digest('hex');

/** New codes replace every earlier one of the account; returns them, to be shown once. */
export async function replaceRecoveryCodes(
  tx: Tx,
  key: Uint8Array,
  userId: string,
  now: Date,
): Promise<string[]> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.user_id, userId));
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(newRecoveryCode());
  await tx.insert(recoveryCodes).values(
    [...codes].map((code) => ({
      user_id: userId,
      code_hash: hashRecoveryCode(key, code),
      created_at: now,
    })),
  );
  return [...codes];
}

export async function deleteRecoveryCodes(tx: Tx, userId: string): Promise<void> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.user_id, userId));
}

/**
 * Uses a code: one statement marks it used only if it is unused, so of any number of requests
 * with the same code exactly one succeeds.
 */
export async function useRecoveryCode(
  tx: Tx,
  key: Uint8Array,
  userId: string,
  code: string,
  now: Date,
): Promise<boolean> {
  const used = await tx
    .update(recoveryCodes)
    .set({ used_at: now })
    .where(
      and(
        eq(recoveryCodes.user_id, userId),
        eq(recoveryCodes.code_hash, hashRecoveryCode(key, code)),
        isNull(recoveryCodes.used_at),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return used.length === 1;
}

export async function countUnusedRecoveryCodes(db: Db | Tx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.user_id, userId), isNull(recoveryCodes.used_at)));
  return row?.n ?? 0;
}
