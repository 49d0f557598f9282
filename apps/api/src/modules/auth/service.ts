import crypto from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  ErrorCode,
  passwordProblem,
  type MfaChallengeResponse,
  type PasskeyAssertion,
  type RegistrationRequest,
  type SignInMethod,
} from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import type { Db, Tx } from '../../db/client.ts';
import { oneTimeCodes, sessions } from '../../db/schema/index.ts';
import { AppError, conflict, fieldError, notAuthenticated } from '../../lib/errors.ts';
import { days, hours } from '../../lib/clock.ts';
import { enqueueMail, enqueueMailWhere } from '../../lib/mail/outbox.ts';
import {
  activationCodeMail,
  newDeviceSignInMail,
  registrationAttemptMail,
} from '../../lib/mail/templates.ts';
import { ActivityAction, activityInsert } from '../activities/index.ts';
import { checkCode, codeError, issueCode, lockCode, renewCode } from './codes.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import {
  createSession,
  findLiveSession,
  revokeSession,
  tokenExpiry,
  touchSession,
} from './sessions.ts';
import { Audience, signToken, verifyToken } from './tokens.ts';
import { deviceKey, deviceName } from '../../lib/user-agent.ts';
import {
  createUser,
  findUserByEmail,
  findUserById,
  lastLoginUpdate,
  setRegistrationNoticeAt,
  verifyEmail,
  type UserRow,
} from '../users/index.ts';
import { mfaMethodsOf, verifyAssertion, type SecondFactor } from '../mfa/index.ts';
import { recordSecurityEvent, securityEventInsert } from '../security-log/index.ts';
import { releaseLoginAttempt, releaseQuery, reserveLoginAttempt } from './login-failures.ts';
import { answerChallenge, openChallenge } from './mfa-challenge.ts';

/** An activation token lets a not-yet-active account submit or re-send its code for a day. */
const ACTIVATION_TOKEN_TTL_MS = days(1);
export const MAX_FAILED_LOGINS = 10;
export const FAILED_LOGIN_WINDOW_MS = 15 * 60_000;

export interface ClientMeta {
  ip?: string | undefined;
  userAgent?: string | undefined;
}

export function assertPasswordPolicy(password: string, email: string, field: string) {
  const problem = passwordProblem(password, email);
  if (problem) throw fieldError(field, problem, ErrorCode.WEAK_PASSWORD);
}

export const isActive = (user: UserRow) => user.email_verified_at !== null;

/** An activation token names an activation code row (`sub`), never the account. */
async function activationToken(ctx: AppContext, codeRowId: string) {
  return signToken(
    ctx.jwtKey,
    ctx.clock,
    Audience.activation,
    { sub: codeRowId },
    new Date(ctx.clock.now().getTime() + ACTIVATION_TOKEN_TTL_MS),
  );
}

const isUniqueViolation = (err: unknown) =>
  (err as { code?: string }).code === '23505' ||
  (err as { cause?: { code?: string } }).cause?.code === '23505';

/**
 * Registration answers alike for a new address and one that has an account (201, the same body,
 * a token of the same claims, about the same time: one argon2 run either way), so it tells
 * nobody who has an account (OWASP ASVS 5.0):
 *  - a new address: the account, its activation code, and the mail with the code;
 *  - an account not yet activated, with the same password: a legitimate retry, a fresh code
 *    is mailed (replacing the old one);
 *  - any other account (active, disabled, or another password): nothing changes; the owner is
 *    mailed that someone tried (unless disabled), and the token names a blank code, at which
 *    every attempt is wrong, counted and limited like at a real one.
 * A retry never changes the password: else whoever registered an address last would choose the
 * password its owner then activates.
 */
