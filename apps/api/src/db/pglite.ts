// The embedded database (PGlite, PostgreSQL compiled to WebAssembly) behind the Database
// interface of client.ts; imported only when no DATABASE_URL is set, and by tests.
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { withTimeout } from '../lib/database-errors.ts';
import { migrationsFolder, PING_TIMEOUT_MS, type Database, type Db } from './client.ts';
import { listenPglite } from './listen.ts';
import * as schema from './schema/index.ts';

export function wrapPglite(client: PGlite): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    engine: 'pglite',
    migrate: () => migratePglite(drizzlePglite(client, { schema }), { migrationsFolder }),
    async ping() {
      // In-process, it cannot lose a connection; but a long statement ahead in its queue can delay
      // the ping.
      await withTimeout(db.execute(sql`select 1`), PING_TIMEOUT_MS);
    },
    setLogger() {},
    listen: (channel, handlers) => listenPglite(client, channel, handlers),
    // Closing twice is harmless (PGlite itself throws "PGlite is closed").
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

/** PGlite keeps its files in DATA_DIR/pglite; the caller must hold the DATA_DIR lock. */
/** Where the embedded database lives inside DATA_DIR. */
export const pgliteDirOf = (dataDir: string) => path.join(dataDir, 'pglite');

export async function openPglite(dataDir: string): Promise<Database> {
  const client = await PGlite.create(pgliteDirOf(dataDir));
  return wrapPglite(client);
}
