import {
  ErrorCode,
  PASSKEY_CHALLENGE_TTL_S,
  PASSKEY_MAX_PER_ACCOUNT,
  type Passkey,
  type PasskeyAddedResponse,
  type PasskeyAssertion,
  type PasskeyOptionsResponse,
  type PasskeyRegistration,
} from '@portolan/contract';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { and, asc, count, eq, gt, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db, Tx } from '../../db/client.ts';
import { passkeys, userMfa, webauthnChallenges } from '../../db/schema/index.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import { deviceName } from '../../lib/user-agent.ts';
import type { SessionAuth } from '../access/index.ts';
import { recordSecurityEvent, type RequestOrigin } from '../security-log/index.ts';
import { lockMfa } from './factors.ts';
import { deleteRecoveryCodes, replaceRecoveryCodes } from './recovery-codes.ts';

type ChallengePurpose = (typeof webauthnChallenges.$inferInsert)['purpose'];
type PasskeyRow = typeof passkeys.$inferSelect;

/** The relying party is the portal at PUBLIC_URL: its host name is the passkeys' scope. */
export function relyingParty(ctx: Pick<AppContext, 'config'>) {
  const url = new URL(ctx.config.publicUrl);
  return { id: url.hostname, origin: url.origin, name: ctx.config.brand };
}

async function saveChallenge(
  db: Db | Tx,
  ctx: Pick<AppContext, 'clock'>,
  purpose: ChallengePurpose,
  userId: string | null,
  challenge: string,
): Promise<string> {
  const now = ctx.clock.now();
  const [row] = await db
    .insert(webauthnChallenges)
    .values({
      user_id: userId,
      purpose,
      challenge,
      created_at: now,
      expires_at: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_S * 1000),
    })
    .returning({ id: webauthnChallenges.id });
  return row!.id;
}

/** Takes a live challenge of this purpose (and user): once, in the caller's transaction. */
async function consumeChallenge(
  tx: Tx,
  ctx: Pick<AppContext, 'clock'>,
  id: string,
  purpose: ChallengePurpose,
  userId: string | null,
): Promise<string | null> {
  const now = ctx.clock.now();
  const [row] = await tx
    .update(webauthnChallenges)
    .set({ consumed_at: now })
    .where(
      and(
        eq(webauthnChallenges.id, id),
        eq(webauthnChallenges.purpose, purpose),
        userId === null
          ? isNull(webauthnChallenges.user_id)
          : eq(webauthnChallenges.user_id, userId),
        isNull(webauthnChallenges.consumed_at),
        gt(webauthnChallenges.expires_at, now),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  return row?.challenge ?? null;
}

const toPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  created_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at?.toISOString() ?? null,
  backed_up: row.backed_up,
});

const passkeysOf = (db: Db | Tx, userId: string) =>
  db.select().from(passkeys).where(eq(passkeys.user_id, userId)).orderBy(asc(passkeys.created_at));

export async function listPasskeys(ctx: AppContext, userId: string) {
  return { results: (await passkeysOf(ctx.db, userId)).map(toPasskey) };
}

export async function countPasskeys(db: Db | Tx, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.user_id, userId));
  return row?.n ?? 0;
}

const tooMany = () =>
  conflict(
    ErrorCode.PASSKEY_LIMIT,
    `You have ${PASSKEY_MAX_PER_ACCOUNT} passkeys. Remove one to add another.`,
  );

/**
 * The options of a new passkey: discoverable (it can sign in without a password) and verifying
 * its user (a PIN, a fingerprint), never one the account already has.
 */
export async function registrationOptions(
  ctx: AppContext,
  auth: SessionAuth,
): Promise<PasskeyOptionsResponse> {
  const existing = await passkeysOf(ctx.db, auth.userId);
  if (existing.length >= PASSKEY_MAX_PER_ACCOUNT) throw tooMany();
  const rp = relyingParty(ctx);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: auth.user.email,
    userID: Buffer.from(auth.userId.replace(/-/g, ''), 'hex'),
    userDisplayName: `${auth.user.first_name} ${auth.user.last_name}`.trim() || auth.user.email,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  const id = await saveChallenge(ctx.db, ctx, 'register', auth.userId, options.challenge);
  return { challenge_id: id, options: options as unknown as Record<string, unknown> };
}

const unverified = (field: string, message: string) =>
  new AppError(ErrorCode.INVALID_CODE, message, [{ field, message }]);

/**
 * Adds the passkey the browser made for the registration challenge. The account's first factor
 * comes with recovery codes (shown once), as TOTP's does.
 */