export async function register(
  ctx: AppContext,
  input: RegistrationRequest,
  retried = false,
): Promise<{ token: string; email: string; detail: string }> {
  if (input.password1 !== input.password2)
    throw fieldError('password2', 'The two passwords do not match.');
  assertPasswordPolicy(input.password1, input.email, 'password1');
  const existing = await findUserByEmail(ctx.db, input.email);
  const passwordHash = existing ? null : await hashPassword(input.password1);
  const samePassword = existing
    ? await verifyPassword(existing.password_hash, input.password1)
    : false;
  let codeRowId: string;
  try {
    codeRowId = await ctx.db.transaction(async (tx) => {
      if (!existing) {
        const user = await createUser(tx, {
          email: input.email,
          password_hash: passwordHash,
          first_name: input.first_name,
          last_name: input.last_name,
          // Registration under the transit profile may create organizations.
          can_create_client: ctx.config.appProfile === 'transit',
        });
        const { id, code } = await issueCode(tx, ctx.jwtKey, ctx.clock, user.id, 'activation');
        await enqueueMail(
          tx,
          ctx.clock,
          activationCodeMail(ctx.mail, user.email, user.first_name, code),
        );
        return id;
      }
      const retry = existing.enabled && !isActive(existing) && samePassword;
      const { id, code } = await issueCode(
        tx,
        ctx.jwtKey,
        ctx.clock,
        retry ? existing.id : null,
        'activation',
      );
      if (retry) {
        await enqueueMail(
          tx,
          ctx.clock,
          activationCodeMail(ctx.mail, existing.email, existing.first_name, code),
        );
      } else if (existing.enabled) {
        await noticeRegistrationAttempt(tx, ctx, existing.id);
      }
      return id;
    });
  } catch (err) {
    // Two registrations racing for one new address: the unique index lets one in; the other
    // runs again and meets the account (a retry with the same password, else a blank code).
    if (isUniqueViolation(err) && !retried) return register(ctx, input, true);
    throw err;
  }
  ctx.outbox.kick();
  return {
    token: await activationToken(ctx, codeRowId),
    // As given (trimmed), not as stored: the stored spelling would tell the address is known.
    email: input.email,
    detail: 'We sent a 6-digit activation code to your e-mail.',
  };
}

/** At most one "someone tried to register" mail per account in this time, however many try. */
export const REGISTRATION_NOTICE_INTERVAL_MS = hours(1);

/** Mails the owner that someone tried to register their address, unless done within the hour. */
async function noticeRegistrationAttempt(tx: Tx, ctx: AppContext, userId: string) {
  // Locked: of parallel attempts, one sees the notice time the other wrote.
  const user = await findUserById(tx, userId, { lock: true });
  const now = ctx.clock.now();
  const last = user?.registration_notice_at?.getTime();
  if (!user || (last !== undefined && now.getTime() - last < REGISTRATION_NOTICE_INTERVAL_MS))
    return;
  await setRegistrationNoticeAt(tx, user.id, now);
  await enqueueMail(tx, ctx.clock, registrationAttemptMail(ctx.mail, user.email, user.first_name));
}

/** The code row an activation token names; 401 when it is not a live activation token. */
async function activationRowId(ctx: AppContext, token: string | null): Promise<string> {
  const verified = token
    ? await verifyToken(ctx.jwtKey, ctx.clock, Audience.activation, token)
    : null;
  if (!verified) throw invalidActivationToken();
  return verified.sub;
}

const invalidActivationToken = () =>
  notAuthenticated('The activation link is not valid or has expired. Sign in to get a new code.');

const alreadyActive = () =>
  conflict(ErrorCode.ALREADY_ACTIVATED, 'This account is already active. Sign in to continue.');

const accountDisabled = () =>
  new AppError(ErrorCode.ACCOUNT_DISABLED, 'This account is disabled. Contact your administrator.');

/**
 * The code of the token's row activates its account and signs the user in (a session made as
 * sign-in makes one), all in one transaction. A wrong code is counted whatever the row: a blank
 * code's answers are those of a real one.
 */
export async function activate(
  ctx: AppContext,
  token: string | null,
  code: string,
  meta: ClientMeta,
) {
  const rowId = await activationRowId(ctx, token);
  const outcome = await ctx.db.transaction(async (tx) => {
    const row = await lockCode(tx, rowId, 'activation');
    if (!row) return 'unknown' as const;
    // Set only by the code that activated the account: a replay of that success.
    if (row.verified_at) return 'already' as const;
    // A row replaced by a newer code is no code at all, like any wrong one.
    const check = await checkCode(
      tx,
      ctx.jwtKey,
      ctx.clock,
      row.consumed_at ? undefined : row,
      code,
    );
    if (check !== 'ok') return check;
    const user = row.user_id ? await findUserById(tx, row.user_id, { lock: true }) : undefined;
    if (!user) return 'missing' as const;
    const now = ctx.clock.now();
    await verifyEmail(tx, user, now);
    await tx
      .update(oneTimeCodes)
      .set({ verified_at: now, consumed_at: now })
      .where(eq(oneTimeCodes.id, row.id));
    if (!user.enabled) return 'disabled' as const;
    return { user, session: await openSession(tx, ctx, user, meta, { method: 'password' }) };
  });
  // Thrown after the commit, so a wrong guess still counts against the attempts.
  if (outcome === 'unknown') throw invalidActivationToken();
  if (outcome === 'already') throw alreadyActive();
  if (outcome === 'disabled') throw accountDisabled();
  if (typeof outcome === 'string') throw codeError(outcome);
  return {
    detail: 'Your account is active.',
    token: await sessionToken(ctx, outcome.user.id, outcome.session),
  };
}

