// `npm run db:migrate`: apply the committed migrations to the configured database and exit.
import { loadConfig } from '../config.ts';
import { withMigratedDatabase } from './open-cli.ts';

await withMigratedDatabase(loadConfig(), async (database) => {
  console.log(`Migrations applied (${database.engine}).`);
});
