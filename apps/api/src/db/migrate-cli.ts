// `npm run db:migrate`: apply the committed migrations to the configured database and exit.
import { loadConfig } from '../config.ts';
import { acquireDataDirLock } from '../lib/data-dir-lock.ts';
import { openDatabase } from './client.ts';

const config = loadConfig();
const lock = config.databaseUrl ? null : acquireDataDirLock(config.dataDir);
const database = await openDatabase(config);
try {
  await database.migrate();
  console.log(`Migrations applied (${database.engine}).`);
} finally {
  await database.close();
  lock?.release();
}
