import {
  type AccountSession,
  type SessionListQuery,
  type SessionListResponse,
} from '@portolan/contract';
import { and, count, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { sessionActivity, sessions } from '../../db/schema/index.ts';
import { notFound } from '../../lib/errors.ts';
import { pageFromRows, rowsOf, windowTotal } from '../../lib/pagination.ts';
import { TOKEN_LIFETIME_MS } from './sessions.ts';
import { describeUserAgent } from '../../lib/user-agent.ts';
import { recordSecurityEvent, type RequestOrigin } from '../security-log/index.ts';

/** The caller of the sessions calls: whose account, and through which session it asks. */
export interface SessionCaller {
  userId: string;
  sessionId: string;
}

/**
 * The conditions of a session that can still be used: not revoked, not past its 30 days, and its
 * newest token not expired (a token is refreshed only while it is valid: a session idle past
 * its token's 12 hours has ended).
 */
function liveSessionsOf(userId: string, now: Date) {
  return and(
    eq(sessions.user_id, userId),
    isNull(sessions.revoked_at),
    gt(sessions.expires_at, now),
    gt(sessions.last_refreshed_at, new Date(now.getTime() - TOKEN_LIFETIME_MS)),
  );
}

/** The account's live sessions, the most recently active first. */
export async function listSessions(
  ctx: AppContext,
  caller: SessionCaller,
  query: SessionListQuery,
): Promise<SessionListResponse> {
  const now = ctx.clock.now();
  const live = liveSessionsOf(caller.userId, now);
  const lastActive = sql<Date>`greatest(${sessions.created_at}, ${sessions.last_refreshed_at}, ${sessionActivity.last_active_at})`;
  const rows = await ctx.db
    .select({
      id: sessions.id,
      user_agent: sessions.user_agent,
      ip: sessions.ip,
      created_at: sessions.created_at,
      expires_at: sessions.expires_at,
      last_active_at: lastActive.mapWith(sessions.created_at),
      total: windowTotal,
    })
    .from(sessions)
    .leftJoin(sessionActivity, eq(sessionActivity.session_id, sessions.id))
    .where(live)
    .orderBy(desc(lastActive), desc(sessions.id))
    .limit(rowsOf(query).limit)
    .offset(rowsOf(query).offset);
  return pageFromRows(
    query,
    rows,
    (row): AccountSession => ({
      id: row.id,
      ...describeUserAgent(row.user_agent),
      ip: row.ip,
      created_at: row.created_at.toISOString(),
      last_active_at: row.last_active_at.toISOString(),
      expires_at: row.expires_at.toISOString(),
      current: row.id === caller.sessionId,
    }),
    () => countLive(ctx.db, caller.userId, now),
  );
}

async function countLive(db: Db, userId: string, now: Date): Promise<number> {
  const [row] = await db.select({ n: count() }).from(sessions).where(liveSessionsOf(userId, now));
  return row?.n ?? 0;
}

/**
 * Ends one of the account's live sessions (the caller's own too: that is signing out). Another
 * account's session, an ended one or an unknown id: 404, the same answer for each.
 */
export async function revokeAccountSession(
  ctx: AppContext,
  caller: SessionCaller,
  sessionId: string,
  origin: RequestOrigin,
): Promise<{ detail: string }> {
  const revoked = await ctx.db
    .update(sessions)
    .set({ revoked_at: ctx.clock.now() })
    .where(and(eq(sessions.id, sessionId), liveSessionsOf(caller.userId, ctx.clock.now())))
    .returning({ id: sessions.id });
  if (revoked.length === 0) {
    throw notFound('No such session of yours is open.');
  }
  await recordSecurityEvent(ctx.db, {
    userId: caller.userId,
    kind: 'session_revoked',
    at: ctx.clock.now(),
    ...origin,
  });
  return {
    detail: sessionId === caller.sessionId ? 'Signed out.' : 'The session was signed out.',
  };
}

/** Ends every live session of the account but the caller's. */
export async function revokeOtherSessions(
  ctx: AppContext,
  caller: SessionCaller,
  origin: RequestOrigin,
): Promise<{ detail: string; revoked: number }> {
  const revoked = await ctx.db
    .update(sessions)
    .set({ revoked_at: ctx.clock.now() })
    .where(and(liveSessionsOf(caller.userId, ctx.clock.now()), ne(sessions.id, caller.sessionId)))
    .returning({ id: sessions.id });
  const n = revoked.length;
  if (n > 0) {
    await recordSecurityEvent(ctx.db, {
      userId: caller.userId,
      kind: 'sessions_revoked',
      at: ctx.clock.now(),
      ...origin,
    });
  }
  return {
    detail:
      n === 0
        ? 'No other session was open.'
        : `${n} other session${n === 1 ? '' : 's'} signed out.`,
    revoked: n,
  };
}
