import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  apiTestFiles,
  PARITY_MARKER,
  parityFiles,
  parityReasons,
} from './support/engine-parity.ts';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
/** This file quotes what the rule looks for, so it is left out of the search. */
const SELF = 'test/engine-parity.test.ts';

/** The written rule of which files PGlite runs beside PostgreSQL (test/support/engine-parity.ts). */
describe('the engine parity rule', () => {
  it('marks every file the rule names, each with a reason', () => {
    const unmarked = apiTestFiles(root)
      .filter((file) => file !== SELF)
      .map((file) => ({ file, text: read(file) }))
      .filter(({ file, text }) => parityReasons(file, text).length > 0 && !PARITY_MARKER.test(text))
      .map(({ file, text }) => `${file} (${parityReasons(file, text).join(', ')})`);
    expect(unmarked, 'files the rule says must also run on PGlite').toEqual([]);
    for (const file of parityFiles(root)) {
      expect(PARITY_MARKER.exec(read(file))?.[1]?.trim().length, file).toBeGreaterThan(10);
    }
  });

  it('finds each kind of file it names', () => {
    expect(parityReasons('src/db/x.test.ts', '')).toEqual(['the database layer']);
    expect(parityReasons('src/modules/a/concurrency.test.ts', '')).toEqual([
      'locking and concurrency',
    ]);
    expect(parityReasons('src/modules/data-exports/x.test.ts', '')).toEqual(['COPY and exports']);
    expect(
      parityReasons('x.test.ts', "import { testEngine } from './support/database.ts';"),
    ).toEqual(['branches on the engine']);
    const crowd = (n: number) =>
      `await Promise.all(Array.from({ length: ${n} }, () => t.app.inject(request)));`;
    expect(parityReasons('x.test.ts', crowd(50))).toEqual(['twenty or more requests at once']);
    expect(parityReasons('x.test.ts', crowd(5))).toEqual([]);
    expect(parityReasons('src/modules/clients/clients.test.ts', '')).toEqual([]);
  });

  it('leaves most files to PostgreSQL alone, and finds the marker only at the start of a line', () => {
    const all = apiTestFiles(root);
    const parity = parityFiles(root);
    expect(all).toContain(SELF);
    expect(parity).toContain('test/lock-order.test.ts');
    expect(parity.length).toBeLessThan(all.length / 2);
    expect(PARITY_MARKER.test('const s = "// engine-parity: in a string";')).toBe(false);
  });
});
