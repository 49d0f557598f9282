import { defineConfig } from 'vitest/config';

// Each package owns its test configuration; the API one declares one project per database engine.
export default defineConfig({
  test: {
    projects: [
      'packages/contract/vitest.config.ts',
      'packages/sdk/vitest.config.ts',
      'apps/api/vitest.config.ts',
      'apps/web/vitest.config.ts',
    ],
  },
});
