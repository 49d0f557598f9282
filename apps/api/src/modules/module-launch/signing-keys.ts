import crypto from 'node:crypto';
import { MODULE_LAUNCH_ALGORITHM, MODULE_LAUNCH_TOKEN_TTL_S, type Jwks } from '@portolan/contract';
import { desc, gt, isNull, or, sql } from 'drizzle-orm';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { AppContext } from '../../context.ts';
import type { Db, Tx } from '../../db/client.ts';
import { signingKeys } from '../../db/schema/index.ts';

/**
 * The keys that sign module launch tokens (issue 21 item 4): ES256 on P-256, made here, the
 * private half sealed at rest (lib/secret-box.ts, the kid as associated data: a sealed key copied
 * to another row does not open). One key is current (unretired) and signs; a rotation retires it
 * and makes the next. A retired key stays published until every token it signed has expired.
 */

export type KeyContext = Pick<AppContext, 'db' | 'clock' | 'secretBox'>;

/**
 * How long a retired key stays in the JWKS: a token signed just before the rotation lives
 * MODULE_LAUNCH_TOKEN_TTL_S more, and a minute covers a verifier's clock running behind.
 */
export const RETIRED_KEY_PUBLISHED_MS = (MODULE_LAUNCH_TOKEN_TTL_S + 60) * 1000;

/**
 * The transaction-level advisory lock that orders every change of the current key: two instances
 * starting at once, or a rotation meeting a start, make one current key, never two.
 */
const SIGNING_KEYS_LOCK = 0x6c61756e6368; // "launch"

const lockKeys = (tx: Tx) =>
  tx.execute(sql`select pg_advisory_xact_lock(${SIGNING_KEYS_LOCK}::bigint)`);

type KeyRow = typeof signingKeys.$inferInsert;

/** A new key's row: a random URL-safe kid, the public JWK as published, the private one sealed. */
async function newKeyRow(ctx: KeyContext): Promise<KeyRow> {
  const kid = crypto.randomBytes(16).toString('base64url');
  const { publicKey, privateKey } = await generateKeyPair(MODULE_LAUNCH_ALGORITHM, {
    extractable: true,
  });
  const { kty, crv, x, y } = await exportJWK(publicKey);
  const sealed = ctx.secretBox.seal(Buffer.from(JSON.stringify(await exportJWK(privateKey))), kid);
  return {
    kid,
    algorithm: MODULE_LAUNCH_ALGORITHM,
    public_jwk: { kty, crv, x, y, kid, alg: MODULE_LAUNCH_ALGORITHM, use: 'sig' },
    private_jwk: sealed,
    created_at: ctx.clock.now(),
  };
}

async function currentRow(db: Db | Tx) {
  const [row] = await db
    .select()
    .from(signingKeys)
    .where(isNull(signingKeys.retired_at))
    .orderBy(desc(signingKeys.created_at))
    .limit(1);
  return row;
}

/**
 * Makes sure a current key exists (at start, and before signing should one be missing). Most calls
 * find one without taking the lock; otherwise the check and the insert run under the lock, so
 * instances starting together on one database end with one key. Answers whether it made one.
 */
export async function ensureSigningKey(ctx: KeyContext): Promise<boolean> {
  if (await currentRow(ctx.db)) return false;
  const row = await newKeyRow(ctx);
  return ctx.db.transaction(async (tx) => {
    await lockKeys(tx);
    if (await currentRow(tx)) return false;
    await tx.insert(signingKeys).values(row);
    return true;
  });
}

/** Rotation (`npm run keys:rotate`): the new key becomes current, every other is retired now. */
export async function rotateSigningKey(
  ctx: KeyContext,
): Promise<{ kid: string; retired: string[] }> {
  const row = await newKeyRow(ctx);
  return ctx.db.transaction(async (tx) => {
    await lockKeys(tx);
    const retired = await tx
      .update(signingKeys)
      .set({ retired_at: row.created_at })
      .where(isNull(signingKeys.retired_at))
      .returning({ kid: signingKeys.kid });
    await tx.insert(signingKeys).values(row);
    return { kid: row.kid, retired: retired.map((r) => r.kid) };
  });
}

/** Opened and imported private keys by kid: a kid's key never changes. */
const imported = new Map<string, Promise<CryptoKey>>();

/** The current key, to sign with (made first should none exist). */
export async function currentSigningKey(ctx: KeyContext): Promise<{ kid: string; key: CryptoKey }> {
  let row = await currentRow(ctx.db);
  if (!row) {
    await ensureSigningKey(ctx);
    row = await currentRow(ctx.db);
    if (!row) throw new Error('no current signing key after making one');
  }
  const { kid, private_jwk: sealed } = row;
  let key = imported.get(kid);
  if (!key) {
    const jwk = JSON.parse(ctx.secretBox.open(sealed, kid).toString('utf8')) as JWK;
    key = importJWK(jwk, MODULE_LAUNCH_ALGORITHM) as Promise<CryptoKey>;
    imported.set(kid, key);
    // A key that failed to import is tried again next time, not remembered broken.
    key.catch(() => imported.delete(kid));
  }
  return { kid, key: await key };
}

/** The JWKS: the current key and those retired within RETIRED_KEY_PUBLISHED_MS. */
export async function publishedKeys(ctx: Pick<KeyContext, 'db' | 'clock'>): Promise<Jwks> {
  const since = new Date(ctx.clock.now().getTime() - RETIRED_KEY_PUBLISHED_MS);
  const rows = await ctx.db
    .select({ jwk: signingKeys.public_jwk })
    .from(signingKeys)
    .where(or(isNull(signingKeys.retired_at), gt(signingKeys.retired_at, since)))
    // The current key (retired_at null sorts first), then the most recently retired.
    .orderBy(desc(signingKeys.retired_at), desc(signingKeys.created_at));
  return { keys: rows.map((r) => r.jwk as Jwks['keys'][number]) };
}
