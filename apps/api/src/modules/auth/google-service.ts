import { and, eq, lt } from 'drizzle-orm';
import { ErrorCode, type GoogleLoginResponse } from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { oauthAccounts, oidcLogins } from '../../db/schema/index.ts';
import { minutes } from '../../lib/clock.ts';
import { AppError, conflict } from '../../lib/errors.ts';
import { OidcError, type OidcClient, type OidcIdentity } from '../../lib/oidc.ts';
import { startSession, type ClientMeta } from './service.ts';
import {
  createUser,
  findUserByEmail,
  findUserById,
  verifyEmailDroppingPassword,
  type UserRow,
} from '../users/index.ts';

export const GOOGLE_PROVIDER = 'google';
/** How long a started Google sign-in may take before its state is refused. */
export const OIDC_LOGIN_TTL_MS = minutes(10);
const MAX_RETURN_PATH = 2048;

/** Google sign-in is on when the switch is on and a client id is configured. */
export const googleLoginEnabled = (ctx: AppContext) =>
  ctx.config.features.googleLogin && Boolean(ctx.config.google.clientId);

export const googleRedirectUri = (ctx: AppContext) => `${ctx.config.publicUrl}/google-auth`;

/**
 * A return path is kept only when it stays on this site: it starts with exactly one '/', is not
 * protocol-relative ('//host', '/\host') and has no control characters. Anything else is dropped.
 */
export function sanitizeReturnPath(path: string | undefined | null): string | null {
  if (!path || path.length > MAX_RETURN_PATH) return null;
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(path)) return null;
  return path;
}

const disabled = () =>
  new AppError(ErrorCode.FEATURE_DISABLED, 'Sign-in with Google is not enabled.');

export function assertGoogleEnabled(ctx: AppContext) {
  if (!googleLoginEnabled(ctx)) throw disabled();
}

/** The provider is down or unreachable: not the caller's fault, and not ours to hide (logged). */
function unavailable(err: unknown) {
  const error = new AppError(
    ErrorCode.SERVICE_UNAVAILABLE,
    'Google sign-in is unavailable right now. Try again in a few minutes or sign in with your password.',
  );
  error.cause = err;
  return error;
}

/** Starts a sign-in: keeps state, nonce and PKCE verifier for 10 minutes; returns where to go. */
export async function startGoogleLogin(
  ctx: AppContext,
  oidc: OidcClient,
  returnPath: string | undefined,
): Promise<string> {
  assertGoogleEnabled(ctx);
  let request;
  try {
    request = await oidc.createAuthorizationRequest(googleRedirectUri(ctx));
  } catch (err) {
    throw err instanceof OidcError ? unavailable(err) : err;
  }
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    // Abandoned sign-ins are cleared as new ones start.
    await tx.delete(oidcLogins).where(lt(oidcLogins.expires_at, now));
    await tx.insert(oidcLogins).values({
      state: request.state,
      nonce: request.nonce,
      code_verifier: request.codeVerifier,
      return_path: sanitizeReturnPath(returnPath),
      created_at: now,
      expires_at: new Date(now.getTime() + OIDC_LOGIN_TTL_MS),
    });
  });
  return request.url;
}

const oidcFailed = (field: string, message: string) =>
  new AppError(ErrorCode.OIDC_FAILED, message, [{ field, message }]);