/**
 * A new code in the token's row, mailed when the row is an account's waiting for activation;
 * otherwise (a blank code, or an account that is active or disabled by now) the code is renewed
 * blank and nothing is sent, with the same answer. The owner of an existing address was told
 * once, at registration: re-sends do not mail them again.
 */
export async function resendActivation(ctx: AppContext, token: string | null) {
  const rowId = await activationRowId(ctx, token);
  const outcome = await ctx.db.transaction(async (tx) => {
    const row = await lockCode(tx, rowId, 'activation');
    if (!row) return 'unknown' as const;
    if (row.verified_at) return 'already' as const;
    // A row replaced by a newer code (a later registration or sign-in): its token is spent.
    if (row.consumed_at) return 'unknown' as const;
    const user = row.user_id ? await findUserById(tx, row.user_id) : undefined;
    const pending = user?.enabled && !isActive(user) ? user : null;
    const code = await renewCode(tx, ctx.jwtKey, ctx.clock, row.id, pending !== null);
    if (pending) {
      await enqueueMail(
        tx,
        ctx.clock,
        activationCodeMail(ctx.mail, pending.email, pending.first_name, code),
      );
    }
    return 'renewed' as const;
  });
  if (outcome === 'unknown') throw invalidActivationToken();
  if (outcome === 'already') throw alreadyActive();
  ctx.outbox.kick();
  return { detail: 'We sent a new 6-digit code to your e-mail.' };
}

/**
 * The activation token for an account not yet activated whose password was just proven: its
 * live code row if there is one (the code already mailed stays good), else a new code that is
 * not mailed (the user asks for one with the token).
 */
async function pendingActivationToken(ctx: AppContext, user: UserRow) {
  const [live] = await ctx.db
    .select({ id: oneTimeCodes.id })
    .from(oneTimeCodes)
    .where(
      and(
        eq(oneTimeCodes.user_id, user.id),
        eq(oneTimeCodes.purpose, 'activation'),
        isNull(oneTimeCodes.consumed_at),
      ),
    )
    .orderBy(desc(oneTimeCodes.created_at))
    .limit(1);
  const id =
    live?.id ??
    (await ctx.db.transaction(
      async (tx) => (await issueCode(tx, ctx.jwtKey, ctx.clock, user.id, 'activation')).id,
    ));
  return activationToken(ctx, id);
}

const invalidCredentials = () =>
  new AppError(ErrorCode.INVALID_CREDENTIALS, 'The e-mail or password is incorrect.');

/**
 * Opens a session for a user who has proven who they are: the session, the user's last_login_at,
 * the sign-in activity and its security log entry (and, for a sign-in, the release of its reservation and the new-device
 * notice) in one statement, so they commit together in the caller's transaction or, on the
 * database itself, on their own.
 */
async function openSession(
  db: Db | Tx,
  ctx: AppContext,
  user: UserRow,
  meta: ClientMeta,
  proof: SignInProof,
  signIn?: { reservation?: string },
) {
  const now = ctx.clock.now();
  // Only a sign-in tells of a new device: activation and an accepted invitation are the account's
  // first sessions.
  const notice = signIn ? newDeviceNotice(db, ctx, user, meta) : null;
  return createSession(db, ctx.clock, user.id, meta, [
    ...(notice ? [notice] : []),
    db.$with('signed_in').as(lastLoginUpdate(db, user.id, now)),
    db.$with('logged').as(
      activityInsert(db, {
        userId: user.id,
        action: ActivityAction.SIGN_IN,
        objectType: 'user',
        objectId: user.id,
        at: now,
      }),
    ),
    db.$with('audited').as(
      securityEventInsert(db, {
        userId: user.id,
        kind: 'sign_in',
        method: proof.method,
        factor: proof.factor ?? null,
        at: now,
        ...meta,
      }),
    ),
    ...(signIn?.reservation ? [db.$with('released').as(releaseQuery(db, signIn.reservation))] : []),
  ]);
}

