// One browser-test run: a fresh temporary folder (server data, captured mail, server log) and three
// loopback ports (the app, the SMTP capture and the OpenID Connect provider standing in for Google). playwright.config.ts calls prepareRun() in the
// runner process, which stores the choice in environment variables; Playwright's worker processes
// and webServer commands inherit them, so every process that evaluates the config agrees.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface RunInfo {
  dir: string;
  dataDir: string;
  /**
   * The demo data seeded once (support/app-server.ts) in an embedded database of its own, which
   * every portal of the run starts from as a copy instead of migrating and seeding anew.
   */
  demoTemplateDir: string;
  mailDir: string;
  serverLog: string;
  appPort: number;
  smtpPort: number;
  oidcPort: number;
  baseURL: string;
  /** The local OpenID Connect provider (GOOGLE_ISSUER of the app). */
  oidcIssuer: string;
}

const ENV_DIR = 'PORTOLAN_E2E_RUN_DIR';
const ENV_APP_PORT = 'PORTOLAN_E2E_APP_PORT';
const ENV_SMTP_PORT = 'PORTOLAN_E2E_SMTP_PORT';
const ENV_OIDC_PORT = 'PORTOLAN_E2E_OIDC_PORT';

function info(dir: string, appPort: number, smtpPort: number, oidcPort: number): RunInfo {
  return {
    dir,
    dataDir: path.join(dir, 'data'),
    demoTemplateDir: path.join(dir, 'demo-template'),
    mailDir: path.join(dir, 'mail'),
    serverLog: path.join(dir, 'server.log'),
    appPort,
    smtpPort,
    oidcPort,
    baseURL: `http://127.0.0.1:${appPort}`,
    oidcIssuer: `http://127.0.0.1:${oidcPort}`,
  };
}

/** Currently free loopback ports (asked of the OS, synchronously, in a short child process). */
function freePorts(count: number): number[] {
  const script = `
    const net = require('node:net');
    const servers = Array.from({ length: ${count} }, () => net.createServer());
    Promise.all(servers.map((s) => new Promise((r) => s.listen(0, '127.0.0.1', () => r(s.address().port)))))
      .then((ports) => { console.log(ports.join(' ')); servers.forEach((s) => s.close()); });`;
  const out = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  return out.trim().split(' ').map(Number);
}

/** The run of this process tree; created on the first call in the runner process. */
export function prepareRun(): RunInfo {
  const existing = process.env[ENV_DIR];
  if (existing) return currentRun();

  const dir = mkdtempSync(path.join(os.tmpdir(), 'portolan-e2e-'));
  const [freeApp, freeSmtp, freeOidc] = freePorts(3);
  const appPort = Number(process.env.E2E_APP_PORT ?? freeApp);
  const smtpPort = Number(process.env.E2E_SMTP_PORT ?? freeSmtp);
  const oidcPort = Number(process.env.E2E_OIDC_PORT ?? freeOidc);
  process.env[ENV_DIR] = dir;
  process.env[ENV_APP_PORT] = String(appPort);
  process.env[ENV_SMTP_PORT] = String(smtpPort);
  process.env[ENV_OIDC_PORT] = String(oidcPort);

  // Remove the folder when the runner exits, after Playwright has stopped the servers; keep it
  // when the run failed (the server log and captured mail help) or when E2E_KEEP_RUN_DIR is set.
  process.on('exit', (code) => {
    if (code === 0 && !process.env.E2E_KEEP_RUN_DIR) {
      rmSync(dir, { recursive: true, force: true });
    } else {
      process.stderr.write(`\nbrowser-test run folder kept: ${dir} (server.log, mail/, data/)\n`);
    }
  });
  return info(dir, appPort, smtpPort, oidcPort);
}

/** The run prepared by the runner process (for fixtures, workers and the webServer commands). */
export function currentRun(): RunInfo {
  const dir = process.env[ENV_DIR];
  const appPort = Number(process.env[ENV_APP_PORT]);
  const smtpPort = Number(process.env[ENV_SMTP_PORT]);
  const oidcPort = Number(process.env[ENV_OIDC_PORT]);
  if (!dir || !appPort || !smtpPort || !oidcPort) {
    throw new Error(
      `${ENV_DIR} is not set: run the browser tests with playwright test (e2e/playwright.config.ts)`,
    );
  }
  return info(dir, appPort, smtpPort, oidcPort);
}
