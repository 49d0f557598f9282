// engine-parity: engine-independent, runs once, on PGlite
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedPgliteDataDir, testEngine } from '../../test/support/database.ts';

const serverTs = path.resolve(import.meta.dirname, '../server.ts');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portolan-lock-'));

function start(extraEnv: Record<string, string> = {}, script = serverTs) {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

// The lock guards the embedded database; it is the same whichever engine the suite runs on.
describe.runIf(testEngine === 'pglite')('DATA_DIR lock (a real server process)', () => {
  const running: ReturnType<typeof start>[] = [];
  // Migrated beforehand: the servers here are about the lock, not about a first start.
  beforeAll(() => seedPgliteDataDir(dataDir));
  afterAll(async () => {
    for (const r of running) r.child.kill('SIGTERM');
    await Promise.all(running.map((r) => r.exited));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('lets one server run and stops a second one at once, naming the lock', async () => {
    const first = start();
    running.push(first);
    await expect
      .poll(() => first.output(), { timeout: 30_000, interval: 200 })
      .toMatch(/Server listening/);

    const second = start();
    const code = await second.exited;
    expect(code).not.toBe(0);
    expect(second.output()).toContain(path.join(dataDir, 'server.lock'));
    expect(second.output()).toMatch(/locked/);

    // The first one is unharmed, and releases the lock when it stops.
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'server.lock'))).toBe(false);
  });

  it('tells the seed to wait for the server plainly: exit 1, no stack trace', async () => {
    // This test process is alive, so a lock holding its pid is a running server's.
    fs.writeFileSync(path.join(dataDir, 'server.lock'), String(process.pid));
    const seed = start({}, path.resolve(import.meta.dirname, '../seed/cli.ts'));
    expect(await seed.exited).toBe(1);
    expect(seed.output()).toContain('Stop the server first, or run it with the server stopped.');
    expect(seed.output()).not.toMatch(/^\s+at /m);
    fs.rmSync(path.join(dataDir, 'server.lock'));
  });

  it('takes over a lock left by a dead process', async () => {
    fs.writeFileSync(path.join(dataDir, 'server.lock'), '999999');
    const again = start();
    running.push(again);
    await expect
      .poll(() => again.output(), { timeout: 30_000, interval: 200 })
      .toMatch(/Server listening/);
  });
});
