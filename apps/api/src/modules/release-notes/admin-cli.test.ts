// engine-parity: the command opens the database itself, on each engine (test/support/cli.ts)
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { cliDatabase, runCli, type CliEnv } from '../../../test/support/cli.ts';
import { loadConfig } from '../../config.ts';
import { withMigratedDatabase } from '../../db/open-cli.ts';
import { createUser } from '../../seed/factories.ts';
import { parseAdminArgs, runAdminCommand } from './platform-admins.ts';

const CLI = path.resolve(import.meta.dirname, 'admin-cli.ts');

/** `npm run admin -- …`: grant, revoke and list the platform administrators. */
describe('the admin command', () => {
  it('parses grant, revoke and list, and says what is wrong with anything else', () => {
    expect(parseAdminArgs(['grant', ' Ada@Example.com '])).toEqual({
      command: 'grant',
      email: 'Ada@Example.com',
    });
    expect(parseAdminArgs(['revoke', 'a@b.c'])).toEqual({ command: 'revoke', email: 'a@b.c' });
    expect(parseAdminArgs(['list'])).toEqual({ command: 'list' });
    for (const argv of [
      [],
      ['promote', 'a@b.c'],
      ['grant'],
      ['grant', 'a@b.c', 'd@e.f'],
      ['grant', 'not-an-email'],
      ['revoke', ''],
      ['list', 'extra'],
    ]) {
      expect(parseAdminArgs(argv), argv.join(' ')).toHaveProperty('error');
    }
  });

  describe('on the database', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it('grants (by e-mail, any case), lists, revokes; an unknown e-mail is exit 1', async () => {
      const db = t.ctx.db;
      const user = await createUser(db, {
        email: 'grace.admin@example.com',
        first_name: 'Grace',
        last_name: 'Hopper',
      });
      expect(await runAdminCommand(db, { command: 'list' })).toEqual({
        code: 0,
        lines: ['No platform administrators yet.'],
      });
      expect(await runAdminCommand(db, { command: 'grant', email: 'nobody@example.com' })).toEqual({
        code: 1,
        lines: ['No account uses the e-mail nobody@example.com. The person must sign up first.'],
      });
      const granted = await runAdminCommand(db, {
        command: 'grant',
        email: 'GRACE.ADMIN@example.com',
      });
      expect(granted).toEqual({
        code: 0,
        lines: [`${user.email} (Grace Hopper) is now a platform administrator.`],
      });
      const again = await runAdminCommand(db, { command: 'grant', email: user.email });
      expect(again.lines[0]).toContain('already is a platform administrator; nothing changed');
      const list = await runAdminCommand(db, { command: 'list' });
      expect(list.lines[0]).toBe('Platform administrators (1):');
      expect(list.lines[1]).toMatch(
        /^ {2}grace\.admin@example\.com {2}Grace Hopper {2}since \d{4}-\d{2}-\d{2}$/,
      );
      expect(await runAdminCommand(db, { command: 'revoke', email: user.email })).toEqual({
        code: 0,
        lines: [`${user.email} (Grace Hopper) is no longer a platform administrator.`],
      });
      const twice = await runAdminCommand(db, { command: 'revoke', email: user.email });
      expect(twice.lines[0]).toContain('was not a platform administrator; nothing changed');
      expect((await runAdminCommand(db, { command: 'revoke', email: 'x@example.com' })).code).toBe(
        1,
      );
    });
  });

  describe('as a process', () => {
    let env: CliEnv;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      ({ env, cleanup } = await cliDatabase());
      // Someone to grant the role to, in the database the command will open.
      await withMigratedDatabase(loadConfig({ ...env, LOG_LEVEL: 'silent' }), async ({ db }) => {
        await createUser(db, { email: 'ops.lead@example.com', first_name: 'Olu' });
      });
    });
    afterAll(() => cleanup());

    const run = (...args: string[]) => runCli(CLI, env, args);

    it('grants, exits 1 for an unknown e-mail and 2 with the usage for a bad command', async () => {
      const bad = await run('promote', 'ops.lead@example.com');
      expect(bad.code).toBe(2);
      expect(bad.err).toContain('Unknown command "promote".');
      expect(bad.err).toContain('Usage: npm run admin -- <command>');

      const unknown = await run('grant', 'nobody@example.com');
      expect(unknown.code).toBe(1);
      expect(unknown.err).toContain('No account uses the e-mail nobody@example.com');

      const granted = await run('grant', 'ops.lead@example.com');
      expect(granted.code, granted.err).toBe(0);
      expect(granted.out).toContain(
        'ops.lead@example.com (Olu User) is now a platform administrator.',
      );
    }, 120_000);
  });
});