/** How a sign-in was proven, for the security log: its first factor and its second, if asked. */
export interface SignInProof {
  method: SignInMethod;
  factor?: SignInMethod | null;
}

/**
 * The new-device notice of a sign-in (issue 20 item 6), a CTE of the statement that opens the
 * session: the owner is e-mailed when the account has a session from a known device (kind,
 * browser and system) and none from this one. Sessions without a device (from before devices were
 * kept, or from scripts) count for nothing: the first sign-in after them only makes the device
 * known. A sign-in whose User-Agent says nothing usable is never taken for a new device.
 */
function newDeviceNotice(db: Db | Tx, ctx: AppContext, user: UserRow, meta: ClientMeta) {
  const device = deviceKey(meta.userAgent);
  if (!device) return null;
  const mail = newDeviceSignInMail(ctx.mail, user.email, user.first_name, {
    device: deviceName(meta.userAgent),
    ip: meta.ip ?? null,
    at: ctx.clock.now(),
  });
  return enqueueMailWhere(
    db,
    ctx.clock,
    mail,
    sql`exists (select 1 from ${sessions} where ${sessions.user_id} = ${user.id}
        and ${sessions.device_key} is not null)
      and not exists (select 1 from ${sessions} where ${sessions.user_id} = ${user.id}
        and ${sessions.device_key} = ${device})`,
  );
}

const sessionToken = (
  ctx: AppContext,
  userId: string,
  session: { id: string; expires_at: Date; token_jti: string | null },
) =>
  signToken(
    ctx.jwtKey,
    ctx.clock,
    Audience.session,
    { sub: userId, sid: session.id, ...(session.token_jti && { jti: session.token_jti }) },
    tokenExpiry(ctx.clock, session.expires_at),
  );

/**
 * Signs in a user proven by other means (an accepted invitation that set their password) inside
 * the caller's transaction, so the session commits with the change that proved them. An account
 * with a second factor is not signed in (undefined): an e-mailed link is no second factor, so its
 * owner signs in, and is asked for it, as always.
 */
export async function startSessionIn(
  tx: Tx,
  ctx: AppContext,
  user: UserRow,
  meta: ClientMeta,
): Promise<string | undefined> {
  if ((await mfaMethodsOf(tx, user.id)).length > 0) return undefined;
  const session = await openSession(tx, ctx, user, meta, { method: 'password' });
  return sessionToken(ctx, user.id, session);
}

/**
 * Signs in a user proven by an identity provider (Google): a session token, or the second factor's
 * challenge when the account has one.
 */
export async function startSession(
  ctx: AppContext,
  user: UserRow,
  meta: ClientMeta,
): Promise<{ token: string } | MfaChallengeResponse> {
  const methods = await mfaMethodsOf(ctx.db, user.id);
  if (methods.length > 0) return openChallenge(ctx, user.id, 'google', methods, meta);
  // A new-device notice wakes the mail job through the outbox's NOTIFY: no kick on the path.
  const session = await openSession(ctx.db, ctx, user, meta, { method: 'google' }, {});
  return { token: await sessionToken(ctx, user.id, session) };
}

/**
 * A sign-in with a passkey alone (discoverable credential): the passkey names its user and, with
 * its user verification, is both factors. A passkey that does not verify answers like any wrong
 * credential.
 */
export async function loginWithPasskey(
  ctx: AppContext,
  assertion: PasskeyAssertion,
  meta: ClientMeta,
): Promise<{ token: string }> {
  const outcome = await ctx.db.transaction(async (tx) => {
    const userId = await verifyAssertion(tx, ctx, assertion, 'sign_in', null);
    const user = userId ? await findUserById(tx, userId) : undefined;
    if (!user || user.deleted_at !== null) return 'unknown' as const;
    if (!user.enabled) return 'disabled' as const;
    const session = await openSession(tx, ctx, user, meta, { method: 'passkey' }, {});
    return { user, session };
  });
  if (outcome === 'disabled') throw accountDisabled();
  if (outcome === 'unknown') {
    throw new AppError(
      ErrorCode.INVALID_CREDENTIALS,
      'This passkey could not sign you in. Try again, or sign in with your e-mail and password.',
    );
  }
  return { token: await sessionToken(ctx, outcome.user.id, outcome.session) };
}

