// Browser tests of the real, built server. Two webServers are started before the tests and stopped
// after them: a local SMTP capture, then the app (node apps/api/src/server.ts, after building the
// web app when stale) on free loopback ports, with a fresh DATA_DIR; see support/run.ts.
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from './support/chromium.ts';
import { prepareRun } from './support/run.ts';

const run = prepareRun();
const CI = !!process.env.CI;
const node = JSON.stringify(process.execPath);

export default defineConfig({
  testDir: 'tests',
  outputDir: 'test-results',
  fullyParallel: true,
  forbidOnly: CI,
  workers: 2,
  retries: CI ? 1 : 0,
  reporter: [['list']],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  globalSetup: './support/global-setup.ts',
  use: {
    baseURL: run.baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    locale: 'en-US',
    timezoneId: 'UTC',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
      },
    },
  ],
  webServer: [
    {
      name: 'smtp',
      command: `${node} support/smtp-capture.ts`,
      env: { SMTP_CAPTURE_PORT: String(run.smtpPort), SMTP_CAPTURE_DIR: run.mailDir },
      port: run.smtpPort,
      timeout: 15_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    },
    {
      name: 'app',
      command: `${node} support/app-server.ts`,
      url: `${run.baseURL}/v1/health`,
      // Includes a web build when apps/web/dist is stale, and migrations of the new database.
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: process.env.E2E_SERVER_LOG ? 'pipe' : 'ignore',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    },
  ],
});
