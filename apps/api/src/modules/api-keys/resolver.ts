import { ErrorCode } from '@portolan/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { apiKeys, organizationMembers, organizations, users } from '../../db/schema/index.ts';
import { minutes, type Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { KeyOf } from '../access/index.ts';
import { hashApiKey } from './secret.ts';

/**
 * How long this instance trusts what it read of a key: a revocation (or the creator leaving) is
 * refused on every instance within this, without a notification (issue 21: within 1 s).
 */
export const KEY_TRUST_MS = 500;
/** "Last used" is kept to the minute: at most one write per key and instance this often. */
const USED_EVERY_MS = minutes(1);
/** Keys held at most; past it, everything is dropped (they reload on their next request). */
const MAX_HELD = 10_000;

type UserRow = typeof users.$inferSelect;
interface LiveKey {
  id: string;
  name: string;
  organizationId: string;
  permissions: string[];
  workspaceIds: string[] | null;
  expiresAt: Date | null;
  creator: UserRow;
}
interface Held {
  key: LiveKey | null;
  until: number;
}

/**
 * The key a `Bearer ptl_…` names, for the request kernel: one indexed query (the key, its live
 * creator, still a member of its live organization), trusted for KEY_TRUST_MS, so a busy key costs
 * no more than a session. Also counts each key's requests against API_KEY_RATE_LIMIT (per minute,
 * per instance) and records when and from where each key was last used, after the request.
 */
export class ApiKeyResolver {
  private readonly held = new Map<string, Held>();
  private readonly loading = new Map<string, Promise<LiveKey | null>>();
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly usedWritten = new Map<string, number>();
  private readonly pending = new Set<Promise<void>>();

  private readonly db: Db;
  private readonly clock: Clock;
  private readonly log: FastifyBaseLogger;
  private readonly perMinute: number;

  constructor(db: Db, clock: Clock, log: FastifyBaseLogger, perMinute: number) {
    this.db = db;
    this.clock = clock;
    this.log = log;
    this.perMinute = perMinute;
  }

  /** The kernel's `keyOf`. */
  readonly keyOf: KeyOf = async (_ctx, key, ip) => {
    const hash = hashApiKey(key);
    const live = await this.find(hash);
    const now = this.clock.now();
    if (!live || (live.expiresAt && live.expiresAt <= now)) return 'ended';
    this.count(live.id, now.getTime());
    this.used(live.id, ip, now);
    return {
      userId: live.creator.id,
      user: live.creator,
      apiKey: {
        id: live.id,
        name: live.name,
        organizationId: live.organizationId,
        permissions: live.permissions,
        workspaceIds: live.workspaceIds,
      },
    };
  };

  /** Drops what this instance holds of a key at once (its revocation here). */
  forget(keyHash: string): void {
    this.held.delete(keyHash);
  }

  /** Resolves when the "last used" writes already started have ended (closing the app). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  private async find(hash: string): Promise<LiveKey | null> {
    const now = Date.now();
    const held = this.held.get(hash);
    if (held && held.until > now) return held.key;
    let loading = this.loading.get(hash);
    if (!loading) {
      loading = this.load(hash).finally(() => this.loading.delete(hash));
      this.loading.set(hash, loading);
    }
    const key = await loading;
    if (this.held.size >= MAX_HELD) this.held.clear();
    this.held.set(hash, { key, until: Date.now() + KEY_TRUST_MS });
    return key;
  }

  private async load(hash: string): Promise<LiveKey | null> {
    const [row] = await this.db
      .select({ key: apiKeys, creator: users })
      .from(apiKeys)
      .innerJoin(
        users,
        and(eq(users.id, apiKeys.created_by), eq(users.enabled, true), isNull(users.deleted_at)),
      )
      .innerJoin(
        organizations,
        and(eq(organizations.id, apiKeys.organization_id), isNull(organizations.deleted_at)),
      )
      .innerJoin(
        organizationMembers,
        and(
          eq(organizationMembers.organization_id, apiKeys.organization_id),
          eq(organizationMembers.user_id, apiKeys.created_by),
          eq(organizationMembers.status, 'MEMBER'),
        ),
      )
      .where(and(eq(apiKeys.key_hash, hash), isNull(apiKeys.revoked_at)))
      .limit(1);
    if (!row) return null;
    return {
      id: row.key.id,
      name: row.key.name,
      organizationId: row.key.organization_id,
      permissions: row.key.permissions,
      workspaceIds: row.key.workspace_ids,
      expiresAt: row.key.expires_at,
      creator: row.creator,
    };
  }

  /** 429 past API_KEY_RATE_LIMIT requests of one key in the current minute (this instance's count). */
  private count(keyId: string, now: number): void {
    let window = this.windows.get(keyId);
    if (!window || now - window.start >= 60_000) {
      if (this.windows.size >= MAX_HELD) this.windows.clear();
      window = { start: now, count: 0 };
      this.windows.set(keyId, window);
    }
    window.count += 1;
    if (window.count > this.perMinute) {
      const retryAfterS = Math.ceil((window.start + 60_000 - now) / 1000);
      throw new AppError(
        ErrorCode.RATE_LIMITED,
        `This API key made more than ${this.perMinute} requests this minute. Try again in ${retryAfterS} seconds.`,
        { retry_after_s: retryAfterS },
      );
    }
  }

  /** Records the use after the request: one statement per key and minute, its failure only logged. */
  private used(keyId: string, ip: string, now: Date): void {
    const last = this.usedWritten.get(keyId);
    if (last !== undefined && now.getTime() - last < USED_EVERY_MS) return;
    if (this.usedWritten.size >= MAX_HELD) this.usedWritten.clear();
    this.usedWritten.set(keyId, now.getTime());
    const write = this.db
      .update(apiKeys)
      .set({ last_used_at: now, last_used_ip: ip })
      .where(
        and(
          eq(apiKeys.id, keyId),
          sql`(${apiKeys.last_used_at} is null or ${apiKeys.last_used_at} < ${now.toISOString()}::timestamptz)`,
        ),
      )
      .then(
        () => undefined,
        (err: unknown) => this.log.warn({ err, keyId }, 'could not record the use of an API key'),
      );
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
  }
}
