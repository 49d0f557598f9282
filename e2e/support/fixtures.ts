// The test object for every spec: Playwright's, plus `mailbox` (the mail captured by the local
// SMTP server), `uniqueEmail()` and, on failure, the server's log lines of that test attached.
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { randomBytes, randomInt } from 'node:crypto';
import { test as base, expect } from '@playwright/test';
import { extractCode, Mailbox } from './mailbox.ts';
import { currentRun } from './run.ts';

export { expect, extractCode, Mailbox };
export { expectNoSeriousA11yViolations } from './axe.ts';

/** A new address per call: e2e+<label>-<time>-<random>@example.test (lower case). */
export function uniqueEmail(label = 'user'): string {
  const safe =
    label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 24) || 'user';
  return `e2e+${safe}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@example.test`;
}

/**
 * The server allows 20 registrations (and 20 sign-ins) per client address in 15 minutes (rules of
 * its own, tested in the API suite). The browser tests make far more than that, so each test and
 * each account made through the API comes from an address of its own: the test server trusts
 * X-Forwarded-For (TRUST_PROXY, as behind a real proxy) and each names a documentation address.
 */
export function clientAddress(): string {
  return `198.18.${randomInt(0, 256)}.${randomInt(1, 255)}`;
}

/** A password that passes the password policy (long, not common, not the e-mail). */
export function strongPassword(): string {
  return `Portolan-${randomBytes(6).toString('hex')}-Passw0rd`;
}

interface Fixtures {
  mailbox: Mailbox;
  serverLog: void;
}

export const test = base.extend<Fixtures>({
  // Each test's browser and API requests come from an address of its own (the test server trusts
  // X-Forwarded-For, as behind a proxy): the per-address limits on sign-in (20 in 15 minutes),
  // registration and resets are rules the API suite tests, and some forty browser tests sign in.
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => {
    await use({ ...extraHTTPHeaders, 'X-Forwarded-For': clientAddress() });
  },
  // eslint-disable-next-line no-empty-pattern
  mailbox: async ({}, use) => {
    await use(new Mailbox(currentRun().mailDir));
  },
  // Automatic: when a test fails, attach what the server logged while it ran.
  serverLog: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, testInfo) => {
      const file = currentRun().serverLog;
      const start = existsSync(file) ? statSync(file).size : 0;
      await use();
      if (testInfo.status !== testInfo.expectedStatus && existsSync(file)) {
        const length = statSync(file).size - start;
        if (length > 0) {
          const buffer = Buffer.alloc(Math.min(length, 2_000_000));
          const fd = openSync(file, 'r');
          readSync(fd, buffer, 0, buffer.length, start);
          closeSync(fd);
          await testInfo.attach('server.log', { body: buffer, contentType: 'text/plain' });
        }
      }
    },
    { auto: true },
  ],
});