/** Finishes a sign-in: single-use state, code exchange, account resolution, session. */
export async function completeGoogleLogin(
  ctx: AppContext,
  oidc: OidcClient,
  input: { code: string; state: string },
  meta: ClientMeta,
): Promise<GoogleLoginResponse> {
  assertGoogleEnabled(ctx);
  // Deleted before anything else: a state works once, whatever happens next.
  const [login] = await ctx.db
    .delete(oidcLogins)
    .where(eq(oidcLogins.state, input.state))
    .returning();
  if (!login || login.expires_at.getTime() <= ctx.clock.now().getTime()) {
    throw oidcFailed(
      'state',
      'This Google sign-in is unknown, used or expired. Start the sign-in again.',
    );
  }

  let identity: OidcIdentity;
  try {
    identity = await oidc.exchangeCode({
      code: input.code,
      state: input.state,
      nonce: login.nonce,
      codeVerifier: login.code_verifier,
      redirectUri: googleRedirectUri(ctx),
    });
  } catch (err) {
    if (!(err instanceof OidcError)) throw err;
    if (err.kind === 'unavailable') throw unavailable(err);
    throw oidcFailed('code', `Google sign-in failed: ${err.message} Start the sign-in again.`);
  }
  if (!identity.email) {
    throw oidcFailed(
      'code',
      'Google did not share an e-mail address. Allow access to your e-mail and try again.',
    );
  }

  const user = await resolveAccount(ctx, identity);
  if (!user.enabled) {
    throw new AppError(
      ErrorCode.ACCOUNT_DISABLED,
      'This account is disabled. Contact your administrator.',
    );
  }
  // A session, or the second factor's challenge when the account has one (issue 20 item 3).
  return { ...(await startSession(ctx, user, meta)), path: login.return_path };
}

const isUniqueViolation = (err: unknown) =>
  (err as { code?: string }).code === '23505' ||
  (err as { cause?: { code?: string } }).cause?.code === '23505';

/**
 * The account for a Google identity, in one transaction:
 * 1. a link for ('google', sub) → its user;
 * 2. else a live user with the e-mail, and Google says the e-mail is verified → link them;
 * 3. else a user with the e-mail but Google does not vouch for it → 409, never link;
 * 4. else a new user (no password) and its link.
 * Two first sign-ins racing for one sub or e-mail: the unique indexes decide, and the loser
 * runs the resolution again (it then finds the winner's rows).
 */
async function resolveAccount(ctx: AppContext, identity: OidcIdentity): Promise<UserRow> {
  try {
    return await ctx.db.transaction((tx) => resolveInTx(ctx, tx, identity));
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return ctx.db.transaction((tx) => resolveInTx(ctx, tx, identity));
  }
}

async function resolveInTx(ctx: AppContext, tx: Tx, identity: OidcIdentity): Promise<UserRow> {
  const now = ctx.clock.now();
  const email = identity.email!;
  const [link] = await tx
    .select()
    .from(oauthAccounts)
    .where(
      and(eq(oauthAccounts.provider, GOOGLE_PROVIDER), eq(oauthAccounts.subject, identity.subject)),
    )
    .limit(1)
    .for('update');
  if (link) {
    const linked = await findUserById(tx, link.user_id);
    if (linked) {
      // The address at Google may change; the account's e-mail does not follow it.
      if (link.email !== email) {
        await tx.update(oauthAccounts).set({ email }).where(eq(oauthAccounts.id, link.id));
      }
      return linked;
    }
    // The user was deleted: the stale link goes, and the identity is resolved afresh.
    await tx.delete(oauthAccounts).where(eq(oauthAccounts.id, link.id));
  }

  const existing = await findUserByEmail(tx, email, { lock: true });
  if (existing) {
    if (!identity.emailVerified) {
      throw conflict(
        ErrorCode.EMAIL_TAKEN,
        'An account with this e-mail already exists, and Google has not verified the address. Sign in with your password instead.',
        [{ field: 'email', message: 'Sign in with your password instead.' }],
      );
    }
    if (!existing.enabled) return existing;
    await tx.insert(oauthAccounts).values({
      user_id: existing.id,
      provider: GOOGLE_PROVIDER,
      subject: identity.subject,
      email,
      created_at: now,
    });
    if (existing.email_verified_at === null) {
      // Google proved who owns the address. A password set on the never-activated account was
      // not proven by that owner (it could be someone else's pre-registration), so it goes.
      return verifyEmailDroppingPassword(tx, existing.id, now);
    }
    return existing;
  }

  const created = await createUser(tx, {
    email,
    password_hash: null,
    first_name: identity.givenName.slice(0, 150),
    last_name: identity.familyName.slice(0, 150),
    email_verified_at: identity.emailVerified ? now : null,
    can_create_client: ctx.config.appProfile === 'transit',
  });
  await tx.insert(oauthAccounts).values({
    user_id: created.id,
    provider: GOOGLE_PROVIDER,
    subject: identity.subject,
    email,
    created_at: now,
  });
  return created;
}
