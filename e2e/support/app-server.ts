// The application under test, started by playwright.config.ts as a webServer: builds the web app
// when apps/web/dist is stale, then runs the real server (node apps/api/src/server.ts) on the
// run's port with a fresh DATA_DIR (embedded PGlite), SMTP_URL pointing at the SMTP capture and
// Google sign-in pointing at the local OpenID Connect provider.
// Its output goes to <run>/server.log (also to our stdout with E2E_SERVER_LOG=1). If it dies on
// its own, the end of the log is printed so the reason shows in Playwright's output.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, SERVER_ENTRY } from '../../scripts/lib/paths.ts';
import { exitCodeOf } from '../../scripts/lib/proc.ts';
import { ensureWebBuild } from '../../scripts/lib/web-build.ts';
import { startRunCredentialFake } from './credential-fake.ts';
import { GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET } from './google.ts';
import { E2E_SUPPORT_EMAIL } from './support-email.ts';
import { currentRun } from './run.ts';

const run = currentRun();
mkdirSync(run.dataDir, { recursive: true });

// Build output to stderr: Playwright shows a webServer's stderr and hides its stdout.
// E2E_SKIP_WEB_BUILD=1 serves whatever apps/web/dist holds (to debug the harness or the API).
if (!process.env.E2E_SKIP_WEB_BUILD && !(await ensureWebBuild((line) => console.error(line)))) {
  process.exit(1);
}

// The marketplace-seller credential checker's fake (support/credential-fake.ts), in this process.
const credentialFake = await startRunCredentialFake(run);

const env: NodeJS.ProcessEnv = { ...process.env };
// Nothing of the developer's own configuration leaks in; E2E_DATABASE_URL opts into PostgreSQL.
for (const key of Object.keys(env)) {
  if (
    /^(PORT|HOST|PUBLIC_URL|DATA_DIR|DATABASE_URL|SMTP_URL|MAIL_FROM|JWT_SECRET|ENCRYPTION_KEY|STEP_UP_MAX_AGE_S|TRUST_PROXY|GOOGLE_.*|FEATURE_.*|ANALYTICS_.*|SUPPORT_EMAIL|INTERNAL_EMAIL_DOMAINS|CUSTOM_TEMPLATE_EMAIL_DOMAINS|FORCE_HTTPS_HOSTS|STORAGE_URL)$/.test(
      key,
    )
  ) {
    delete env[key];
  }
}
Object.assign(env, {
  PORT: String(run.appPort),
  HOST: '127.0.0.1',
  PUBLIC_URL: run.baseURL,
  DATA_DIR: run.dataDir,
  SMTP_URL: `smtp://127.0.0.1:${run.smtpPort}`,
  MAIL_FROM: 'Portolan <no-reply@portolan.test>',
  GOOGLE_CLIENT_ID,
  GOOGLE_CLIENT_SECRET,
  GOOGLE_ISSUER: run.oidcIssuer,
  SUPPORT_EMAIL: E2E_SUPPORT_EMAIL,
  CREDENTIAL_CHECK_URL: credentialFake.checkUrl,
  // As behind a proxy: the accounts helper gives each registration an address of its own.
  TRUST_PROXY: 'true',
  ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
});

// The demo data first (an owner, a STAFF member and the workspace waiting for approval that they
// made: e2e/support/demo.ts), for the journeys that start inside an organization with members.
// Seeded once into an embedded database of its own, the template that this server's and every
// configured server's (support/configured-server.ts) data start from as a copy: migrating and
// seeding costs about 9 CPU-seconds, a copy a few milliseconds.
const { DATABASE_URL: _postgres, ...templateEnv } = env;
const seeded = spawnSync(process.execPath, [path.join(ROOT, 'apps/api/src/seed/cli.ts')], {
  cwd: ROOT,
  env: { ...templateEnv, DATA_DIR: run.demoTemplateDir },
  encoding: 'utf8',
});
if (seeded.status !== 0) {
  process.stderr.write(`The demo seed failed:\n${seeded.stdout}${seeded.stderr}`);
  process.exit(1);
}
if (env.DATABASE_URL) {
  // PostgreSQL (E2E_DATABASE_URL) is seeded in place.
  const again = spawnSync(process.execPath, [path.join(ROOT, 'apps/api/src/seed/cli.ts')], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
  });
  if (again.status !== 0) {
    process.stderr.write(`The demo seed failed:\n${again.stdout}${again.stderr}`);
    process.exit(1);
  }
} else {
  cpSync(run.demoTemplateDir, run.dataDir, { recursive: true });
}
// Then an organization whose subscription has lapsed (support/seed-lapsed.ts), for the gate.
const lapsed = spawnSync(process.execPath, [path.join(ROOT, 'e2e/support/seed-lapsed.ts')], {
  cwd: ROOT,
  env,
  encoding: 'utf8',
});
if (lapsed.status !== 0) {
  process.stderr.write(`The lapsed seed failed:\n${lapsed.stdout}${lapsed.stderr}`);
  process.exit(1);
}

const log = createWriteStream(run.serverLog, { flags: 'a' });
// Its own process group: it gets exactly one SIGTERM, from us, when Playwright stops us.
const child = spawn(process.execPath, [SERVER_ENTRY], {
  cwd: ROOT,
  env,
  detached: true,
  stdio: ['ignore', 'pipe', 'pipe'],
});
const echo = !!process.env.E2E_SERVER_LOG;
for (const stream of [child.stdout, child.stderr]) {
  stream.on('data', (chunk: Buffer) => {
    log.write(chunk);
    if (echo) process.stdout.write(chunk);
  });
}

// Playwright stops us with SIGTERM (gracefulShutdown in the config): pass it on once, wait for
// the server's graceful shutdown, and kill it if that takes more than 10 s.
let stopping = false;
const onSignal = () => {
  if (stopping) return;
  stopping = true;
  setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
};
process.on('SIGTERM', onSignal);
process.on('SIGINT', onSignal);

child.on('exit', (code, signal) => {
  log.end(() => {
    if (!stopping) {
      const tail = readFileSync(run.serverLog, 'utf8').split('\n').slice(-40).join('\n');
      process.stderr.write(
        `\nThe server exited on its own (code ${code}, signal ${signal}). End of ${run.serverLog}:\n${tail}\n`,
      );
    }
    process.exit(stopping ? 0 : exitCodeOf(code, signal) || 1);
  });
});

// Never leave the server behind if we go away for any other reason.
process.on('exit', () => {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
