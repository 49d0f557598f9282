import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { sessionActivity, userActivity } from '../../db/schema/index.ts';
import { minutes, type Clock } from '../../lib/clock.ts';

/** "Last active" is kept to this resolution: at most one write per session this often. */
export const LAST_ACTIVE_EVERY_MS = minutes(5);

/** Sessions remembered by one process at most; past it, the oldest half is forgotten. */
const MAX_REMEMBERED = 50_000;

/** Who made a signed-in request: the user, through which session. */
export interface SeenCaller {
  userId: string;
  sessionId: string;
}

/**
 * Records when each user makes a signed-in request (`user_activity`, the members lists' "Last
 * active") and through which session (`session_activity`, the account's sessions list) without
 * costing the request anything: `seen` returns at once; the write (one statement for both rows)
 * runs after, and its failure is only logged. Each process remembers when it last wrote for a
 * session and writes again only 5 minutes later, so most requests make no statement; the write
 * changes a row only when its stored time is 5 minutes old, so several processes write little more.
 */
export class LastActive {
  private readonly written = new Map<string, number>();
  private readonly pending = new Set<Promise<void>>();
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly log: FastifyBaseLogger;

  constructor(db: Db, clock: Clock, log: FastifyBaseLogger) {
    this.db = db;
    this.clock = clock;
    this.log = log;
  }

  /** The caller made an authenticated request now. */
  seen(caller: SeenCaller): void {
    const now = this.clock.now();
    const last = this.written.get(caller.sessionId);
    if (last !== undefined && now.getTime() - last < LAST_ACTIVE_EVERY_MS) return;
    if (this.written.size >= MAX_REMEMBERED) this.forgetOldest();
    this.written.delete(caller.sessionId); // re-inserted last: the map stays in write order
    this.written.set(caller.sessionId, now.getTime());
    const write = this.write(caller, now)
      .catch((err: unknown) =>
        this.log.warn({ err, userId: caller.userId }, 'could not record last activity'),
      )
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  /** Resolves when every write begun so far has ended (shutdown, tests). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private async write(caller: SeenCaller, now: Date): Promise<void> {
    const stale = new Date(now.getTime() - LAST_ACTIVE_EVERY_MS);
    const user = this.db.$with('user_seen').as(
      this.db
        .insert(userActivity)
        .values({ user_id: caller.userId, last_active_at: now })
        .onConflictDoUpdate({
          target: userActivity.user_id,
          set: { last_active_at: now },
          setWhere: sql`${userActivity.last_active_at} < ${stale}`,
        })
        .returning({ user_id: userActivity.user_id }),
    );
    await this.db
      .with(user)
      .insert(sessionActivity)
      .values({ session_id: caller.sessionId, last_active_at: now })
      .onConflictDoUpdate({
        target: sessionActivity.session_id,
        set: { last_active_at: now },
        setWhere: sql`${sessionActivity.last_active_at} < ${stale}`,
      });
  }

  private forgetOldest(): void {
    let n = this.written.size / 2;
    for (const key of this.written.keys()) {
      if (n-- <= 0) break;
      this.written.delete(key);
    }
  }
}
