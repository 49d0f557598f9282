import type { AppConfig } from '../config.ts';
import { acquireDataDirLock, DataDirLockedError } from '../lib/data-dir-lock.ts';
import { openDatabase, type Database } from './client.ts';

/**
 * For command-line tools (migrate, seed): open the configured database, migrated, under the
 * DATA_DIR lock when it is the embedded one; run `body`; close. A running server holding the
 * lock is reported plainly (exit 2), not as a stack trace.
 */
export async function withMigratedDatabase(
  config: AppConfig,
  body: (database: Database) => Promise<void>,
): Promise<void> {
  let lock: ReturnType<typeof acquireDataDirLock> | null = null;
  try {
    lock = config.databaseUrl ? null : acquireDataDirLock(config.dataDir);
  } catch (err) {
    console.error(err instanceof DataDirLockedError ? err.message : err);
    process.exit(2);
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
