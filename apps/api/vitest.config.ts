import { defineConfig } from 'vitest/config';

/**
 * API tests run through app.inject on a database of their own per test file: a restored PGlite
 * snapshot, and again on PostgreSQL (a database cloned from a migrated template) when
 * TEST_DATABASE_URL is set. Each project's name says which engine ran.
 */
const root = import.meta.dirname;
const common = {
  root,
  include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  environment: 'node' as const,
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // One worker process runs file after file (each file still gets a database of its own): a
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
          globalSetup: ['test/support/global-setup-pglite.ts'],
          env: { TEST_DB_ENGINE: 'pglite' },
        },
      },
      ...(process.env.TEST_DATABASE_URL
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