/**
 * The second step of a sign-in: the challenge's token and a factor give the session (opened in
 * the transaction that consumed the challenge). A refusal commits its counts, then answers.
 */
export async function loginWithSecondFactor(
  ctx: AppContext,
  token: string,
  proof: SecondFactor,
  meta: ClientMeta,
): Promise<{ token: string }> {
  const outcome = await ctx.db.transaction(async (tx) => {
    const answer = await answerChallenge(tx, ctx, token, proof, meta);
    if (!answer.ok) return answer;
    const user = await findUserById(tx, answer.userId);
    if (!user) return { ok: false as const, error: notAuthenticated() };
    const session = await openSession(
      tx,
      ctx,
      user,
      meta,
      { method: answer.method, factor: answer.factor },
      {},
    );
    return { ok: true as const, user, session };
  });
  if (!outcome.ok) throw outcome.error;
  return { token: await sessionToken(ctx, outcome.user.id, outcome.session) };
}

export async function login(
  ctx: AppContext,
  email: string,
  password: string,
  meta: ClientMeta,
): Promise<{ token: string } | MfaChallengeResponse> {
  const normalized = email.trim().toLowerCase();
  // Counted per e-mail whether or not an account has it, so the answers tell nobody which do;
  // the account is read in the same statement.
  const { reservation, user, secondFactor } = await reserveLoginAttempt(
    ctx.db,
    ctx.clock,
    { email: normalized, ip: meta.ip },
    { max: MAX_FAILED_LOGINS, windowMs: FAILED_LOGIN_WINDOW_MS },
  );
  if (!reservation) {
    throw new AppError(
      ErrorCode.RATE_LIMITED,
      'Too many failed sign-ins for this account. Try again in 15 minutes.',
    );
  }
  const ok = await verifyPassword(user?.password_hash, password);
  // A wrong password keeps its reservation: it is the recorded failure. The account's owner
  // sees it in their security log.
  if (user && !ok) {
    await recordSecurityEvent(ctx.db, {
      userId: user.id,
      kind: 'sign_in_failed',
      method: 'password',
      at: ctx.clock.now(),
      ...meta,
    });
  }
  if (!user || !ok) throw invalidCredentials();
  if (user.enabled && isActive(user)) {
    if (secondFactor) {
      // The password was right: it is no failure. The session waits for the second factor.
      await releaseLoginAttempt(ctx.db, reservation);
      return openChallenge(ctx, user.id, 'password', await mfaMethodsOf(ctx.db, user.id), meta);
    }
    // The reservation is released by the statement that opens the session.
    const session = await openSession(
      ctx.db,
      ctx,
      user,
      meta,
      { method: 'password' },
      { reservation },
    );
    return { token: await sessionToken(ctx, user.id, session) };
  }
  await releaseLoginAttempt(ctx.db, reservation);
  if (!user.enabled) throw accountDisabled();
  throw conflict(
    ErrorCode.ACCOUNT_NOT_ACTIVATED,
    'Activate your account with the code we e-mailed you.',
    {
      token: await pendingActivationToken(ctx, user),
      email: user.email,
    },
  );
}

export async function logout(ctx: AppContext, sessionId: string) {
  await revokeSession(ctx.db, ctx.clock, sessionId);
  return { detail: 'Signed out.' };
}

/** A new token for the same session, never past the session's absolute expiry. */
export async function refresh(ctx: AppContext, token: string) {
  const verified = await verifyToken(ctx.jwtKey, ctx.clock, Audience.session, token);
  if (!verified?.sid) throw notAuthenticated('The session has ended. Sign in again.');
  const live = await findLiveSession(ctx.db, ctx.clock, { ...verified, sid: verified.sid });
  if (!live) throw notAuthenticated('The session has ended. Sign in again.');
  // The new token becomes the session's current one; the replaced one keeps a grace, any other
  // (an earlier token still in its grace) is retired now (see isLive).
  const jti = crypto.randomUUID();
  await touchSession(ctx.db, ctx.clock, live.session.id, verified.jti, jti);
  return { token: await sessionToken(ctx, live.user.id, { ...live.session, token_jti: jti }) };
}
