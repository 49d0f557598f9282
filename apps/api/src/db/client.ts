import path from 'node:path';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { Readable } from 'node:stream';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { isDatabaseUnavailable, withTimeout } from '../lib/database-errors.ts';
import { createPostgresListenerHub, type ChannelHandlers, type ChannelListener } from './listen.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** The one database type the code sees, whichever engine is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle has the same query API as the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Engine = 'pglite' | 'postgres';

export interface Database {
  db: Db;
  engine: Engine;
  migrate(): Promise<void>;
  /** Answers or throws within PING_TIMEOUT_MS, whatever the database does. */
  ping(): Promise<void>;
  /** Where lost connections are reported (they never crash the process); stderr until set. */
  setLogger(log: DatabaseLogger): void;
  /**
   * LISTENs on a NOTIFY channel: PostgreSQL on a connection of its own that reconnects after
   * an outage; PGlite in process (db/listen.ts). Close the listener before the database.
   */
  listen(channel: string, handlers: ChannelHandlers): ChannelListener;
  /**
   * PostgreSQL only: the binary COPY of a query's rows (`COPY (query) TO STDOUT (FORMAT binary)`)
   * as the server sends it, on a pool connection held until the stream ends, with no statement
   * timeout (a slow reader makes a long statement). Destroying the stream drops the connection.
   * The query must be complete SQL: COPY takes no parameters.
   */
  copyOut?(query: string): Readable;
  /**
   * PostgreSQL only: `listener` hears the table of every INSERT, UPDATE or DELETE this process's
   * pool has run, once it has run (inside a transaction too, before it commits). Caches of this process
   * drop what they hold of the table at once, without waiting for the NOTIFY of another
   * connection (modules/auth/session-cache.ts). PGlite delivers NOTIFY in process at commit.
   */
  onWrite?(listener: (table: string, kind: WriteKind, values: readonly unknown[]) => void): void;
  /**
   * PostgreSQL only: `listener` hears every time a statement or the ping failed because the
   * database could not be reached (refused, lost or timed out). Caches stop trusting their
   * listener then: a frozen server leaves its connection open and silent.
   */
  onUnavailable?(listener: () => void): void;
  close(): Promise<void>;
}

/** The statement and table of an INSERT, UPDATE or DELETE as Drizzle writes it. */
const WRITTEN_TABLE = /^\s*(insert\s+into|update|delete\s+from)\s+"?([a-z_]+)"?/i;
/** Every write of a statement with data-modifying CTEs (`with "x" as (update "users" ...) ...`). */
const WRITTEN_TABLES = /\b(insert\s+into|update|delete\s+from)\s+"?([a-z_]+)"?/gi;

/** What a statement writes, as Drizzle writes it: its own write and those of its CTEs. */
function writesOf(text: string): { kind: WriteKind; table: string }[] {
  const matches = /^\s*with\b/i.test(text)
    ? [...text.matchAll(WRITTEN_TABLES)]
    : [WRITTEN_TABLE.exec(text)].filter((m) => m !== null);
  return matches.map((m) => ({
    kind: m[1]!.split(/\s/)[0]!.toLowerCase() as WriteKind,
    table: m[2]!,
  }));
}

export type WriteKind = 'insert' | 'update' | 'delete';

