import crypto from 'node:crypto';
import { and, eq, isNull, ne, type WithSubquery } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { sessions, users } from '../../db/schema/index.ts';
import { days, hours, type Clock } from '../../lib/clock.ts';
import { deviceKey } from '../../lib/user-agent.ts';

/** A token lives 12 hours; the web app refreshes it when 180 minutes or less remain. */
export const TOKEN_LIFETIME_MS = hours(12);
/** No refresh can take a session past 30 days from its sign-in. */
export const SESSION_MAX_AGE_MS = days(30);

/**
 * Inserts a session row and returns it; `alongside` are writes (CTEs) that commit in the same
 * statement (sign-in's last_login_at, activity and released reservation: one round trip).
 */
export async function createSession(
  tx: Db | Tx,
  clock: Clock,
  userId: string,
  meta: { userAgent?: string | undefined; ip?: string | undefined },
  alongside: WithSubquery[] = [],
) {
  const now = clock.now();
  const [row] = await (alongside.length ? tx.with(...alongside) : tx)
    .insert(sessions)
    .values({
      user_id: userId,
      created_at: now,
      last_refreshed_at: now,
      token_jti: crypto.randomUUID(),
      expires_at: new Date(now.getTime() + SESSION_MAX_AGE_MS),
      user_agent: meta.userAgent?.slice(0, 300) ?? null,
      ip: meta.ip ?? null,
      device_key: deviceKey(meta.userAgent),
    })
    .returning();
  return row!;
}

/** When a token issued now for this session must expire. */
export function tokenExpiry(clock: Clock, sessionExpiresAt: Date): Date {
  return new Date(Math.min(clock.now().getTime() + TOKEN_LIFETIME_MS, sessionExpiresAt.getTime()));
}

/**
 * A token replaced by a refresh keeps working this long after the refresh, for requests sent
 * with it just before; then only the newest token of the session is accepted.
 */
export const REPLACED_TOKEN_GRACE_MS = 10_000;

export interface SessionWithUser {
  session: typeof sessions.$inferSelect;
  user: typeof users.$inferSelect;
}

/** A session row and its user's, whatever their state: one query. */
export async function loadSession(db: Db, sessionId: string): Promise<SessionWithUser | undefined> {
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.user_id))
    .where(eq(sessions.id, sessionId))
    .limit(1);
  return row;
}

/** What of a verified session token the session rules read. */
export interface SessionTokenClaims {
  sid: string;
  sub: string;
  jti: string | undefined;
  iat: number;
}

/**
 * Whether a verified token may use this session now: the session is the token's, not revoked
 * nor expired, the token is the session's current one, and the user may sign in.
 *
 * A token is current by identity: its `jti` is the session's `token_jti` (the newest token,
 * from the sign-in or the last refresh), or the `previous_jti` that refresh replaced, until
 * `previous_jti_until` (the grace). A session from before token identities (`token_jti` null)
 * keeps the old rule by time until its next refresh.
 */
export function isLive(
  { session, user }: SessionWithUser,
  token: SessionTokenClaims,
  now: Date,
): boolean {
  return (
    session.id === token.sid &&
    session.user_id === token.sub &&
    session.revoked_at === null &&
    session.expires_at.getTime() > now.getTime() &&
    isCurrentToken(session, token, now) &&
    user.deleted_at === null &&
    user.enabled
  );
}

function isCurrentToken(
  session: SessionWithUser['session'],
  token: SessionTokenClaims,
  now: Date,
): boolean {
  if (session.token_jti === null) {
    const refreshed = session.last_refreshed_at.getTime();
    return (
      refreshed < (token.iat + 1) * 1000 || refreshed > now.getTime() - REPLACED_TOKEN_GRACE_MS
    );
  }
  if (token.jti === undefined) return false;
  if (token.jti === session.token_jti) return true;
  return (
    token.jti === session.previous_jti &&
    session.previous_jti_until !== null &&
    session.previous_jti_until.getTime() > now.getTime()
  );
}

/** The session and its user, if the session is live for this token (read now, not cached). */
export async function findLiveSession(db: Db, clock: Clock, token: SessionTokenClaims) {
  const found = await loadSession(db, token.sid);
  return found && isLive(found, token, clock.now()) ? found : undefined;
}

/**
 * Marks a refresh: the token `replacedJti` keeps working for the grace, every other token of
 * the session but the new one (`newJti`, to be signed next) is retired at once. One statement,
 * so two refreshes at once leave one current token and one in its grace.
 */
export async function touchSession(
  db: Db | Tx,
  clock: Clock,
  sessionId: string,
  replacedJti: string | undefined,
  newJti: string,
) {
  const now = clock.now();
  await db
    .update(sessions)
    .set({
      last_refreshed_at: now,
      token_jti: newJti,
      previous_jti: replacedJti ?? null,
      previous_jti_until: new Date(now.getTime() + REPLACED_TOKEN_GRACE_MS),
    })
    .where(eq(sessions.id, sessionId));
}

export async function revokeSession(db: Db | Tx, clock: Clock, sessionId: string) {
  await db
    .update(sessions)
    .set({ revoked_at: clock.now() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revoked_at)));
}

/** Revoke every live session of a user, optionally keeping one (the caller's). */
export async function revokeUserSessions(
  db: Db | Tx,
  clock: Clock,
  userId: string,
  exceptSessionId?: string,
) {
  await db
    .update(sessions)
    .set({ revoked_at: clock.now() })
    .where(
      and(
        eq(sessions.user_id, userId),
        isNull(sessions.revoked_at),
        ...(exceptSessionId ? [ne(sessions.id, exceptSessionId)] : []),
      ),
    );
}
