import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    setupFiles: ['./vitest.setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
    testTimeout: 15_000,
    // One jsdom per worker for file after file (vitest.setup.ts resets the stores after each test):
    // a fresh environment and module graph per file cost 421 CPU-seconds against 159 (issue 19).
    isolate: false,
  },
});
