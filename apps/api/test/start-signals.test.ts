// engine-parity: engine-independent, runs once, on PGlite
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './support/pg-cluster.ts';
import { seedPgliteDataDir, testEngine } from './support/database.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Every process below `pid` (children, their children, …), read from /proc. */
async function descendants(pid: number): Promise<number[]> {
  const children = new Map<number, number[]>();
  for (const name of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await fs.readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid …: comm may hold spaces and parentheses; the last ')' ends it.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid)!.push(Number(name));
  }
  const found: number[] = [];
  const visit = (p: number) => {
    for (const c of children.get(p) ?? []) {
      found.push(c);
      visit(c);
    }
  };
  visit(pid);
  return found;
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

async function until(what: string, check: () => Promise<boolean> | boolean, withinMs: number) {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > withinMs)
      throw new Error(`${what}: not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return performance.now() - started;
}

/**
 * Issue 18 item 10: `npm start` (npm → sh → scripts/start.ts → the server) ends with everything
 * it started when npm alone gets SIGTERM or SIGINT: the port is free and no process remains.
 * The embedded database only (a PGlite DATA_DIR of its own); WEB_DIST names a stand-in web
 * build so that start does not build the web app.
 */
describe.skipIf(testEngine !== 'pglite')('npm start and signals', () => {
  const started: ChildProcess[] = [];
  const leftovers: number[] = [];
  // One DATA_DIR for both starts, its database put in place migrated: creating and migrating
  // it would be most of the time (the first start is tested by the browser tests' server).
  let dir: string;
  let web: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'portolan-start-'));
    web = path.join(dir, 'web');
    await fs.mkdir(web);
    await fs.writeFile(path.join(web, 'index.html'), '<!doctype html><title>Portolan</title>');
    await seedPgliteDataDir(path.join(dir, 'data'));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));
  afterEach(async () => {
    for (const pid of leftovers.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to npm stops the server and every child within a few seconds`, async () => {
      const port = await freePort();
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(dir, 'data'),
        WEB_DIST: web,
        LOG_LEVEL: 'info',
      };
      for (const name of ['DATABASE_URL', 'NODE_ENV', 'PUBLIC_URL', 'SMTP_URL']) delete env[name];
      // npm in a process group of its own, so that the signal reaches npm alone (as `kill` does).
      const npm = spawn('npm', ['start'], {
        cwd: ROOT,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      started.push(npm);
      let output = '';
      npm.stdout.on('data', (d) => (output += d));
      npm.stderr.on('data', (d) => (output += d));
      try {
        await until(
          'health',
          async () =>
            (await fetch(`http://127.0.0.1:${port}/v1/health`).catch(() => null))?.ok ?? false,
          60_000,
        );
        // The start log says where it listens and the URL links use (issue 18 item 8). The line
        // comes just after the server listens: through npm's pipe it can arrive after the health
        // answer, so it is waited for.
        const startLine = `listening on 127.0.0.1:${port}; links use http://localhost:${port}`;
        await until('the start log line', () => output.includes(startLine), 5_000);
        const tree = await descendants(npm.pid!);
        expect(tree.length).toBeGreaterThanOrEqual(2); // start.ts and the server
        leftovers.push(...tree);

        npm.kill(signal);
        const ms = await until(
          'every process gone and the port free',
          async () => !tree.some(isAlive) && (await portIsFree(port)),
          5_000,
        );
        console.log(`${signal}: all gone and the port free in ${Math.round(ms)} ms`);
      } catch (err) {
        throw new Error(`${String(err)}\n--- npm start said:\n${output}`, { cause: err });
      }
    }, 90_000);
  }
});
