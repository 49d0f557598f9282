// Runs once before the tests (after the webServers are up): fail early and clearly when the
// browser is missing, and say where this run keeps its files.
import { existsSync } from 'node:fs';
import { currentRun } from './run.ts';
import { CHROMIUM } from './chromium.ts';

export default function globalSetup(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}. Install Debian's package (apt-get install -y chromium-headless-shell) or set ` +
        'CHROMIUM_PATH. The browser tests never download a browser.',
    );
  }
  const run = currentRun();
  console.log(
    `browser tests: ${CHROMIUM}, app ${run.baseURL}, SMTP capture 127.0.0.1:${run.smtpPort}, files in ${run.dir}`,
  );
}
