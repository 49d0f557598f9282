// `npm run seed`: demo data in the configured database (PGlite in DATA_DIR unless DATABASE_URL is set).
import { loadConfig } from '../config.ts';
import { withMigratedDatabase } from '../db/open-cli.ts';
import { DEMO_ORGANIZATION, DEMO_OWNER, DEMO_WORKSPACES, seedDemo } from './demo.ts';

const config = loadConfig();
await withMigratedDatabase(config, async (database) => {
  const { created } = await seedDemo(database.db, config.appProfile);
  console.log(created ? 'Demo data created.' : 'Demo data already present; nothing changed.');
  console.log(
    `Organization "${DEMO_ORGANIZATION}" with workspaces: ${DEMO_WORKSPACES.join(', ')}.`,
  );
  console.log(`Sign in at ${config.publicUrl}/login with:`);
  console.log(`  e-mail:   ${DEMO_OWNER.email}`);
  console.log(`  password: ${DEMO_OWNER.password}`);
});
