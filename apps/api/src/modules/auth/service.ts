import { eq } from 'drizzle-orm';
import {
  ErrorCode,
  passwordProblem,
  type RegistrationRequest,
  type UserUpdate,
} from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import { users } from '../../db/schema/index.ts';
import { AppError, conflict, fieldError, notAuthenticated } from '../../lib/errors.ts';
import { days } from '../../lib/clock.ts';
import { enqueueMail } from '../../lib/mail/outbox.ts';
import { activationCodeMail } from '../../lib/mail/templates.ts';
import { ActivityAction, recordActivity } from '../activities/service.ts';
import { checkCode, codeError, consumeCode, issueCode, lockLiveCode } from './codes.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import {
  createSession,
  findLiveSession,
  revokeSession,
  tokenExpiry,
  touchSession,
} from './sessions.ts';
import { Audience, signToken, verifyToken } from './tokens.ts';
import { findUserByEmail, findUserById, toUserDto, type UserRow } from './users-repo.ts';
import { releaseLoginAttempt, reserveLoginAttempt } from './login-failures.ts';
import { isOwnUploadUrl } from '../uploads/service.ts';

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

export async function activationToken(ctx: AppContext, userId: string) {
  return signToken(
    ctx.jwtKey,
    ctx.clock,
    Audience.activation,
    { sub: userId },
    new Date(ctx.clock.now().getTime() + ACTIVATION_TOKEN_TTL_MS),
  );
}

export async function register(ctx: AppContext, input: RegistrationRequest) {
  if (input.password1 !== input.password2)
    throw fieldError('password2', 'The two passwords do not match.');
  assertPasswordPolicy(input.password1, input.email, 'password1');
  const passwordHash = await hashPassword(input.password1);
  const user = await ctx.db
    .transaction(async (tx) => {
      if (await findUserByEmail(tx, input.email)) {
        throw conflict(
          ErrorCode.EMAIL_TAKEN,
          'An account with this e-mail already exists. Sign in instead.',
          [
            {
              field: 'email',
              message: 'An account with this e-mail already exists. Sign in instead.',
            },
          ],
        );
      }
      const [user] = await tx
        .insert(users)
        .values({
          email: input.email,
          password_hash: passwordHash,
          first_name: input.first_name,
          last_name: input.last_name,
          // Registration under the transit profile may create organizations.
          can_create_client: ctx.config.appProfile === 'transit',
        })
        .returning();
      const { code } = await issueCode(tx, ctx.jwtKey, ctx.clock, user!.id, 'activation');
      await enqueueMail(
        tx,
        ctx.clock,
        activationCodeMail(ctx.mail, user!.email, user!.first_name, code),
      );
      return user!;
    })
    .catch((err: unknown) => {
      // Two registrations racing for one e-mail: the unique index decides.
      if (
        (err as { code?: string }).code === '23505' ||
        (err as { cause?: { code?: string } }).cause?.code === '23505'
      ) {
        throw conflict(
          ErrorCode.EMAIL_TAKEN,
          'An account with this e-mail already exists. Sign in instead.',
          [
            {
              field: 'email',
              message: 'An account with this e-mail already exists. Sign in instead.',
            },
          ],
        );
      }
      throw err;
    });
  ctx.outbox.kick();
  return {
    token: await activationToken(ctx, user.id),
    email: user.email,
    detail: 'We sent a 6-digit activation code to your e-mail.',
  };
}

/** The account an activation token stands for; 401 when the token is not a live activation token. */
async function activationSubject(ctx: AppContext, token: string | null) {
  const verified = token
    ? await verifyToken(ctx.jwtKey, ctx.clock, Audience.activation, token)
    : null;
  if (!verified)
    throw notAuthenticated(
      'The activation link is not valid or has expired. Sign in to get a new code.',
    );
  const user = await findUserById(ctx.db, verified.sub);
  if (!user)
    throw notAuthenticated(
      'The activation link is not valid or has expired. Sign in to get a new code.',
    );
  return user;
}

const alreadyActive = () =>
  conflict(ErrorCode.ALREADY_ACTIVATED, 'This account is already active. Sign in to continue.');