export interface DatabaseLogger {
  warn(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
}

/** The health check's ping gives up after this, so GET /v1/health answers within 2 seconds. */
export const PING_TIMEOUT_MS = 1_500;

export interface PostgresOptions {
  max?: number;
  /** A new connection (or a free one from a full pool) must come within this. */
  connectTimeoutMs?: number;
  /** PostgreSQL cancels a statement running longer than this (statement_timeout). */
  statementTimeoutMs?: number;
  log?: DatabaseLogger;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 2_000;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;

export const migrationsFolder = path.resolve(import.meta.dirname, 'migrations');

/** A stable key for the advisory lock that serialises migrations across instances. */
const MIGRATION_LOCK_KEY = 0x706f72746f; // "porto"

const stderrLogger: DatabaseLogger = {
  warn: (obj, msg) => console.error(msg, obj),
};

/**
 * PostgreSQL through a pg.Pool that survives the database going away (see
 * docs/decisions/0006-database-outages-and-timeouts.md): lost connections are logged, never
 * thrown; every failed connection is dropped from the pool, so once the database answers again
 * the next checkout opens a fresh one; and nothing waits longer than the timeouts below.
 */
export function openPostgres(url: string, options: PostgresOptions = {}): Database {
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  let log = options.log ?? stderrLogger;
  const base = {
    connectionString: url,
    connectionTimeoutMillis: connectTimeoutMs,
    keepAlive: true,
    fallback_application_name: 'portolan',
  } satisfies pg.ClientConfig;
  const pool = new pg.Pool({
    ...base,
    max: options.max ?? 10,
    // The server cancels slow statements (an ordinary, catchable error on a healthy connection)...
    statement_timeout: statementTimeoutMs,
    // ...and the client gives up on a server that does not answer at all, a little later.
    query_timeout: statementTimeoutMs + 1_000,
    // A transaction left open by a bug never holds its locks for long.
    idle_in_transaction_session_timeout: 60_000,
    // The planner's default prices a random read at 4 sequential ones (spinning disks): then 60
    // primary-key lookups cost more than reading a 10,000-row table whole, and lists of a user's
    // organizations scan it (npm run bench:scale). On SSDs, as any server today, 1.1 is right.
    options: '-c random_page_cost=1.1',
  });

  // A connection that dies (terminated backend, restart, failover) emits 'error' on its client;
  // without a listener EventEmitter throws it and the process ends. The pool listens only while
  // the client is idle (then removes it and re-emits on the pool), so every client gets a
  // listener of its own, for the time it is checked out too: each loss is logged once, here.
  pool.on('connect', (client) => {
    client.on('error', (err) => log.warn({ err }, 'database: connection lost'));
  });
  // The pool's re-emission of an idle client's error (already logged above): never thrown.
  pool.on('error', () => {});
  const writeListeners: ((table: string, kind: WriteKind, values: readonly unknown[]) => void)[] =
    [];
  const unavailableListeners: (() => void)[] = [];
  const unavailable = (err: unknown) => {
    if (isDatabaseUnavailable(err)) unavailableListeners.forEach((listener) => listener());
  };
  const observe = (statement: unknown, params: unknown, result: unknown) => {
    if (!(result instanceof Promise)) return;
    const text =
      typeof statement === 'string' ? statement : (statement as { text?: unknown } | null)?.text;
    const writes = writeListeners.length && typeof text === 'string' ? writesOf(text) : [];
    result.then(() => {
      if (writes.length === 0) return;
      const given = Array.isArray(params)
        ? params
        : ((statement as { values?: unknown[] } | null)?.values ?? []);
      for (const { table, kind } of writes) {
        writeListeners.forEach((listener) => listener(table, kind, given));
      }
    }, unavailable);
  };
  const poolQuery = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as { query: unknown }).query = (...args: unknown[]) => {
    const result = poolQuery(...args);
    observe(args[0], args[1], result);
    return result;
  };
  guardCheckouts(pool, observe);
  // One LISTEN connection for every channel of the process. Through the current logger, so
  // setLogger applies to a listener already running.
  const listeners = createPostgresListenerHub(base, {
    warn: (obj, msg) => log.warn(obj, msg),
    info: (obj, msg) => log.info?.(obj, msg),
  });

  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    engine: 'postgres',
    async migrate() {
      // A client of its own, without the statement timeouts: a migration may take long, and so
      // may waiting for another instance's (several instances may start at once on one database).
      const client = new pg.Client(base);
      client.on('error', (err) => log.warn({ err }, 'database: migration connection lost'));
      await client.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
        await client.end().catch(() => {});
      }
    },
    async ping() {
      await withTimeout(pool.query('select 1'), PING_TIMEOUT_MS).catch((err: unknown) => {
        unavailable(err);
        throw err;
      });
    },
    setLogger(next) {
      log = next;
    },
    // Through the current logger, so setLogger applies to a listener already running.
    listen: (channel, handlers) => listeners.listen(channel, handlers),
    copyOut: (query) => Readable.from(copyRows(base, query, () => log)),
    onWrite: (listener) => void writeListeners.push(listener),
    onUnavailable: (listener) => void unavailableListeners.push(listener),
    close: () => pool.end(),
  };
}

