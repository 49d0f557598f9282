// engine-parity: reads the source (its text names the engines), no database work; cheap on both
import fs from 'node:fs';
import path from 'node:path';
import { is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { NOT_EXPORTED, TABLE_OWNERS, type TableName } from '../src/db/ownership.ts';
import { EXPORTERS } from '../src/modules/data-exports/layout.ts';
import * as schema from '../src/db/schema/index.ts';
import { testEngine } from './support/database.ts';

/**
 * Table ownership (issue 19, ARCHITECTURE "Table ownership"): every table of the schema has one
 * owner, only the owner writes it, and every table is either exported by its owner or listed as
 * not exported with a reason.
 */

const SRC = path.resolve(import.meta.dirname, '../src');

const schemaTables = Object.entries(schema)
  .filter(([, value]) => is(value, PgTable))
  .map(([name]) => name)
  .sort();

/** Every source file of the API but tests and test support; seed/ makes fixtures directly. */
function sourceFiles(dir = SRC): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'seed' ? [] : sourceFiles(full);
    const test = /\.test\.ts$/.test(entry.name) || /^test-/.test(entry.name);
    return entry.name.endsWith('.ts') && !test ? [full] : [];
  });
}

/**
 * Writes found in the code: Drizzle's `.insert(t)`, `.update(t)`, `.delete(t)` and SQL text's
 * `insert into ${t}`, `update ${t}`, `delete from ${t}`, with t a schema table's name.
 */
function writesIn(source: string): { op: string; table: string }[] {
  const found: { op: string; table: string }[] = [];
  const patterns = [
    /\.(insert|update|delete)\(\s*(\w+)\s*\)/g,
    /\b(insert\s+into|update|delete\s+from)\s+\$\{\s*(\w+)\s*\}/gi,
  ];
  for (const pattern of patterns) {
    for (const [, op, table] of source.matchAll(pattern)) {
      if (table! in TABLE_OWNERS)
        found.push({ op: op!.split(/\s/)[0]!.toLowerCase(), table: table! });
    }
  }
  return found;
}

const ownsFile = (owner: string, file: string) => file === owner || file.startsWith(`${owner}/`);

/**
 * Writes of another module's table: only these, each with why. Every module writes another's
 * rows through the owner's face, passing its transaction; any other write outside its owner fails
 * the test.
 */
const KNOWN_FOREIGN_WRITES: string[] = [
  // The fan-out: an event's pending deliveries are written by the statement that writes the event
  // (a CTE), so the change, its event and its deliveries commit together (issue 21 item 2); the
  // webhooks module owns the deliveries and works them from there.
  'modules/events/record.ts insert webhookDeliveries',
];

describe.runIf(testEngine === 'pglite')('table ownership', () => {
  it('gives every table of the schema one owner that exists', () => {
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual(schemaTables);
    for (const owner of new Set(Object.values(TABLE_OWNERS))) {
      expect([owner, fs.existsSync(path.join(SRC, owner))]).toEqual([owner, true]);
    }
  });

  it('finds writes in the forms the code uses', () => {
    const source = [
      'await tx.insert(users).values(x);',
      'tx.update( sessions ).set({})',
      'db.delete(rateLimits)',
      'sql`insert into ${clientMembers} (a)`',
      'sql`with r as (UPDATE ${invitations} set a = 1) delete from ${notifications}`',
      'tx.select().from(users); tx.update(notATable)',
    ].join('\n');
    expect(writesIn(source)).toEqual([
      { op: 'insert', table: 'users' },
      { op: 'update', table: 'sessions' },
      { op: 'delete', table: 'rateLimits' },
      { op: 'insert', table: 'clientMembers' },
      { op: 'update', table: 'invitations' },
      { op: 'delete', table: 'notifications' },
    ]);
  });

  it('has no module write another module’s table', () => {
    const foreign = new Set<string>();
    let writes = 0;
    for (const file of sourceFiles()) {
      const relative = path.relative(SRC, file).split(path.sep).join('/');
      for (const { op, table } of writesIn(fs.readFileSync(file, 'utf8'))) {
        writes++;
        const owner = TABLE_OWNERS[table as TableName];
        if (!ownsFile(owner, relative)) foreign.add(`${relative} ${op} ${table}`);
      }
    }
    expect(writes).toBeGreaterThan(50);
    expect([...foreign].sort()).toEqual([...KNOWN_FOREIGN_WRITES].sort());
  });

  it('exports every table by its owner, or lists it as not exported with a reason', () => {
    const exported = new Map<string, string>();
    for (const [owner, exporter] of Object.entries(EXPORTERS)) {
      for (const table of exporter.tables) {
        expect([table, TABLE_OWNERS[table]]).toEqual([table, owner]);
        expect(exported.has(table), `${table} exported twice`).toBe(false);
        exported.set(table, owner);
      }
    }
    const both = Object.keys(NOT_EXPORTED).filter((table) => exported.has(table));
    expect(both, 'exported and listed as not exported').toEqual([]);
    const neither = schemaTables.filter((t) => !exported.has(t) && !(t in NOT_EXPORTED));
    expect(neither, 'neither exported by their owner nor listed as not exported').toEqual([]);
  });

  it('lists only schema tables as not exported, each with a reason', () => {
    for (const [table, reason] of Object.entries(NOT_EXPORTED)) {
      expect(schemaTables).toContain(table);
      expect(reason!.length).toBeGreaterThan(10);
    }
  });
});
