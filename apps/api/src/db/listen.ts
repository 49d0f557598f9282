import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * LISTEN on a PostgreSQL NOTIFY channel, on either engine. On PostgreSQL a dedicated connection
 * (never one of the pool's: a pooled connection goes back to other work, and its LISTEN with it)
 * that outlives the database: it reconnects with backoff after a restart, a terminated backend or
 * a frozen server, and says so, since whatever was sent meanwhile is lost (decision 0008).
 */

export interface ChannelHandlers {
  /** A NOTIFY on the channel, with its payload. */
  notify(payload: string): void;
  /**
   * Listening began, or began again after the connection was lost: anything sent in between was
   * missed, so whoever relies on the channel catches up now.
   */
  listening(): void;
}

export interface ChannelListener {
  /** Resolves once the first LISTEN is in place; never rejects (failures are retried). */
  readonly ready: Promise<void>;
  /** Stops listening (and closes the connection if nobody else listens on it); no handler runs afterwards. */
  close(): Promise<void>;
  /** Drops the connection and listens again on a new one (PGlite: nothing to do). */
  reconnect(): void;
}

export interface ListenerLogger {
  warn(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
}

/** How the listener's connection is named in pg_stat_activity: `portolan-listener:<pid>`. */
export const LISTENER_APPLICATION_NAME = 'portolan-listener';

export interface PostgresListenerOptions {
  /** A live connection is checked this often (`select 1`): a frozen server sends no error. */
  pingIntervalMs?: number;
  /** The check, and any statement of the listener, gives up after this. */
  pingTimeoutMs?: number;
  /** The first pause before reconnecting; it doubles per failure up to maxBackoffMs. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

const DEFAULTS: Required<PostgresListenerOptions> = {
  pingIntervalMs: 30_000,
  pingTimeoutMs: 5_000,
  minBackoffMs: 200,
  maxBackoffMs: 5_000,
};

/** One warning at the start of an outage, then one per this many failed attempts. */
const WARN_EVERY = 30;

/**
 * One LISTEN connection for all of a process's channels (a process has several subscribers: the
 * session cache, the list caches, the bell's streams, the outbox), opened with the first
 * subscription and closed with the last. Every subscriber hears `listening()` each time the
 * connection (re)starts listening, since anything sent in between was missed.
 */
export interface PostgresListenerHub {
  listen(channel: string, handlers: ChannelHandlers): ChannelListener;
}

interface Subscription {
  channel: string;
  handlers: ChannelHandlers;
  markReady: () => void;
  ready: Promise<void>;
}

export function createPostgresListenerHub(
  config: pg.ClientConfig,
  log: ListenerLogger,
  options: PostgresListenerOptions = {},
): PostgresListenerHub {
  const settings = { ...DEFAULTS, ...options };
  const subscriptions = new Set<Subscription>();
  let current: pg.Client | null = null;
  /** A connection is being opened, or one is due after a pause: do not start another. */
  let connecting = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  let lose: ((err?: unknown) => void) | null = null;

  const channels = () => new Set([...subscriptions].map((sub) => sub.channel));
  const active = () => subscriptions.size > 0;

  const reconnectLater = (err: unknown) => {
    if (!active()) {
      connecting = false;
      return;
    }
    if (failures % WARN_EVERY === 0) {
      log.warn({ err, failures }, 'database: notification listener lost its connection');
    }
    const pause = Math.min(settings.maxBackoffMs, settings.minBackoffMs * 2 ** failures);
    failures++;
    connecting = true;
    // Jitter, so the instances of a restarted database do not all knock at the same moment.
    retry = setTimeout(() => void connect(), pause * (0.5 + Math.random() / 2));
  };

  const started = (sub: Subscription) => {
    sub.markReady();
    sub.handlers.listening();
  };

  const connect = async () => {
    connecting = true;
    const client = new pg.Client({
      ...config,
      application_name: `${LISTENER_APPLICATION_NAME}:${process.pid}`,
      query_timeout: settings.pingTimeoutMs,
    });
    let ping: NodeJS.Timeout | undefined = undefined;
    let gone = false;
    const loseThis = (err?: unknown) => {
      if (gone) return;
      gone = true;
      clearInterval(ping);
      if (current === client) {
        current = null;
        lose = null;
      }
      dropConnection(client);
      reconnectLater(err);
    };
    client.on('error', loseThis);
    client.on('end', () => loseThis(new Error('connection ended')));
    client.on('notification', (message) => {
      for (const sub of [...subscriptions]) {
        if (sub.channel === message.channel) sub.handlers.notify(message.payload ?? '');
      }
    });
    try {
      await client.connect();
      // A subscriber that comes while a LISTEN is on its way only joins the set (there is no
      // connection to use yet): listen again until every channel of the set is covered.
      const listened = new Set<string>();
      for (;;) {
        const missing = [...channels()].filter((c) => !listened.has(c));
        if (missing.length === 0) break;
        await client.query(missing.map((c) => `LISTEN ${client.escapeIdentifier(c)}`).join(';'));
        for (const c of missing) listened.add(c);
      }
    } catch (err) {
      loseThis(err);
      return;
    }
    if (gone) return;
    if (!active()) {
      gone = true;
      connecting = false;
      await client.end().catch(() => {});
      return;
    }
    current = client;
    lose = loseThis;
    connecting = false;
    if (failures > 0) log.info?.({ failures }, 'database: notification listener listening again');
    failures = 0;
    ping = setInterval(
      () => void client.query('select 1').catch(loseThis),
      settings.pingIntervalMs,
    );
    ping.unref();
    for (const sub of [...subscriptions]) started(sub);
  };

  const closeConnection = async () => {
    clearTimeout(retry);
    connecting = false;
    const client = current;
    current = null;
    lose = null;
    if (client) {
      // A polite goodbye, but never wait long for a database that does not answer.
      await Promise.race([client.end(), new Promise((r) => setTimeout(r, 1_000))]).catch(() => {});
      dropConnection(client);
    }
  };

  return {
    listen(channel, handlers) {
      let markReady!: () => void;
      const ready = new Promise<void>((resolve) => (markReady = resolve));
      const sub: Subscription = { channel, handlers, markReady, ready };
      const isNewChannel = !channels().has(channel);
      subscriptions.add(sub);
      const client = current;
      if (client) {
        // Listening already: add the channel, then this subscriber starts.
        const adding = isNewChannel
          ? client.query(`LISTEN ${client.escapeIdentifier(channel)}`)
          : Promise.resolve();
        adding.then(
          () => subscriptions.has(sub) && current === client && started(sub),
          (err: unknown) => lose?.(err),
        );
      } else if (!connecting) {
        void connect();
      }
      return {
        ready,
        async close() {
          if (!subscriptions.delete(sub)) return;
          if (!active()) await closeConnection();
          else if (!channels().has(channel) && current) {
            await current.query(`UNLISTEN ${current.escapeIdentifier(channel)}`).catch(() => {});
          }
        },
        reconnect() {
          // The database looked unreachable to someone else: this connection may be as dead,
          // without knowing it yet (a frozen server sends nothing). Listen again on a new one.
          lose?.(new Error('reconnecting: the database looked unreachable'));
        },
      };
    },
  };
}

/**
 * Ends a connection without waiting for the server: after a failed ping the server may be
 * frozen, and `end()` alone would wait for its reply for ever, holding the socket.
 */
function dropConnection(client: pg.Client): void {
  client.end().catch(() => {});
  (
    client as unknown as { connection?: { stream?: { destroy(): void } } }
  ).connection?.stream?.destroy();
}

/** PGlite delivers NOTIFY in process, at commit; it cannot lose a connection. */
export function listenPglite(
  client: PGlite,
  channel: string,
  handlers: ChannelHandlers,
): ChannelListener {
  let closed = false;
  const subscribed = client
    .listen(channel, (payload) => {
      if (!closed) handlers.notify(payload);
    })
    .then((unlisten) => {
      handlers.listening();
      return unlisten;
    });
  return {
    reconnect() {},
    ready: subscribed.then(
      () => {},
      () => {},
    ),
    async close() {
      closed = true;
      const unlisten = await subscribed.catch(() => null);
      if (unlisten && !client.closed) await unlisten().catch(() => {});
    },
  };
}