export async function addPasskey(
  ctx: AppContext,
  auth: SessionAuth,
  input: PasskeyRegistration,
  origin: RequestOrigin,
): Promise<PasskeyAddedResponse> {
  const rp = relyingParty(ctx);
  const outcome = await ctx.db.transaction(async (tx) => {
    const challenge = await consumeChallenge(tx, ctx, input.challenge_id, 'register', auth.userId);
    if (!challenge) {
      return unverified('challenge_id', 'This passkey request has expired. Start again.');
    }
    const verification = await verifyRegistrationResponse({
      response: input.response as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    }).catch(() => null);
    if (!verification?.verified) {
      return unverified('response', 'The passkey could not be verified. Try again.');
    }
    const now = ctx.clock.now();
    // The account's row, made if need be, is the lock every change of its factors queues on.
    await tx
      .insert(userMfa)
      .values({ user_id: auth.userId, created_at: now })
      .onConflictDoNothing();
    const mfa = await lockMfa(tx, auth.userId);
    const had = await countPasskeys(tx, auth.userId);
    if (had >= PASSKEY_MAX_PER_ACCOUNT) return tooMany();
    const { credential, credentialBackedUp } = verification.registrationInfo;
    const [row] = await tx
      .insert(passkeys)
      .values({
        user_id: auth.userId,
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? [],
        name: input.name ?? `Passkey on ${deviceName(origin.userAgent)}`,
        backed_up: credentialBackedUp,
        created_at: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) return conflict(ErrorCode.PASSKEY_LIMIT, 'This passkey is already registered.');
    const first = had === 0 && !mfa?.totp_confirmed_at;
    const codes = first ? await replaceRecoveryCodes(tx, ctx.jwtKey, auth.userId, now) : null;
    await recordSecurityEvent(tx, {
      userId: auth.userId,
      kind: 'passkey_added',
      at: now,
      ...origin,
    });
    return { passkey: toPasskey(row), recovery_codes: codes };
  });
  if (outcome instanceof AppError) throw outcome;
  return outcome;
}

/** Removes a passkey; the recovery codes go with the account's last factor. */
export async function removePasskey(
  ctx: AppContext,
  auth: SessionAuth,
  id: string,
  origin: RequestOrigin,
): Promise<{ detail: string }> {
  await ctx.db.transaction(async (tx) => {
    const mfa = await lockMfa(tx, auth.userId);
    const removed = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.user_id, auth.userId)))
      .returning({ id: passkeys.id });
    if (removed.length === 0) throw notFound('No such passkey of yours.');
    if (!mfa?.totp_confirmed_at && (await countPasskeys(tx, auth.userId)) === 0) {
      await deleteRecoveryCodes(tx, auth.userId);
    }
    await recordSecurityEvent(tx, {
      userId: auth.userId,
      kind: 'passkey_removed',
      at: ctx.clock.now(),
      ...origin,
    });
  });
  return { detail: 'The passkey was removed.' };
}

/**
 * The options of a passkey assertion: for a sign-in without a password any passkey of the site
 * may answer (the browser offers the discoverable ones); for a user's second factor or step-up,
 * one of theirs.
 */
export async function assertionOptions(
  db: Db | Tx,
  ctx: Pick<AppContext, 'clock' | 'config'>,
  purpose: Exclude<ChallengePurpose, 'register'>,
  userId: string | null,
): Promise<PasskeyOptionsResponse> {
  const own = userId ? await passkeysOf(db, userId) : [];
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx).id,
    userVerification: 'required',
    ...(userId && {
      allowCredentials: own.map((p) => ({ id: p.credential_id, transports: p.transports })),
    }),
  });
  const id = await saveChallenge(db, ctx, purpose, userId, options.challenge);
  return { challenge_id: id, options: options as unknown as Record<string, unknown> };
}

/**
 * Verifies a passkey's answer to a challenge of this purpose (and user, unless a sign-in without
 * one) in the caller's transaction: the challenge is used up whatever the outcome, the passkey's
 * counter moves on. The user whose passkey it is, or null.
 */
export async function verifyAssertion(
  tx: Tx,
  ctx: Pick<AppContext, 'clock' | 'config'>,
  assertion: PasskeyAssertion,
  purpose: Exclude<ChallengePurpose, 'register'>,
  userId: string | null,
): Promise<string | null> {
  const challenge = await consumeChallenge(tx, ctx, assertion.challenge_id, purpose, userId);
  if (!challenge) return null;
  const [row] = await tx
    .select()
    .from(passkeys)
    .where(
      and(
        eq(passkeys.credential_id, assertion.response.id),
        ...(userId ? [eq(passkeys.user_id, userId)] : []),
      ),
    )
    .for('update');
  if (!row) return null;
  const rp = relyingParty(ctx);
  const result = await verifyAuthenticationResponse({
    response: assertion.response as unknown as AuthenticationResponseJSON,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: {
      id: row.credential_id,
      publicKey: Buffer.from(row.public_key, 'base64url'),
      counter: row.counter,
      transports: row.transports,
    },
    requireUserVerification: true,
  }).catch(() => null);
  if (!result?.verified) return null;
  await tx
    .update(passkeys)
    .set({ counter: result.authenticationInfo.newCounter, last_used_at: ctx.clock.now() })
    .where(eq(passkeys.id, row.id));
  return row.user_id;
}
