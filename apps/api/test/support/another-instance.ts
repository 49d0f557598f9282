import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { App } from '../../src/context.ts';
import type { TestApp } from './app.ts';

export interface AnotherInstance {
  app: App;
  /** Its own DATA_DIR, empty at start: nothing is shared with the first through the disk. */
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A second instance of the real app beside `t`, as on another machine: the same database, JWT
 * secret, SMTP server and clock, a DATA_DIR of its own, and `env` on top.
 */
export async function startAnotherInstance(
  t: TestApp,
  env: Record<string, string> = {},
  options: { logStream?: { write(line: string): void } } = {},
): Promise<AnotherInstance> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'portolan-test-b-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    SMTP_URL: t.ctx.config.smtpUrl!,
    JWT_SECRET: t.ctx.config.jwtSecret!,
    ENCRYPTION_KEY: t.ctx.config.encryptionKey!,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const app = await buildApp(config, {
    database: t.ctx.database,
    clock: t.clock,
    logStream: options.logStream,
  });
  await app.ready();
  return {
    app,
    dataDir,
    async close() {
      await app.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
