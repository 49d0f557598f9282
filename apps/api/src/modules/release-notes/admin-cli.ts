// `npm run admin -- grant <email> | revoke <email> | list`: the platform administrators, who
// manage the release notes, in the configured database (PGlite in DATA_DIR unless DATABASE_URL is
// set; migrated first). An unknown e-mail exits 1, a command that is not one exits 2.
import { loadConfig } from '../../config.ts';
import { withMigratedDatabase } from '../../db/open-cli.ts';
import { ADMIN_USAGE, parseAdminArgs, runAdminCommand } from './platform-admins.ts';

const command = parseAdminArgs(process.argv.slice(2));
if ('error' in command) {
  console.error(`${command.error}\n\n${ADMIN_USAGE}`);
  process.exit(2);
}

let exitCode = 0;
await withMigratedDatabase(loadConfig(), async (database) => {
  const { code, lines } = await runAdminCommand(database.db, command);
  (code === 0 ? console.log : console.error)(lines.join('\n'));
  exitCode = code;
});
process.exitCode = exitCode;
