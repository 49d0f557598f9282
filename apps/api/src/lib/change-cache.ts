import type { Database } from '../db/client.ts';
import type { ChannelListener } from '../db/listen.ts';

export interface ChangeCacheOptions {
  /** The NOTIFY channel a trigger announces changes on (migrations 0010 and 0011). */
  channel: string;
  /** Tables whose INSERT, UPDATE or DELETE by this process drops everything at once (read-your-writes). */
  tables: readonly string[];
  /**
   * What a notification's payload invalidates: the key it names (a user id, say), or null for
   * everything.
   */
  keyOf(payload: string): string | null;
  /** Entries held at most; the oldest go first. */
  maxEntries: number;
  /** Bytes held at most (each entry's `size`); the oldest go first. */
  maxBytes?: number;
}

interface Entry<V> {
  value: V;
  size: number;
}

/**
 * Answers computed from the database, held in memory until the database says what they were
 * computed from has changed: a trigger announces every change on a channel, and each instance
 * drops what the change touches. The rules of the session cache (modules/auth/session-cache.ts):
 * nothing is held while the listener is not listening (a change could go unannounced), all is
 * dropped when it listens again, a load that raced a notification is not kept, and this process's
 * own INSERTs, UPDATEs and DELETEs of the tables drop everything at once (PostgreSQL sends the
 * notification on another connection, a moment after the change's own answer).
 *
 * Keys are grouped by the part before the first '|' (`<group>|<rest>`), and a notification drops
 * the group its payload names: a user's every page of a list, say.
 */
export class ChangeCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly groups = new Map<string, Set<string>>();
  private bytes = 0;
  private generation = 0;
  private listening = false;
  private listener: ChannelListener | null = null;
  private readonly database: Database;
  private readonly options: ChangeCacheOptions;

  constructor(database: Database, options: ChangeCacheOptions) {
    this.database = database;
    this.options = options;
  }

  start(): void {
    this.database.onWrite?.((table) => {
      if (this.options.tables.includes(table)) this.clear();
    });
    this.listener = this.database.listen(this.options.channel, {
      notify: (payload) => {
        const group = this.options.keyOf(payload);
        if (group === null) this.clear();
        else this.dropGroup(group);
      },
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

  /** Resolves once the listener listens (from then on answers are held). */
  get ready(): Promise<void> {
    return this.listener?.ready ?? Promise.resolve();
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The held answer for `key`, else `load()`'s (held unless a change raced it). `sizeOf` gives
   * an answer's weight against maxBytes.
   */
  async get(key: string, load: () => Promise<V>, sizeOf: (value: V) => number = () => 1) {
    const held = this.entries.get(key);
    if (held) return held.value;
    const generation = this.generation;
    const value = await load();
    if (this.listening && generation === this.generation) this.hold(key, value, sizeOf(value));
    return value;
  }

  private hold(key: string, value: V, size: number): void {
    const { maxEntries, maxBytes = Infinity } = this.options;
    if (size > maxBytes) return;
    this.drop(key);
    while (this.entries.size >= maxEntries || this.bytes + size > maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.drop(oldest.value);
    }
    this.entries.set(key, { value, size });
    this.bytes += size;
    const group = groupOf(key);
    const keys = this.groups.get(group) ?? new Set<string>();
    keys.add(key);
    this.groups.set(group, keys);
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.size;
    const group = groupOf(key);
    const keys = this.groups.get(group);
    keys?.delete(key);
    if (keys?.size === 0) this.groups.delete(group);
  }

  private dropGroup(group: string): void {
    this.generation++;
    for (const key of [...(this.groups.get(group) ?? [])]) this.drop(key);
  }

  private clear(): void {
    this.generation++;
    this.entries.clear();
    this.groups.clear();
    this.bytes = 0;
  }
}

const groupOf = (key: string) => {
  const bar = key.indexOf('|');
  return bar === -1 ? key : key.slice(0, bar);
};
