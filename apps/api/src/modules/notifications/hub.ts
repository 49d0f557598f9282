/** One open bell: where a user's unseen count is pushed (stream.ts writes it as an SSE event). */
export interface Bell {
  sendCount(count: number): void;
  /** Ends the stream (the server is closing). */
  end(): void;
}

export interface HubLogger {
  warn(obj: object, msg: string): void;
}

/** After a failed count the users concerned are counted again this much later. */
const RETRY_MS = 2_000;

/**
 * The bells this server instance holds open, by user, and the fan-out to them. An announcement
 * (a NOTIFY whose payload is a user id, from any instance) costs one COUNT query for that user,
 * however many of their bells are open here; announcements arriving together are counted in one
 * query, and counts for a user are sent in the order they were read, so a bell never ends on a
 * stale number.
 */
export class BellHub {
  private readonly bells = new Map<string, Set<Bell>>();
  private readonly dirty = new Set<string>();
  private flushing = false;
  private failing = false;
  private retry: NodeJS.Timeout | undefined;
  private readonly retryIds = new Set<string>();
  /** Grows with every announcement: a bell opening compares it around its first count. */
  private announced = 0;

  private readonly countUnseenOf: (userIds: string[]) => Promise<Map<string, number>>;
  private readonly perUser: number;
  private readonly log: HubLogger;

  constructor(
    countUnseenOf: (userIds: string[]) => Promise<Map<string, number>>,
    perUser: number,
    log: HubLogger,
  ) {
    this.countUnseenOf = countUnseenOf;
    this.perUser = perUser;
    this.log = log;
  }

  get announcements(): number {
    return this.announced;
  }

  /** How many bells a user holds open here. */
  openFor(userId: string): number {
    return this.bells.get(userId)?.size ?? 0;
  }

  get size(): number {
    let n = 0;
    for (const set of this.bells.values()) n += set.size;
    return n;
  }

  /** Adds a bell unless the user already holds `perUser` of them here. */
  add(userId: string, bell: Bell): boolean {
    const set = this.bells.get(userId) ?? new Set<Bell>();
    if (set.size >= this.perUser) return false;
    set.add(bell);
    this.bells.set(userId, set);
    return true;
  }

  remove(userId: string, bell: Bell): void {
    const set = this.bells.get(userId);
    if (!set?.delete(bell)) return;
    if (set.size === 0) this.bells.delete(userId);
  }

  /** A user's notifications changed: their bells here get the new count. */
  announce(userId: string): void {
    this.announced++;
    if (this.bells.has(userId)) this.recount([userId]);
  }

  /** Announcements may have been missed (the listener was away): every bell gets its count. */
  announceAll(): void {
    this.announced++;
    this.recount([...this.bells.keys()]);
  }

  /** Counts these users again and sends the numbers to their bells. */
  recount(userIds: string[]): void {
    for (const id of userIds) this.dirty.add(id);
    if (this.flushing || this.dirty.size === 0) return;
    this.flushing = true;
    void this.flush();
  }

  /** Ends every bell (the server is closing) and forgets pending work. */
  endAll(): void {
    clearTimeout(this.retry);
    this.retry = undefined;
    this.retryIds.clear();
    this.dirty.clear();
    for (const set of this.bells.values()) for (const bell of set) bell.end();
    this.bells.clear();
  }

  private async flush(): Promise<void> {
    try {
      // Let announcements of the same moment (one transaction notifying several users, a burst)
      // gather, so they are counted in one query.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.dirty.size > 0) {
        const ids = [...this.dirty].filter((id) => this.bells.has(id));
        this.dirty.clear();
        if (ids.length === 0) break;
        let counts: Map<string, number>;
        try {
          counts = await this.countUnseenOf(ids);
        } catch (err) {
          this.countFailed(ids, err);
          continue;
        }
        this.failing = false;
        for (const id of ids) {
          const count = counts.get(id) ?? 0;
          for (const bell of this.bells.get(id) ?? []) bell.sendCount(count);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /** The database did not answer: try those users again a little later (logged once a run). */
  private countFailed(ids: string[], err: unknown): void {
    if (!this.failing) this.log.warn({ err }, 'notifications: could not count for open bells');
    this.failing = true;
    for (const id of ids) this.retryIds.add(id);
    if (this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      const again = [...this.retryIds];
      this.retryIds.clear();
      this.recount(again);
    }, RETRY_MS);
    this.retry.unref();
  }
}
