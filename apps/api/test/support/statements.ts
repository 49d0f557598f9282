import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import type { Database } from '../../src/db/client.ts';

export interface StatementLog {
  /** The SQL text of every statement sent since the last reset, in order. */
  readonly statements: string[];
  reset(): void;
  /** Puts the driver back as it was. */
  restore(): void;
}

const textOf = (query: unknown): string =>
  typeof query === 'string' ? query : String((query as { text?: string })?.text ?? query);

/**
 * Records every statement the app sends through a test database, by wrapping the driver under
 * Drizzle (the pg pool, or the PGlite instance) rather than any code of ours: whatever a request
 * runs (authentication, the access layer, the service) is counted, transactions included.
 */
export function observeStatements(database: Database): StatementLog {
  const client = (database.db as unknown as { $client: unknown }).$client;
  const statements: string[] = [];
  const restores: (() => void)[] = [];

  /** Replaces `target[name]` with a recording version, as an own property removed on restore. */
  const record = <T extends object>(target: T, name: keyof T & string) => {
    const original = target[name] as (...args: unknown[]) => unknown;
    (target as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
      statements.push(textOf(args[0]));
      return original.apply(this, args);
    };
    return () => {
      delete (target as Record<string, unknown>)[name];
      if (target[name] !== original) (target as Record<string, unknown>)[name] = original;
    };
  };

  if (database.engine === 'postgres') {
    const pool = client as pg.Pool;
    restores.push(record(pool, 'query'));
    // Transactions check a client out (the promise form of connect) and query it directly.
    const connect = pool.connect;
    pool.connect = function (this: pg.Pool, ...args: unknown[]) {
      if (args.length > 0) return (connect as (...a: unknown[]) => unknown).apply(this, args);
      return (connect as unknown as () => Promise<pg.PoolClient>).call(this).then((checkedOut) => {
        const query = checkedOut.query;
        checkedOut.query = function (this: unknown, ...a: unknown[]) {
          statements.push(textOf(a[0]));
          return (query as (...b: unknown[]) => unknown).apply(checkedOut, a);
        } as typeof checkedOut.query;
        return checkedOut;
      });
    } as typeof pool.connect;
    restores.push(() => {
      pool.connect = connect;
    });
  } else {
    const lite = client as PGlite;
    restores.push(record(lite, 'query'), record(lite, 'exec'));
    const transaction = lite.transaction;
    lite.transaction = function <T>(this: PGlite, callback: (tx: Transaction) => Promise<T>) {
      return transaction.call(this, (tx: Transaction) => {
        record(tx, 'query');
        record(tx, 'exec');
        return callback(tx);
      }) as Promise<T>;
    } as typeof lite.transaction;
    restores.push(() => {
      lite.transaction = transaction;
    });
  }

  return {
    statements,
    reset: () => void statements.splice(0),
    restore: () => restores.reverse().forEach((undo) => undo()),
  };
}
