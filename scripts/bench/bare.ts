// Starts and stops scripts/bench/bare-server.ts.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '../lib/bench.ts';

export interface CapturedAnswer {
  path: string;
  contentType: string;
  body: string;
}

export interface BareServer {
  base: string;
  stop(): Promise<void>;
}

export async function startBareServer(
  answers: CapturedAnswer[],
  workers: number,
): Promise<BareServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portolan-bare-'));
  const file = path.join(dir, 'answers.json');
  fs.writeFileSync(file, JSON.stringify(answers));
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname, 'bare-server.ts'), file, String(port), String(workers)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.on('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const ready = await new Promise<boolean>((resolve) => {
    const timeout = setTimeout(() => resolve(false), 30_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line === 'ready') {
        clearTimeout(timeout);
        resolve(true);
      }
    });
    child.on('exit', () => resolve(false));
  });
  if (!ready) {
    await stop();
    throw new Error('the bare Fastify server did not start');
  }
  const base = `http://127.0.0.1:${port}`;
  for (const answer of answers) {
    const res = await fetch(`${base}${answer.path}`);
    const body = await res.text();
    if (body !== answer.body || res.headers.get('content-type') !== answer.contentType) {
      await stop();
      throw new Error(`the bare Fastify server answers ${answer.path} with other bytes`);
    }
  }
  return { base, stop };
}
