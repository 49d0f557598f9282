// A second portal for the specs that need configuration the run's server must not have (analytics
// on, internal or custom-template e-mail domains): the real server (apps/api/src/server.ts) on a
// free loopback port, with a fresh DATA_DIR inside the run folder, the demo data (support/demo.ts)
// and the web app the run's server already built. The run's own server keeps the defaults, so every
// other spec sees a portal where nothing of this is configured.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ROOT, SERVER_ENTRY } from '../../scripts/lib/paths.ts';
import { currentRun } from './run.ts';

export interface ConfiguredServer {
  /** `http://127.0.0.1:<port>`, or `http://localhost:<port>` (see ConfiguredServerOptions). */
  baseURL: string;
  /** What the server wrote so far (for a failing test's attachment). */
  output(): string;
  stop(): Promise<void>;
}

/** The developer's own configuration never leaks in (as support/app-server.ts does). */
const OWN_CONFIG =
  /^(PORT|HOST|PUBLIC_URL|DATA_DIR|DATABASE_URL|SMTP_URL|MAIL_FROM|JWT_SECRET|ENCRYPTION_KEY|STEP_UP_MAX_AGE_S|TRUST_PROXY|GOOGLE_.*|FEATURE_.*|ANALYTICS_.*|SUPPORT_EMAIL|INTERNAL_EMAIL_DOMAINS|CUSTOM_TEMPLATE_EMAIL_DOMAINS|FORCE_HTTPS_HOSTS|CREDENTIAL_CHECK_URL|STORAGE_URL)$/;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitForHealth(baseURL: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the configured server exited on its own:\n${output()}`);
    }
    try {
      if ((await fetch(`${baseURL}/v1/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the configured server did not answer within 90 s:\n${output()}`);
}

export interface ConfiguredServerOptions {
  /**
   * The host name the portal is addressed by (its PUBLIC_URL and `baseURL`); it listens on
   * 127.0.0.1 either way. `localhost` for passkeys: WebAuthn takes a domain as the relying party,
   * never an IP address.
   */
  hostname?: '127.0.0.1' | 'localhost';
}

/** Starts the server with `config` over the defaults, on a copy of the run's demo data. */
export async function startConfiguredServer(
  config: Record<string, string>,
  { hostname = '127.0.0.1' }: ConfiguredServerOptions = {},
): Promise<ConfiguredServer> {
  const dataDir = mkdtempSync(path.join(currentRun().dir, 'configured-'));
  const port = await freePort();
  const baseURL = `http://${hostname}:${port}`;
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !OWN_CONFIG.test(key)),
  );
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseURL,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...config,
  });

  // The demo data as the run's server seeded it once (support/app-server.ts), copied.
  cpSync(currentRun().demoTemplateDir, dataDir, { recursive: true });

  let log = '';
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(`http://127.0.0.1:${port}`, child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseURL, output: () => log, stop };
}
