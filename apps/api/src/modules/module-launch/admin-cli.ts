// `npm run keys:rotate`: rotate the key that signs module launch tokens, in the configured
// database (PGlite in DATA_DIR unless DATABASE_URL is set; migrated first), sealing the new
// private key with the server's ENCRYPTION_KEY (or the one kept in DATA_DIR). Prints the new kid
// first. A command that is not one exits 2.
import { loadConfig } from '../../config.ts';
import { withMigratedDatabase } from '../../db/open-cli.ts';
import { systemClock } from '../../lib/clock.ts';
import { SecretBox } from '../../lib/secret-box.ts';
import { resolveEncryptionKey } from '../../lib/secrets.ts';
import { KEYS_USAGE, parseKeysArgs, runKeysCommand } from './keys-command.ts';

const command = parseKeysArgs(process.argv.slice(2));
if ('error' in command) {
  console.error(`${command.error}\n\n${KEYS_USAGE}`);
  process.exit(2);
}

const config = loadConfig();
const secretBox = new SecretBox(resolveEncryptionKey(config.encryptionKey, config.dataDir));
await withMigratedDatabase(config, async (database) => {
  console.log(
    (await runKeysCommand({ db: database.db, clock: systemClock, secretBox })).join('\n'),
  );
});
