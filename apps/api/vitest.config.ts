import { defineConfig } from 'vitest/config';
import { parityFiles } from './test/support/engine-parity.ts';

/**
 * API tests run through app.inject on a database of their own per test file: a restored PGlite
 * snapshot, or on PostgreSQL a database cloned from a migrated template. Each project's name says
 * which engine ran.
 *
 * Without TEST_DATABASE_URL every file runs on PGlite. With it (CI) every file runs on
 * PostgreSQL, the production engine, and PGlite runs only the parity subset: the files marked
 * `// engine-parity: <why>` (the written rule, and what must carry the marker, is in
 * test/support/engine-parity.ts; test/engine-parity.test.ts checks it). TEST_PGLITE=all runs
 * every file on both.
 */
const root = import.meta.dirname;
const postgres = !!process.env.TEST_DATABASE_URL;
const pgliteOnlyParity = postgres && process.env.TEST_PGLITE !== 'all';
const common = {
  root,
  include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  environment: 'node' as const,
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // Each worker process runs file after file (each file still gets a database of its own): a
  // fresh process per file cost a fifth of the pass re-importing the app (2 cores, issue 12).
  isolate: false,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...common,
          name: 'api (pglite)',
          ...(pgliteOnlyParity && { include: parityFiles(root) }),
          globalSetup: ['test/support/global-setup-pglite.ts'],
          // TEST_PGLITE_SCOPE tells a parity file whether PostgreSQL runs the full suite beside it.
          env: { TEST_DB_ENGINE: 'pglite', TEST_PGLITE_SCOPE: pgliteOnlyParity ? 'parity' : 'all' },
        },
      },
      ...(postgres
        ? [
            {
              test: {
                ...common,
                name: 'api (postgres)',
                globalSetup: ['test/support/global-setup-postgres.ts'],
                env: { TEST_DB_ENGINE: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
