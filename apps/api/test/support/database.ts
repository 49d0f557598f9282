import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { openPostgres, type Database } from '../../src/db/client.ts';
import { pgliteDirOf, wrapPglite } from '../../src/db/pglite.ts';
import { withDatabase } from './global-setup-postgres.ts';

export const testEngine = (process.env.TEST_DB_ENGINE ?? 'pglite') as 'pglite' | 'postgres';

/**
 * A migrated database of the test file's own, on the engine of the running project. On
 * PostgreSQL `connectTimeoutMs` is how long a request may wait for one of the pool's 5
 * connections (the server's 2 s otherwise).
 */
export async function createTestDatabase(
  options: { connectTimeoutMs?: number } = {},
): Promise<Database> {
  if (testEngine === 'postgres') return createPostgresCopy(options);
  const tar = await fs.readFile(inject('pgliteSnapshot'));
  const client = await PGlite.create({ loadDataDir: new Blob([tar]) });
  return wrapPglite(client);
}

/**
 * Puts the migrated snapshot in place as `dataDir`'s embedded database (where openPglite looks),
 * for a test that starts a real server or command on that DATA_DIR: its first start then only
 * opens the database instead of creating and migrating it, most of such a test's time.
 */
export async function seedPgliteDataDir(dataDir: string): Promise<void> {
  const tar = await fs.readFile(inject('pgliteSnapshot'));
  await fs.mkdir(dataDir, { recursive: true });
  const client = await PGlite.create(pgliteDirOf(dataDir), { loadDataDir: new Blob([tar]) });
  await client.close();
}

/**
 * A migrated PostgreSQL database of its own (a copy of the template), for a test that also hands
 * its URL to a server process; `drop` waits for its connections to end, then drops it.
 */
export async function createPostgresDatabaseCopy(): Promise<{
  url: string;
  drop(): Promise<void>;
}> {
  const url = process.env.TEST_DATABASE_URL!;
  const name = `portolan_t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${inject('pgTemplateDb')}`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(url, name),
    async drop() {
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      // pg's pool.end() resolves once it has asked its connections to end, not when they have:
      // a forced drop would terminate those still closing (logged as lost connections).
      for (let i = 0; i < 40; i++) {
        const { rows } = await cleanup.query(
          'select count(*)::int as n from pg_stat_activity where datname = $1',
          [name],
        );
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await cleanup.query(`drop database if exists ${name} with (force)`).catch(() => {});
      await cleanup.end();
    },
  };
}

async function createPostgresCopy(options: { connectTimeoutMs?: number }): Promise<Database> {
  const copy = await createPostgresDatabaseCopy();
  const database = openPostgres(copy.url, { max: 5, ...options });
  return {
    ...database,
    async close() {
      await database.close();
      await copy.drop();
    },
  };
}
