// Browser tests of the real, built server. Three webServers are started before the tests and
// stopped after them, on free loopback ports (support/run.ts): a local SMTP capture, a local
// OpenID Connect provider standing in for Google, then the app (node apps/api/src/server.ts, after
// building the web app when stale) with a fresh DATA_DIR.
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from './support/chromium.ts';
import { GOOGLE_ACCOUNT, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET } from './support/google.ts';
import { prepareRun } from './support/run.ts';

const run = prepareRun();
const CI = !!process.env.CI;
const node = JSON.stringify(process.execPath);

export default defineConfig({
  testDir: 'tests',
  outputDir: 'test-results',
  fullyParallel: true,
  forbidOnly: CI,
  // Twice the cores: a test mostly waits (on the server, on timers, on the page settling). On
  // the 2-core machine (2026-11-27, 92 tests): 2 workers 251 s, 3 208 s, 4 188 s with the
  // machine 97% busy; more would only queue.
  workers: 4,
  // A flaky test is a failing test: none is run twice.
  retries: 0,
  reporter: [['list']],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  globalSetup: './support/global-setup.ts',
  use: {
    baseURL: run.baseURL,
    // A failed test keeps its trace (each action's DOM snapshot, network, console) but not the
    // trace's screencast: encoding a frame per paint kept Chromium's compositor busy for about a
    // fifth of the suite's CPU. In CI no trace is recorded at all: only the run's printed output
    // comes back from there, and recording every action's snapshot cost about a tenth of the
    // browser pass. A failure still gets its screenshot and error context (below).
    trace: CI ? 'off' : { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    // The browser asks for reduced motion, as many users' systems do, and the theme honours it
    // (respectReducedMotion): a menu, modal or toast is at once where it ends, never half faded
    // when a test reads it or axe measures its contrast.
    reducedMotion: 'reduce',
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
      name: 'oidc',
      command: `${node} ../apps/api/test/support/oidc-provider-cli.ts`,
      env: {
        PORT: String(run.oidcPort),
        HOST: '127.0.0.1',
        CLIENT_ID: GOOGLE_CLIENT_ID,
        CLIENT_SECRET: GOOGLE_CLIENT_SECRET,
        REDIRECT_URI: `${run.baseURL}/google-auth`,
        ACCOUNT_SUB: GOOGLE_ACCOUNT.sub,
        ACCOUNT_EMAIL: GOOGLE_ACCOUNT.email,
        ACCOUNT_GIVEN_NAME: GOOGLE_ACCOUNT.given_name,
        ACCOUNT_FAMILY_NAME: GOOGLE_ACCOUNT.family_name,
      },
      url: `${run.oidcIssuer}/.well-known/openid-configuration`,
      timeout: 30_000,
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
