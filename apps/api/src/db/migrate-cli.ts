// `npm run db:migrate`: apply the committed migrations to the configured database and exit.
import { loadConfig } from '../config.ts';
import { acquireDataDirLock, DataDirLockedError } from '../lib/data-dir-lock.ts';
import { openDatabase } from './client.ts';

const config = loadConfig();
let lock: ReturnType<typeof acquireDataDirLock> | null = null;
try {
  lock = config.databaseUrl ? null : acquireDataDirLock(config.dataDir);
} catch (err) {
  // The server holds the embedded database: say so plainly instead of a stack trace.
  console.error(err instanceof DataDirLockedError ? err.message : err);
  process.exit(2);
}
const database = await openDatabase(config);
try {
  await database.migrate();
  console.log(`Migrations applied (${database.engine}).`);
} finally {
  await database.close();
  lock?.release();
}
