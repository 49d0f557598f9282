import {
  ErrorCode,
  TOTP_ISSUER,
  TOTP_WINDOW_STEPS,
  type MfaStatusResponse,
  type RecoveryCodesResponse,
  type TotpSetupResponse,
} from '@portolan/contract';
import { eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { userMfa } from '../../db/schema/index.ts';
import { AppError, conflict } from '../../lib/errors.ts';
import { base32Encode, matchTotp, newTotpSecret, otpauthUrl } from '../../lib/totp.ts';
import type { SessionAuth } from '../access/index.ts';
import { recordSecurityEvent, type RequestOrigin } from '../security-log/index.ts';
import { factorsOf, lockMfa, methodsOf } from './factors.ts';
import { countPasskeys } from './passkeys.ts';
import {
  countUnusedRecoveryCodes,
  deleteRecoveryCodes,
  replaceRecoveryCodes,
} from './recovery-codes.ts';

const notEnabled = () =>
  conflict(ErrorCode.MFA_NOT_ENABLED, 'Two-step verification is not on for your account.');
const alreadyEnabled = () =>
  conflict(
    ErrorCode.MFA_ALREADY_ENABLED,
    'An authenticator app is already set up. Remove it first to set up another.',
  );

/** The account's factors, and until when the session may act without a step-up. */
export async function mfaStatus(ctx: AppContext, auth: SessionAuth): Promise<MfaStatusResponse> {
  const factors = await factorsOf(ctx.db, auth.userId);
  const methods = methodsOf(factors);
  return {
    methods,
    totp: { enabled: factors.totp, confirmed_at: factors.totpConfirmedAt?.toISOString() ?? null },
    passkeys: factors.passkeys,
    recovery_codes_remaining:
      methods.length > 0 ? await countUnusedRecoveryCodes(ctx.db, auth.userId) : 0,
    step_up_until: new Date(auth.provenAt.getTime() + ctx.config.stepUpMaxAgeMs).toISOString(),
  };
}

/**
 * A new TOTP secret, pending until a code of it is confirmed; replaces a pending one. One
 * statement: it writes only where no confirmed secret is, so it never replaces one that works.
 */
export async function setUpTotp(ctx: AppContext, auth: SessionAuth): Promise<TotpSetupResponse> {
  const secret = newTotpSecret();
  const sealed = ctx.secretBox.seal(secret, auth.userId);
  const written = await ctx.db
    .insert(userMfa)
    .values({ user_id: auth.userId, totp_secret: sealed, created_at: ctx.clock.now() })
    .onConflictDoUpdate({
      target: userMfa.user_id,
      set: { totp_secret: sealed, totp_confirmed_at: null, totp_last_step: null },
      setWhere: isNull(userMfa.totp_confirmed_at),
    })
    .returning({ user_id: userMfa.user_id });
  if (written.length === 0) throw alreadyEnabled();
  const text = base32Encode(secret);
  return { secret: text, otpauth_url: otpauthUrl(TOTP_ISSUER, auth.user.email, text) };
}

/** The first code of the pending secret turns TOTP on; the recovery codes come with it. */
export async function confirmTotp(
  ctx: AppContext,
  auth: SessionAuth,
  code: string,
  origin: RequestOrigin,
): Promise<RecoveryCodesResponse> {
  return ctx.db.transaction(async (tx) => {
    const row = await lockMfa(tx, auth.userId);
    if (row?.totp_confirmed_at) throw alreadyEnabled();
    if (!row?.totp_secret) {
      throw conflict(
        ErrorCode.MFA_NOT_ENABLED,
        'Start setting up the authenticator app first: no setup is waiting for a code.',
      );
    }
    const now = ctx.clock.now();
    const secret = ctx.secretBox.open(row.totp_secret, auth.userId);
    const step = matchTotp(secret, code, now, TOTP_WINDOW_STEPS, null);
    if (step === null) {
      throw new AppError(
        ErrorCode.INVALID_CODE,
        'That code is not right. Check that your phone’s clock is set automatically, then enter the newest code.',
        [{ field: 'code', message: 'That code is not right.' }],
      );
    }
    // The code that confirmed is spent: it cannot also sign in.
    await tx
      .update(userMfa)
      .set({ totp_confirmed_at: now, totp_last_step: step, failures: 0, failures_since: null })
      .where(eq(userMfa.user_id, auth.userId));
    // Fresh recovery codes come with it (those of a passkey before it stop working).
    const codes = await replaceRecoveryCodes(tx, ctx.jwtKey, auth.userId, now);
    await event(tx, auth, 'totp_enabled', now, origin);
    return { recovery_codes: codes };
  });
}

/** Turns TOTP off: the secret and the recovery codes go. */
export async function removeTotp(
  ctx: AppContext,
  auth: SessionAuth,
  origin: RequestOrigin,
): Promise<{ detail: string }> {
  await ctx.db.transaction(async (tx) => {
    const row = await lockMfa(tx, auth.userId);
    if (!row?.totp_confirmed_at) throw notEnabled();
    await tx
      .update(userMfa)
      .set({ totp_secret: null, totp_confirmed_at: null, totp_last_step: null })
      .where(eq(userMfa.user_id, auth.userId));
    // The recovery codes go with the account's last factor.
    if ((await countPasskeys(tx, auth.userId)) === 0) await deleteRecoveryCodes(tx, auth.userId);
    await event(tx, auth, 'totp_disabled', ctx.clock.now(), origin);
  });
  return { detail: 'Two-step verification is off. Your recovery codes no longer work.' };
}

/** New recovery codes; the earlier ones stop working. */
export async function regenerateRecoveryCodes(
  ctx: AppContext,
  auth: SessionAuth,
  origin: RequestOrigin,
): Promise<RecoveryCodesResponse> {
  return ctx.db.transaction(async (tx) => {
    await lockMfa(tx, auth.userId);
    if (methodsOf(await factorsOf(tx, auth.userId)).length === 0) throw notEnabled();
    const now = ctx.clock.now();
    const codes = await replaceRecoveryCodes(tx, ctx.jwtKey, auth.userId, now);
    await event(tx, auth, 'recovery_codes_regenerated', now, origin);
    return { recovery_codes: codes };
  });
}

const event = (
  tx: Tx,
  auth: SessionAuth,
  kind: 'totp_enabled' | 'totp_disabled' | 'recovery_codes_regenerated',
  at: Date,
  origin: RequestOrigin,
) => recordSecurityEvent(tx, { userId: auth.userId, kind, at, ...origin });
