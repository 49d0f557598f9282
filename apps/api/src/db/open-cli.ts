import type { AppConfig } from '../config.ts';
import { acquireDataDirLock, DataDirLockedError } from '../lib/data-dir-lock.ts';
import { openDatabase, type Database } from './client.ts';

/**
 * For command-line tools (migrate, seed): open the configured database, migrated, under the
 * DATA_DIR lock when it is the embedded one; run `body`; close. A running server holding the
 * lock is reported plainly (exit 1), not as a stack trace.
 */
export async function withMigratedDatabase(
  config: AppConfig,
  body: (database: Database) => Promise<void>,
): Promise<void> {
  let lock: ReturnType<typeof acquireDataDirLock> | null = null;
  try {
    lock = config.databaseUrl ? null : acquireDataDirLock(config.dataDir);
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    console.error(
      `The embedded database in ${config.dataDir} is in use by a running Portolan server (pid ${err.pid}).\n` +
        'Stop the server first, or run it with the server stopped.',
    );
    process.exit(1);
  }
  const database = await openDatabase(config);
  try {
    await database.migrate();
    await body(database);
  } finally {
    await database.close();
    lock?.release();
  }
}
