import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { App, AppContext } from '../../src/context.ts';
import type { Database } from '../../src/db/client.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { createTestDatabase } from './database.ts';
import { extractCode, Mailbox } from './mailbox.ts';

export { extractCode as extractCodeFrom };

export interface TestApp {
  app: App;
  ctx: AppContext;
  clock: ManualClock;
  mailbox: Mailbox;
  /** Deliver queued mail now and return the newest message to an address. */
  mailTo(address: string): Promise<{ subject: string; text: string; html: string }>;
  close(): Promise<void>;
}

/**
 * The real app on a database of its own, with a hand-moved clock and a local SMTP server.
 * Nothing of our own code is replaced.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: {
    beforeReady?: (app: App) => void;
    logStream?: { write(line: string): void };
    /** Another app's database (a second instance on it), left open by close(): its owner closes it. */
    database?: Database;
  } = {},
): Promise<TestApp> {
  const mailbox = new Mailbox();
  const smtpUrl = await mailbox.start();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'portolan-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    SMTP_URL: smtpUrl,
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    ...env,
  });
  const database = options.database ?? (await createTestDatabase());
  const clock = new ManualClock();
  const app = await buildApp(config, { database, clock, logStream: options.logStream });
  options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    ctx: app.ctx,
    clock,
    mailbox,
    async mailTo(address) {
      await app.ctx.outbox.drain();
      const mail = mailbox.last(address);
      if (!mail) throw new Error(`no mail to ${address}`);
      return mail;
    },
    async close() {
      await app.close();
      if (!options.database) await database.close();
      await mailbox.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
/** A unique e-mail per call, so tests never collide. */
export const uniqueEmail = (prefix = 'user') =>
  `${prefix}.${Date.now().toString(36)}.${(counter++).toString(36)}@example.com`;

export const STRONG_PASSWORD = 'Correct horse battery 42';

/** Registers and activates a user through the API itself; returns their credentials. */
export async function registerActiveUser(
  t: TestApp,
  fields: { email?: string; password?: string; first_name?: string; last_name?: string } = {},
) {
  const email = fields.email ?? uniqueEmail();
  const password = fields.password ?? STRONG_PASSWORD;
  const reg = await t.app.inject({
    method: 'POST',
    url: '/v1/rest-auth/registration/',
    payload: {
      email,
      password1: password,
      password2: password,
      first_name: fields.first_name ?? 'Test',
      last_name: fields.last_name ?? 'User',
    },
  });
  if (reg.statusCode !== 201) throw new Error(`registration failed: ${reg.body}`);
  const code = extractCode((await t.mailTo(email)).text);
  const act = await t.app.inject({
    method: 'PATCH',
    url: '/v1/rest-auth/registration/activation/',
    headers: { authorization: `Bearer ${reg.json().token}` },
    payload: { code },
  });
  if (act.statusCode !== 200) throw new Error(`activation failed: ${act.body}`);
  return { email, password };
}

/** Signs in and returns the session token. */
export async function signIn(t: TestApp, email: string, password: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/rest-auth/app/login/',
    payload: { email, password },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.body}`);
  return res.json().token as string;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
