// `npm run bench`: latency of the hot API paths on a real server (embedded PGlite, fresh DATA_DIR,
// loopback only). It registers and activates one account (reading the code from the .eml copy),
// then times sequential requests and prints p50/p95 in milliseconds. Numbers, not pass/fail:
// performance targets live here, not in timed tests.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SERVER_ENTRY } from './lib/paths.ts';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portolan-bench-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [SERVER_ENTRY], {
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', SMTP_URL: '' },
  stdio: ['ignore', 'inherit', 'inherit'],
});

async function main() {
  for (let i = 0; ; i++) {
    const up = await fetch(`${base}/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 200) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const email = `bench@example.com`;
  const password = 'Bench mark passphrase 1';
  const json = { 'content-type': 'application/json' };
  const reg = (await fetch(`${base}/v1/rest-auth/registration/`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      email,
      password1: password,
      password2: password,
      first_name: 'B',
      last_name: 'M',
    }),
  }).then((r) => r.json())) as { token: string };
  const mailDir = path.join(dataDir, 'mail');
  let code: string | undefined;
  for (let i = 0; !code && i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const file = fs.existsSync(mailDir) ? fs.readdirSync(mailDir)[0] : undefined;
    if (file) code = /^(\d{6})$/m.exec(fs.readFileSync(path.join(mailDir, file), 'utf8'))?.[1];
  }
  if (!code) throw new Error('no activation code was written');
  const act = await fetch(`${base}/v1/rest-auth/registration/activation/`, {
    method: 'PATCH',
    headers: { ...json, authorization: `Bearer ${reg.token}` },
    body: JSON.stringify({ code }),
  });
  if (act.status !== 200) throw new Error(`activation answered ${act.status}`);

  const time = async (name: string, n: number, fn: () => Promise<void>) => {
    const samples: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await fn();
      samples.push(performance.now() - t0);
    }
    samples.sort((a, b) => a - b);
    const at = (q: number) => samples[Math.min(n - 1, Math.floor(n * q))]!.toFixed(1);
    console.log(
      `${name.padEnd(48)} n=${String(n).padStart(4)}  p50 ${at(0.5).padStart(6)} ms  p95 ${at(0.95).padStart(6)} ms`,
    );
  };

  let token = '';
  // Stays under the per-IP sign-in limit (50 per 15 minutes).
  await time('POST /v1/rest-auth/app/login/ (argon2id)', 30, async () => {
    const res = await fetch(`${base}/v1/rest-auth/app/login/`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email, password }),
    });
    token = ((await res.json()) as { token: string }).token;
  });
  await time('GET /v1/rest-auth/user/ (token + session check)', 500, async () => {
    await (
      await fetch(`${base}/v1/rest-auth/user/`, { headers: { authorization: `Bearer ${token}` } })
    ).text();
  });
  await time('GET /v1/config', 500, async () => {
    await (await fetch(`${base}/v1/config`)).text();
  });
  await time('GET /v1/health (database ping)', 500, async () => {
    await (await fetch(`${base}/v1/health`)).text();
  });
}

try {
  await main();
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.on('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
