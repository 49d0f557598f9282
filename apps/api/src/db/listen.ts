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
  /** Stops listening and closes the connection; no handler runs afterwards. */
  close(): Promise<void>;
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

export function listenPostgres(
  config: pg.ClientConfig,
  channel: string,
  handlers: ChannelHandlers,
  log: ListenerLogger,
  options: PostgresListenerOptions = {},
): ChannelListener {
  const settings = { ...DEFAULTS, ...options };
  let current: pg.Client | null = null;
  let closed = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const reconnectLater = (err: unknown) => {
    if (closed) return;
    if (failures % WARN_EVERY === 0) {
      log.warn({ err, failures }, 'database: notification listener lost its connection');
    }
    const pause = Math.min(settings.maxBackoffMs, settings.minBackoffMs * 2 ** failures);
    failures++;
    // Jitter, so the instances of a restarted database do not all knock at the same moment.
    retry = setTimeout(() => void connect(), pause * (0.5 + Math.random() / 2));
  };

  const connect = async () => {
    const client = new pg.Client({
      ...config,
      application_name: `${LISTENER_APPLICATION_NAME}:${process.pid}`,
      query_timeout: settings.pingTimeoutMs,
    });
    let ping: NodeJS.Timeout | undefined = undefined;
    let gone = false;
    const lose = (err?: unknown) => {
      if (gone) return;
      gone = true;
      clearInterval(ping);
      if (current === client) current = null;
      dropConnection(client);
      reconnectLater(err);
    };
    client.on('error', lose);
    client.on('end', () => lose(new Error('connection ended')));
    client.on('notification', (message) => {
      if (message.channel === channel && !closed) handlers.notify(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch (err) {
      lose(err);
      return;
    }
    if (closed || gone) {
      if (!gone) await client.end().catch(() => {});
      return;
    }
    current = client;
    if (failures > 0) log.info?.({ failures }, 'database: notification listener listening again');
    failures = 0;
    ping = setInterval(() => void client.query('select 1').catch(lose), settings.pingIntervalMs);
    ping.unref();
    markReady();
    handlers.listening();
  };

  void connect();
  return {
    ready,
    async close() {
      closed = true;
      clearTimeout(retry);
      const client = current;
      current = null;
      if (client) {
        // A polite goodbye, but never wait long for a database that does not answer.
        await Promise.race([client.end(), new Promise((r) => setTimeout(r, 1_000))]).catch(
          () => {},
        );
        dropConnection(client);
      }
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
