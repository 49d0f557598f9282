// The data of `npm run bench` (scripts/bench.ts runs this; it is not meant for people):
//   node bench-cli.ts seed                  the bench tenants and BENCH_SIGN_INS sign-in accounts
//                                           in the configured database (DATABASE_URL, else PGlite
//                                           in DATA_DIR); prints {"email","password","signIns":
//                                           {"emails","password"}} as one JSON line
//   node bench-cli.ts seed-activities N     an owner, an organization and N activities of it (the
//                                           audit export bench); prints {"email","password",
//                                           "organizationId"} as one JSON line
//   node bench-cli.ts create-database URL   a fresh, empty database on the PostgreSQL server of URL;
//                                           prints {"name","url"} as one JSON line
//   node bench-cli.ts drop-database URL DB  drops database DB (made by create-database) of URL's server
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { loadConfig } from '../config.ts';
import { withMigratedDatabase } from '../db/open-cli.ts';
import { seedBenchSignIns, seedBenchTenants, seedExportActivities } from './bench.ts';

const [command, url] = process.argv.slice(2);

const adminClient = async (of: string) => {
  const client = new pg.Client({ connectionString: of });
  await client.connect();
  return client;
};

switch (command) {
  case 'seed': {
    const config = loadConfig();
    await withMigratedDatabase(config, async (database) => {
      const who = await seedBenchTenants(database.db, {
        organizations: Number(process.env.BENCH_ORGANIZATIONS ?? 250),
        workspaces: Number(process.env.BENCH_WORKSPACES ?? 10),
        appProfile: config.appProfile,
      });
      const signIns = await seedBenchSignIns(database.db, Number(process.env.BENCH_SIGN_INS ?? 1));
      // Fresh statistics, as autovacuum keeps them on a live database (it would analyze tables
      // this changed only a little later).
      await database.db.execute(sql`analyze`);
      console.log(JSON.stringify({ ...who, signIns }));
    });
    break;
  }
  case 'seed-activities': {
    const config = loadConfig();
    const count = Number(url);
    if (!Number.isInteger(count) || count < 1) throw new Error('seed-activities needs a count');
    await withMigratedDatabase(config, async (database) => {
      const who = await seedExportActivities(database.db, count);
      await database.db.execute(sql`analyze`);
      console.log(JSON.stringify(who));
    });
    break;
  }
  case 'create-database': {
    const name = `portolan_bench_${crypto.randomBytes(4).toString('hex')}`;
    const client = await adminClient(url!);
    await client.query(`create database ${name}`);
    await client.end();
    const fresh = new URL(url!);
    fresh.pathname = `/${name}`;
    console.log(JSON.stringify({ name, url: fresh.toString() }));
    break;
  }
  case 'drop-database': {
    const name = process.argv[4] ?? '';
    if (!/^portolan_bench_[0-9a-f]+$/.test(name)) throw new Error(`not a bench database: ${name}`);
    const client = await adminClient(url!);
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
    break;
  }
  default:
    console.error(
      'usage: bench-cli.ts seed | seed-activities N | create-database URL | drop-database URL',
    );
    process.exit(2);
}
