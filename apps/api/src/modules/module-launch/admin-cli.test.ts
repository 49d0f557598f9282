// engine-parity: the command opens the database itself, on each engine (test/support/cli.ts)
import crypto from 'node:crypto';
import path from 'node:path';
import { isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliDatabase, runCli, type CliEnv } from '../../../test/support/cli.ts';
import { loadConfig } from '../../config.ts';
import { withMigratedDatabase } from '../../db/open-cli.ts';
import { signingKeys } from '../../db/schema/index.ts';
import { systemClock } from '../../lib/clock.ts';
import { SecretBox } from '../../lib/secret-box.ts';
import { parseKeysArgs } from './keys-command.ts';
import { ensureSigningKey } from './signing-keys.ts';

const CLI = path.resolve(import.meta.dirname, 'admin-cli.ts');

/** `npm run keys:rotate`: the command that rotates the key signing module launch tokens. */
describe('the keys command', () => {
  it('takes rotate and nothing else', () => {
    expect(parseKeysArgs(['rotate'])).toEqual({ command: 'rotate' });
    for (const argv of [[], ['rotate', 'now'], ['list'], ['Rotate']]) {
      expect(parseKeysArgs(argv), argv.join(' ')).toHaveProperty('error');
    }
  });

  describe('as a process', () => {
    const encryptionKey = crypto.randomBytes(32).toString('hex');
    let env: CliEnv;
    let cleanup: () => Promise<void>;
    const onDatabase = (body: Parameters<typeof withMigratedDatabase>[1]) =>
      withMigratedDatabase(loadConfig({ ...env, LOG_LEVEL: 'silent' }), body);

    beforeAll(async () => {
      ({ env, cleanup } = await cliDatabase({ ENCRYPTION_KEY: encryptionKey }));
      // The key a server made at its first start.
      await onDatabase(async ({ db }) => {
        await ensureSigningKey({ db, clock: systemClock, secretBox: new SecretBox(encryptionKey) });
      });
    });
    afterAll(() => cleanup());

    const run = (...args: string[]) => runCli(CLI, env, args);

    it('rotates, printing the new kid sealed with the server’s key; 2 with the usage otherwise', async () => {
      const bad = await run('rotate', 'now');
      expect(bad.code).toBe(2);
      expect(bad.err).toContain('Usage: npm run keys:rotate');

      const rotated = await run('rotate');
      expect(rotated.code, rotated.err).toBe(0);
      const kid = rotated.out.split('\n')[0]!;
      expect(kid).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(rotated.out).toContain('Retired ');
      await onDatabase(async ({ db }) => {
        const rows = await db.select().from(signingKeys);
        expect(rows).toHaveLength(2);
        const current = await db.select().from(signingKeys).where(isNull(signingKeys.retired_at));
        expect(current.map((r) => r.kid)).toEqual([kid]);
        // The servers open it with their ENCRYPTION_KEY.
        const jwk = JSON.parse(
          new SecretBox(encryptionKey).open(current[0]!.private_jwk, kid).toString(),
        );
        expect(jwk).toMatchObject({ kty: 'EC', crv: 'P-256' });
      });
    }, 120_000);
  });
});
