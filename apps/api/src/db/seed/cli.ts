// `npm run seed`: demo data in the configured database (PGlite in DATA_DIR unless DATABASE_URL is set).
import { loadConfig } from '../../config.ts';
import { acquireDataDirLock, DataDirLockedError } from '../../lib/data-dir-lock.ts';
import { openDatabase } from '../client.ts';
import { DEMO_ORGANIZATION, DEMO_OWNER, DEMO_WORKSPACES, seedDemo } from './demo.ts';

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
  const { created } = await seedDemo(database.db, config.appProfile);
  console.log(created ? 'Demo data created.' : 'Demo data already present; nothing changed.');
  console.log(
    `Organization "${DEMO_ORGANIZATION}" with workspaces: ${DEMO_WORKSPACES.join(', ')}.`,
  );
  console.log(`Sign in at ${config.publicUrl}/login with:`);
  console.log(`  e-mail:   ${DEMO_OWNER.email}`);
  console.log(`  password: ${DEMO_OWNER.password}`);
} finally {
  await database.close();
  lock?.release();
}
