// `npm run seed`: demo data in the configured database (PGlite in DATA_DIR unless DATABASE_URL is set).
import { loadConfig } from '../config.ts';
import { withMigratedDatabase } from '../db/open-cli.ts';
import {
  DEMO_ORGANIZATION,
  DEMO_OWNER,
  DEMO_PENDING_WORKSPACE,
  DEMO_STAFF,
  DEMO_WORKSPACES,
  seedDemo,
} from './demo.ts';

const config = loadConfig();
await withMigratedDatabase(config, async (database) => {
  const { created } = await seedDemo(database.db, config.appProfile);
  console.log(created ? 'Demo data created.' : 'Demo data already present; nothing changed.');
  console.log(
    `Organization "${DEMO_ORGANIZATION}" with workspaces: ${DEMO_WORKSPACES.join(', ')}.`,
  );
  console.log(
    `"${DEMO_PENDING_WORKSPACE}", made by a STAFF member, waits for the owner's approval.`,
  );
  console.log(`Sign in at ${config.publicUrl}/login as the owner or the staff member:`);
  console.log(`  ${DEMO_OWNER.email}  /  ${DEMO_OWNER.password}`);
  console.log(`  ${DEMO_STAFF.email}  /  ${DEMO_STAFF.password}`);
});