export async function activate(ctx: AppContext, token: string | null, code: string) {
  const user = await activationSubject(ctx, token);
  if (isActive(user)) throw alreadyActive();
  const result = await ctx.db.transaction(async (tx) => {
    const row = await lockLiveCode(tx, { userId: user.id, purpose: 'activation' });
    const check = await checkCode(tx, ctx.jwtKey, ctx.clock, row, code);
    if (check === 'ok') {
      const now = ctx.clock.now();
      await tx.update(users).set({ email_verified_at: now }).where(eq(users.id, user.id));
      await consumeCode(tx, ctx.clock, row!.id);
    }
    return check;
  });
  // Thrown after the commit, so a wrong guess still counts against the attempts.
  if (result !== 'ok') throw codeError(result);
  return { detail: 'Your account is active. Sign in to continue.' };
}

export async function resendActivation(ctx: AppContext, token: string | null) {
  const user = await activationSubject(ctx, token);
  if (isActive(user)) throw alreadyActive();
  await ctx.db.transaction(async (tx) => {
    const { code } = await issueCode(tx, ctx.jwtKey, ctx.clock, user.id, 'activation');
    await enqueueMail(
      tx,
      ctx.clock,
      activationCodeMail(ctx.mail, user.email, user.first_name, code),
    );
  });
  ctx.outbox.kick();
  return { detail: 'We sent a new 6-digit code to your e-mail.' };
}

const invalidCredentials = () =>
  new AppError(400, ErrorCode.INVALID_CREDENTIALS, 'The e-mail or password is incorrect.');

/** Issues a session token for a user who has proven who they are. */
export async function startSession(ctx: AppContext, user: UserRow, meta: ClientMeta) {
  const session = await ctx.db.transaction(async (tx) => {
    const session = await createSession(tx, ctx.clock, user.id, meta);
    await tx.update(users).set({ last_login_at: ctx.clock.now() }).where(eq(users.id, user.id));
    await recordActivity(tx, {
      userId: user.id,
      action: ActivityAction.SIGN_IN,
      objectType: 'user',
      objectId: user.id,
      at: ctx.clock.now(),
    });
    return session;
  });
  const token = await signToken(
    ctx.jwtKey,
    ctx.clock,
    Audience.session,
    { sub: user.id, sid: session.id },
    tokenExpiry(ctx.clock, session.expires_at),
  );
  return { token };
}

export async function login(ctx: AppContext, email: string, password: string, meta: ClientMeta) {
  const normalized = email.trim().toLowerCase();
  // Counted per e-mail whether or not an account has it, so the answers tell nobody which do.
  const reservation = await reserveLoginAttempt(
    ctx.db,
    ctx.clock,
    { email: normalized, ip: meta.ip },
    { max: MAX_FAILED_LOGINS, windowMs: FAILED_LOGIN_WINDOW_MS },
  );
  if (!reservation) {
    throw new AppError(
      429,
      ErrorCode.RATE_LIMITED,
      'Too many failed sign-ins for this account. Try again in 15 minutes.',
    );
  }
  const user = await findUserByEmail(ctx.db, normalized);
  const ok = await verifyPassword(user?.password_hash, password);
  // A wrong password keeps its reservation: it is the recorded failure.
  if (!user || !ok) throw invalidCredentials();
  await releaseLoginAttempt(ctx.db, reservation);
  if (!user.enabled)
    throw new AppError(
      403,
      ErrorCode.ACCOUNT_DISABLED,
      'This account is disabled. Contact your administrator.',
    );
  if (!isActive(user)) {
    throw conflict(
      ErrorCode.ACCOUNT_NOT_ACTIVATED,
      'Activate your account with the code we e-mailed you.',
      {
        token: await activationToken(ctx, user.id),
        email: user.email,
      },
    );
  }
  return startSession(ctx, user, meta);
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
  // Retires the token being replaced (see findLiveSession); before signing the new one.
  await touchSession(ctx.db, ctx.clock, live.session.id);
  return {
    token: await signToken(
      ctx.jwtKey,
      ctx.clock,
      Audience.session,
      { sub: live.user.id, sid: live.session.id },
      tokenExpiry(ctx.clock, live.session.expires_at),
    ),
  };
}

export async function updateUser(ctx: AppContext, user: UserRow, patch: UserUpdate) {
  const userId = user.id;
  // An empty change is answered with the user as is: nothing to write (and drizzle cannot
  // build an UPDATE without a SET).
  if (Object.values(patch).every((value) => value === undefined)) return toUserDto(user);
  if (patch.avatar && !(await isOwnUploadUrl(ctx.db, userId, patch.avatar))) {
    throw fieldError(
      'avatar',
      'Upload the image first (POST /v1/upload/) and use the URL it returns.',
    );
  }
  const [row] = await ctx.db.update(users).set(patch).where(eq(users.id, userId)).returning();
  if (!row) throw notAuthenticated();
  return toUserDto(row);
}
