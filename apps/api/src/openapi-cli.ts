// `npm run openapi`: write the OpenAPI document the server generates to apps/api/openapi.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { wrapPglite } from './db/pglite.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portolan-openapi-'));
const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(32), LOG_LEVEL: 'silent' });
const database = wrapPglite(await PGlite.create());
// Migrated: the app's start-up reads its tables (the key that signs module launch tokens).
await database.migrate();
const app = await buildApp(config, { database });
await app.ready();
const doc = app.swagger();
const out = path.resolve(import.meta.dirname, '../openapi.json');
fs.writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
await app.close();
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });
console.log(`Wrote ${out}`);
