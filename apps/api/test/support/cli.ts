import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createPostgresDatabaseCopy, seedPgliteDataDir, testEngine } from './database.ts';

/** The environment a command-line tool runs with (undefined: removed from the child's). */
export type CliEnv = Record<string, string | undefined>;

/**
 * A database of its own for a command-line tool run as a process, on the test's engine: a copy of
 * the migrated template on PostgreSQL, a seeded DATA_DIR on PGlite. `extra` is added to its env.
 */
export async function cliDatabase(
  extra: Record<string, string> = {},
): Promise<{ env: CliEnv; cleanup: () => Promise<void> }> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'portolan-cli-'));
  const removeDir = () => fs.rm(dataDir, { recursive: true, force: true });
  if (testEngine === 'postgres') {
    const copy = await createPostgresDatabaseCopy();
    return {
      env: { DATA_DIR: dataDir, DATABASE_URL: copy.url, ...extra },
      cleanup: async () => {
        await copy.drop();
        await removeDir();
      },
    };
  }
  await seedPgliteDataDir(dataDir);
  return { env: { DATA_DIR: dataDir, DATABASE_URL: undefined, ...extra }, cleanup: removeDir };
}

/** Runs `node <cli> ...args` with `env` over this process's, and answers its exit code and output. */
export function runCli(
  cli: string,
  env: CliEnv,
  args: string[],
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const childEnv = { ...process.env, ...env };
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
    const child = spawn(process.execPath, [cli, ...args], {
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}