/**
 * A COPY on a connection of its own, without the pool's timeouts: a slow reader makes a long
 * statement, and pg's client-side query timeout cannot end with a COPY stream (it never calls back).
 */
async function* copyRows(
  config: pg.ClientConfig,
  query: string,
  log: () => DatabaseLogger,
): AsyncGenerator<Buffer> {
  const client = new pg.Client({ ...config, application_name: 'portolan:copy' });
  client.on('error', (err) => log().warn({ err }, 'database: copy connection lost'));
  await client.connect();
  try {
    yield* client.query(copyTo(`copy (${query}) to stdout (format binary)`));
  } finally {
    // Also when cut short (the reader went away): closing the connection ends the COPY.
    await client.end().catch(() => {});
  }
}

/**
 * Drizzle's transaction() checks a client out and sends `begin` before its try/finally: when
 * `begin` fails (the connection died a moment before, or the server does not answer) the client
 * is never released and the pool slowly fills with dead clients that outlive the outage. So a
 * checkout (the promise form of pool.connect, used by transactions and nothing else) whose first
 * statement fails is given back at once, later release() calls are ignored, and a client whose
 * connection failed or timed out during the checkout is destroyed rather than reused (its
 * transaction state is unknown).
 */
function guardCheckouts(
  pool: pg.Pool,
  observe: (statement: unknown, params: unknown, result: unknown) => void,
): void {
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  (pool as { connect: unknown }).connect = (...args: unknown[]) => {
    // The callback form is pool.query's own checkout, which already releases on every error.
    if (args.length > 0) return connect(...args);
    return (connect() as Promise<pg.PoolClient>).then((client) => guardCheckout(client, observe));
  };
}

function guardCheckout(
  client: pg.PoolClient,
  observe: (statement: unknown, params: unknown, result: unknown) => void,
): pg.PoolClient {
  const release = client.release;
  const query = client.query;
  let released = false;
  let broken: Error | undefined;
  let statements = 0;
  const guarded = (...args: unknown[]) => {
    const first = statements++ === 0;
    const result = (query as (...a: unknown[]) => unknown).apply(client, args);
    observe(args[0], args[1], result);
    if (result instanceof Promise) {
      result.catch((err: Error) => {
        if (isDatabaseUnavailable(err)) broken ??= err;
        if (first) client.release(err);
      });
    }
    return result;
  };
  client.query = guarded as typeof client.query;
  client.release = (err?: Error | boolean) => {
    if (released) return;
    released = true;
    // Back to the prototype's query for the next checkout.
    delete (client as { query?: unknown }).query;
    release(err || broken);
  };
  return client;
}

export async function openDatabase(config: {
  databaseUrl?: string | undefined;
  dataDir: string;
  databaseConnectTimeoutMs?: number;
  databaseStatementTimeoutMs?: number;
}): Promise<Database> {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, {
        connectTimeoutMs: config.databaseConnectTimeoutMs,
        statementTimeoutMs: config.databaseStatementTimeoutMs,
      })
    : // Loaded only here: PGlite (a WebAssembly PostgreSQL) weighs on every process that imports it.
      (await import('./pglite.ts')).openPglite(config.dataDir);
}
