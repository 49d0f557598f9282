import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { sessions, users } from '../../db/schema/index.ts';
import { days, hours, type Clock } from '../../lib/clock.ts';

/** A token lives 12 hours; the web app refreshes it when 180 minutes or less remain. */
export const TOKEN_LIFETIME_MS = hours(12);
/** No refresh can take a session past 30 days from its sign-in. */
export const SESSION_MAX_AGE_MS = days(30);

export async function createSession(
  tx: Db | Tx,
  clock: Clock,
  userId: string,
  meta: { userAgent?: string | undefined; ip?: string | undefined },
) {
  const now = clock.now();
  const [row] = await tx
    .insert(sessions)
    .values({
      user_id: userId,
      created_at: now,
      last_refreshed_at: now,
      expires_at: new Date(now.getTime() + SESSION_MAX_AGE_MS),
      user_agent: meta.userAgent?.slice(0, 300) ?? null,
      ip: meta.ip ?? null,
    })
    .returning();
  return row!;
}

/** When a token issued now for this session must expire. */
export function tokenExpiry(clock: Clock, sessionExpiresAt: Date): Date {
  return new Date(Math.min(clock.now().getTime() + TOKEN_LIFETIME_MS, sessionExpiresAt.getTime()));
}

/** The session and its user, if the session is live and the user may sign in: one query. */
export async function findLiveSession(db: Db, clock: Clock, sessionId: string, userId: string) {
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.user_id))
    .where(
      and(
        eq(sessions.id, sessionId),
        eq(sessions.user_id, userId),
        isNull(sessions.revoked_at),
        gt(sessions.expires_at, clock.now()),
        isNull(users.deleted_at),
        eq(users.enabled, true),
      ),
    )
    .limit(1);
  return row;
}

export async function touchSession(db: Db | Tx, clock: Clock, sessionId: string) {
  await db
    .update(sessions)
    .set({ last_refreshed_at: clock.now() })
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

export const liveSessionCount = (db: Db, userId: string) =>
  db
    .select({ n: sql<number>`count(*)::int` })
    .from(sessions)
    .where(and(eq(sessions.user_id, userId), isNull(sessions.revoked_at)))
    .then((r) => r[0]?.n ?? 0);
