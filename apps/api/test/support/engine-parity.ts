import fs from 'node:fs';
import path from 'node:path';

/**
 * Which API test files run on the embedded engine (PGlite) when the suite also runs on PostgreSQL
 * (TEST_DATABASE_URL set, as in CI). PostgreSQL, the production engine, runs every file; PGlite
 * runs the parity subset: the files that carry a line
 *
 *   // engine-parity: <why this file must pass on both engines>
 *
 * Without TEST_DATABASE_URL (`npm test` on a laptop) PGlite runs every file, as does
 * TEST_PGLITE=all with it. A file MUST carry the marker (test/engine-parity.test.ts checks it)
 * when `parityReasons` finds one of these in it:
 *  - it branches on the engine (`testEngine`, `createPostgresDatabaseCopy`): its PGlite side
 *    would otherwise never run in CI;
 *  - it is about the database layer (src/db/: COPY, outages, the driver wrappers);
 *  - locking and concurrency: a concurrency or lock-order file, or twenty or more requests at once
 *    (`Promise.all` over `Array.from({ length: n })`, n ≥ 20);
 *  - COPY and exports (data-exports/, activities' export);
 *  - LISTEN/NOTIFY (the notification stream across instances).
 * Migrations run on both engines in each project's global setup. Anything else dialect-specific
 * (a query PGlite and PostgreSQL may answer differently) carries the marker by hand.
 * In such a run PGlite's project has TEST_PGLITE_SCOPE=parity: a parity file may then do less of
 * what is not about the engine (the fuzz's random part), never less of what its marker names.
 */
export const PARITY_MARKER = /^\/\/ engine-parity: (\S.*)$/m;

const AT_ONCE = /Array\.from\(\{\s*length:\s*(\d+)\s*\}/g;
const PATH_RULES: [RegExp, string][] = [
  [/^src\/db\//, 'the database layer'],
  [/(^|\/)(concurrency|lock-order)\.test\.ts$/, 'locking and concurrency'],
  [/(^|\/)data-exports\/|(^|\/)export\.test\.ts$/, 'COPY and exports'],
  [/^src\/modules\/notifications\/(stream|instances)\.test\.ts$/, 'LISTEN/NOTIFY'],
];

/** The API test files under `root` (apps/api), relative to it, in a stable order. */
export function apiTestFiles(root: string): string[] {
  return ['src', 'test']
    .flatMap((dir) =>
      fs
        .readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
        .map((f) => path.posix.join(dir, f.split(path.sep).join('/'))),
    )
    .filter((f) => f.endsWith('.test.ts'))
    .sort();
}

/** Why the rule above says `file` (relative to apps/api) must run on both engines; [] if not. */
export function parityReasons(file: string, text: string): string[] {
  const reasons = PATH_RULES.filter(([pattern]) => pattern.test(file)).map(([, why]) => why);
  if (/\btestEngine\b|\bcreatePostgresDatabaseCopy\b/.test(text))
    reasons.push('branches on the engine');
  const crowd = [...text.matchAll(AT_ONCE)].some((m) => Number(m[1]) >= 20);
  if (crowd && text.includes('Promise.all(')) reasons.push('twenty or more requests at once');
  return reasons;
}

/** The files that carry the marker: PGlite's share of a run that also has PostgreSQL. */
export function parityFiles(root: string): string[] {
  return apiTestFiles(root).filter((f) =>
    PARITY_MARKER.test(fs.readFileSync(path.join(root, f), 'utf8')),
  );
}
