// The data of `npm run bench:scale` (scripts/bench-scale.ts runs this; it is not meant for people):
//   node bench-scale-cli.ts seed ORGANIZATIONS DEPTH   the scale world (seed/bench-scale.ts) in the
//                                                      configured database, unless its user is
//                                                      there already (a kept database); prints
//                                                      {"email","password","reused","seconds","rows"}
//   node bench-scale-cli.ts keep-database URL NAME     database NAME on URL's server, made if
//                                                      missing; prints {"name","url"}
//   node bench-scale-cli.ts trace URL...               each request's statements, timed, with the
//                                                      plans of the slowest (seed/bench-scale-trace.ts)
//                                                      against DATABASE_URL; prints {url: [...]}
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { withMigratedDatabase } from '../db/open-cli.ts';
import { users } from '../db/schema/index.ts';
import { countRows, SCALE_USER, seedScale } from './bench-scale.ts';
import { traceRequests } from './bench-scale-trace.ts';

/** The tables whose sizes the bench prints. */
const COUNTED = [
  'users',
  'organizations',
  'organization_members',
  'clients',
  'client_members',
  'invitations',
  'notifications',
  'activities',
  'invoices',
  'ledger_entries',
  'access_rules',
  'custom_roles',
  'share_links',
  'data_exports',
  'release_notes',
];

const [command, ...args] = process.argv.slice(2);

switch (command) {
  case 'seed': {
    const [organizations, depth] = args.map(Number);
    if (!Number.isInteger(organizations) || !Number.isInteger(depth))
      throw new Error('seed needs ORGANIZATIONS and DEPTH');
    // A million rows in one transaction: the driver's own timeout (the statement timeout's) is
    // raised to its most, a day, for this process only.
    const config = loadConfig({ ...process.env, DATABASE_STATEMENT_TIMEOUT_MS: '86400000' });
    await withMigratedDatabase(config, async (database) => {
      const db = database.db;
      const started = performance.now();
      const [there] = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, SCALE_USER.email));
      if (!there) {
        await seedScale(db, { organizations: organizations!, depth: depth! });
        // Fresh statistics, as autovacuum keeps them on a live database.
        await db.execute(sql`analyze`);
      }
      const seconds = (performance.now() - started) / 1000;
      const rows: Record<string, number> = {};
      for (const table of COUNTED) rows[table] = await countRows(db, table);
      console.log(JSON.stringify({ ...SCALE_USER, reused: Boolean(there), seconds, rows }));
    });
    break;
  }
  case 'keep-database': {
    const [url, name] = args;
    if (!url || !name || !/^portolan_bench_[a-z0-9_]+$/.test(name))
      throw new Error(`keep-database needs a server URL and a portolan_bench_… name`);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database ${name}`);
    await client.end();
    const kept = new URL(url);
    kept.pathname = `/${name}`;
    console.log(JSON.stringify({ name, url: kept.toString() }));
    break;
  }
  case 'trace': {
    const config = loadConfig();
    const database = await openDatabase(config);
    try {
      const traced = await traceRequests(config, database, args, { repeat: 7, explainTop: 2 });
      console.log(JSON.stringify(traced));
    } finally {
      await database.close();
    }
    break;
  }
  default:
    console.error(
      'usage: bench-scale-cli.ts seed ORGANIZATIONS DEPTH | keep-database URL NAME | trace URL...',
    );
    process.exit(2);
}
