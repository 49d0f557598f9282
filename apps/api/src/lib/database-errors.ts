import { ErrorCode } from '@portolan/contract';
import { errorAnswer } from './errors.ts';

/**
 * Failures that mean "the database cannot be reached right now" rather than "this request is
 * wrong": they answer 503 SERVICE_UNAVAILABLE (plugins/errors.ts) and go away by themselves once
 * the database is back (the pool opens new connections on the next checkout).
 */

/** Thrown by our own timeouts around database work (the health ping). */
export class DatabaseTimeoutError extends Error {
  readonly code = 'DATABASE_TIMEOUT';
  constructor(message = 'The database did not answer in time.') {
    super(message);
    this.name = 'DatabaseTimeoutError';
  }
}

/** Socket-level errors of Node on the way to the database. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ENOTFOUND',
  'DATABASE_TIMEOUT',
]);

/** SQLSTATEs of PostgreSQL that mean the server (not the statement) is the problem. */
function isUnavailableSqlState(code: string): boolean {
  return (
    code.startsWith('08') || // connection_exception and its subclasses
    /^57P0\d$/.test(code) || // admin_shutdown, crash_shutdown, cannot_connect_now, database_dropped
    code === '53300' || // too_many_connections
    code === '57014' || // query_canceled: statement_timeout fired (the database is overloaded or locked)
    code === '25006' // read_only_sql_transaction: connected to a standby during a failover
  );
}

/** Errors of pg and pg-pool that carry no code, recognised by their (stable) messages. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/, // unexpectedly | due to connection timeout
  /^timeout exceeded when trying to connect/, // pool checkout waited connectionTimeoutMillis
  /^Query read timeout/, // query_timeout: the server sent no answer
  /is not queryable/, // a client whose connection already failed
  /^timeout expired$/, // client connect timeout
  /^PGlite is closed/, // the embedded database during shutdown
];

export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (depth > 5 || typeof err !== 'object' || err === null) return false;
  const { code, message, cause, errors } = err as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || isUnavailableSqlState(code))) {
    return true;
  }
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(message))) {
    return true;
  }
  // Drizzle wraps driver errors (DrizzleQueryError.cause); connecting to several addresses
  // fails with an AggregateError.
  if (cause !== undefined && isDatabaseUnavailable(cause, depth + 1)) return true;
  if (Array.isArray(errors)) return errors.some((e) => isDatabaseUnavailable(e, depth + 1));
  return false;
}

export const SERVICE_UNAVAILABLE = errorAnswer(
  ErrorCode.SERVICE_UNAVAILABLE,
  'The service is temporarily unavailable. Please try again in a moment.',
);

/** Resolves or rejects like `work`, but rejects with DatabaseTimeoutError after `ms`. */
export function withTimeout<T>(work: Promise<T>, ms: number, what = 'The database'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DatabaseTimeoutError(`${what} did not answer within ${ms} ms.`)),
      ms,
    );
  });
  // The loser of the race must not become an unhandled rejection.
  work.catch(() => {});
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** PostgreSQL's unique_violation (23505), whichever driver reports it (Drizzle wraps it in `cause`). */
export const isUniqueViolation = (err: unknown): boolean =>
  (err as { code?: string }).code === '23505' ||
  (err as { cause?: { code?: string } }).cause?.code === '23505';
