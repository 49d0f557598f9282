import type { Database, Db } from '../../db/client.ts';
import type { ChannelListener } from '../../db/listen.ts';
import type { Clock } from '../../lib/clock.ts';
import { isLive, loadSession, type SessionTokenClaims, type SessionWithUser } from './sessions.ts';

/** Where migration 0010's triggers announce every change of a session ('s:<id>') or user ('u:<id>'). */
export const AUTH_CHANNEL = 'portolan_auth';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Sessions held at most; the least recently used goes first. */
const MAX_ENTRIES = 20_000;

/**
 * The live sessions (with their users) this instance has seen, so that a signed-in request costs
 * no database round trip. Correct across instances because every change of a session or user row
 * is announced by a trigger on `portolan_auth` at commit, whatever made it (this instance, another,
 * a script): each instance drops what it holds of that row, within the notification's delay
 * (milliseconds; the bound is a second, tested in test/two-instances.test.ts).
 *
 * - While the listener is not listening (starting, or reconnecting after the database went away)
 *   nothing is cached: a change could go unannounced. When it listens again, all is dropped.
 * - A load that raced a notification (it began before the notification, so it may hold the row
 *   as it was) is not cached: every notification bumps `generation`.
 * - Read-your-writes within the instance: on PostgreSQL the notification comes on another
 *   connection, a little after the change's own answer, so the pool tells the cache of every
 *   UPDATE or DELETE of "sessions" or "users" it runs (Database.onWrite) and the cache drops
 *   what the statement names at once; PGlite delivers notifications in process at commit.
 * - Time-dependent rules (expiry, the refresh grace) are checked on every request (`isLive`).
 */
export class SessionCache {
  private readonly entries = new Map<string, SessionWithUser>();
  private readonly sessionsOfUser = new Map<string, Set<string>>();
  private generation = 0;
  private listening = false;
  private listener: ChannelListener | null = null;

  private readonly database: Database;
  private readonly db: Db;
  private readonly clock: Clock;

  constructor(database: Database, db: Db, clock: Clock) {
    this.database = database;
    this.db = db;
    this.clock = clock;
  }

  /** Starts listening; until then (and in tests that never start it) every lookup loads. */
  start(): void {
    // A new session or user changes nothing held; a changed or removed one may. The statement's
    // UUID parameters name what it changes (`where "id" = $1`, `where "user_id" = $1`): those
    // sessions and users go; a statement naming none (`where "email" = $1`) drops everything.
    this.database.onWrite?.((table, kind, values) => {
      if (kind === 'insert' || (table !== 'sessions' && table !== 'users')) return;
      const ids = values.filter((v): v is string => typeof v === 'string' && UUID.test(v));
      if (ids.length === 0) return this.clear();
      for (const id of ids) {
        this.forget(`s:${id}`);
        this.forget(`u:${id}`);
      }
    });
    this.listener = this.database.listen(AUTH_CHANNEL, {
      notify: (payload) => this.forget(payload),
      listening: () => {
        this.clear();
        this.listening = true;
      },
    });
    // The database could not be reached (a statement or the health ping failed): whatever was
    // sent meanwhile may be lost, and a frozen server keeps the listener's connection open and
    // silent. Hold nothing until the listener listens again on a new connection.
    this.database.onUnavailable?.(() => {
      if (!this.listening) return;
      this.listening = false;
      this.clear();
      this.listener?.reconnect();
    });
  }

  async stop(): Promise<void> {
    this.listening = false;
    this.clear();
    await this.listener?.close();
  }

  /** Resolves once the listener listens (from then on sessions are held). */
  get ready(): Promise<void> {
    return this.listener?.ready ?? Promise.resolve();
  }

  /** How many sessions are held (for tests and the health of the cache). */
  get size(): number {
    return this.entries.size;
  }

  /** The live session of a verified token and its user, or undefined. */
  async find(token: SessionTokenClaims) {
    const now = this.clock.now();
    const held = this.entries.get(token.sid);
    if (held) return isLive(held, token, now) ? held : undefined;
    const generation = this.generation;
    const found = await loadSession(this.db, token.sid);
    if (!found) return undefined;
    if (this.listening && generation === this.generation) this.hold(found);
    return isLive(found, token, now) ? found : undefined;
  }

  private hold(entry: SessionWithUser): void {
    if (this.entries.size >= MAX_ENTRIES) this.evictOldest();
    Object.freeze(entry.session);
    Object.freeze(entry.user);
    this.entries.set(entry.session.id, entry);
    const ids = this.sessionsOfUser.get(entry.user.id) ?? new Set<string>();
    ids.add(entry.session.id);
    this.sessionsOfUser.set(entry.user.id, ids);
  }

  private evictOldest(): void {
    const oldest = this.entries.keys().next();
    if (!oldest.done) this.drop(oldest.value);
  }

  private drop(sessionId: string): void {
    const entry = this.entries.get(sessionId);
    if (!entry) return;
    this.entries.delete(sessionId);
    const ids = this.sessionsOfUser.get(entry.user.id);
    ids?.delete(sessionId);
    if (ids?.size === 0) this.sessionsOfUser.delete(entry.user.id);
  }

  private forget(payload: string): void {
    this.generation++;
    const id = payload.slice(2);
    if (payload.startsWith('s:')) this.drop(id);
    else if (payload.startsWith('u:')) {
      for (const sessionId of [...(this.sessionsOfUser.get(id) ?? [])]) this.drop(sessionId);
    } else this.clear();
  }

  private clear(): void {
    this.generation++;
    this.entries.clear();
    this.sessionsOfUser.clear();
  }
}
