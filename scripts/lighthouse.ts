// `npm run lighthouse`: the first load of the built web app, measured (a benchmark, not a test).
// Builds the web app when stale, seeds the demo data into a fresh DATA_DIR, starts the real server
// on a free loopback port, then
//  1. sums the bytes sent for what index.html loads by itself (the HTML, the entry script, its
//     modulepreloads and stylesheets) with each Accept-Encoding: identity, gzip, br;
//  2. runs Lighthouse (default config: the mobile preset, simulated slow 4G and 4× CPU slowdown)
//     on /login, /register and the dashboard (/ps/dashboard signed in as the demo owner: the
//     token is put in localStorage key `auth` the way the web app persists it), LIGHTHOUSE_RUNS
//     times each (3 by default), and prints the median performance score and metrics; with
//     LIGHTHOUSE_REPORTS=<folder> each run's full report (JSON) is kept there.
// Chromium comes from CHROME_PATH (default /usr/bin/chromium, Debian's); nothing is downloaded
// and nothing leaves the machine. Target: performance ≥ 90 on /login and the dashboard.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { freePort } from './lib/bench.ts';
import { API_DIR, ROOT, SERVER_ENTRY, WEB_DIR } from './lib/paths.ts';
import { ensureWebBuild } from './lib/web-build.ts';

const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS) || 3);
/** When set, each run's report (JSON) is written into this folder. */
const REPORTS = process.env.LIGHTHOUSE_REPORTS ? path.resolve(process.env.LIGHTHOUSE_REPORTS) : '';
const SEED_CLI = path.join(API_DIR, 'src', 'seed', 'cli.ts');
// The demo owner of `npm run seed` (apps/api/src/seed/demo.ts).
const DEMO = { email: 'owner@portolan.demo', password: 'Portolan demo owner 2026' };
const TARGET = 90;

const log = (line: string) => console.log(`[lighthouse] ${line}`);

/** The raw bytes of an answer as sent (no decompression), with its Content-Encoding. */
function rawGet(url: string, acceptEncoding: string) {
  return new Promise<{ status: number; bytes: number; encoding: string; body: Buffer }>(
    (resolve, reject) => {
      http
        .get(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const body = Buffer.concat(chunks);
            resolve({
              status: res.statusCode ?? 0,
              bytes: body.length,
              encoding: String(res.headers['content-encoding'] ?? 'identity'),
              body,
            });
          });
          res.on('error', reject);
        })
        .on('error', reject);
    },
  );
}

/** What index.html loads by itself, and the bytes each encoding sends for it. */
async function firstLoadBytes(base: string) {
  const html = (await rawGet(`${base}/login`, 'identity')).body.toString('utf8');
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  const urls = ['/login', ...assets];
  const kinds = (u: string) => (u.endsWith('.css') ? 'css' : u.endsWith('.js') ? 'js' : 'html');
  console.log(
    `\nFirst load of /login: index.html + ${assets.length} files it names (entry, modulepreloads, stylesheets)`,
  );
  console.log(
    `${'Accept-Encoding'.padEnd(18)}${'html'.padStart(10)}${'js'.padStart(10)}${'css'.padStart(10)}${'total'.padStart(10)}  sent as`,
  );
  for (const accept of ['identity', 'gzip', 'br, gzip']) {
    const sum = { html: 0, js: 0, css: 0 };
    const sentAs = new Set<string>();
    for (const u of urls) {
      const res = await rawGet(`${base}${u}`, accept);
      if (res.status !== 200) throw new Error(`${u} answered ${res.status}`);
      sum[kinds(u)] += res.bytes;
      sentAs.add(res.encoding);
    }
    const total = sum.html + sum.js + sum.css;
    console.log(
      `${accept.padEnd(18)}${String(sum.html).padStart(10)}${String(sum.js).padStart(10)}${String(sum.css).padStart(10)}${String(total).padStart(10)}  ${[...sentAs].join(', ')}`,
    );
  }
}

interface BrowserStorage {
  clear(): void;
  setItem(key: string, value: string): void;
}

interface Sample {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
  bytes: number;
  requests: number;
  finalUrl: string;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
};

async function measure(
  browser: Awaited<ReturnType<typeof puppeteer.launch>>,
  base: string,
  pagePath: string,
  auth: string | null,
): Promise<Sample> {
  const page = await browser.newPage();
  try {
    // Set (or clear) the stored session on the origin without loading the app, so nothing of it
    // is cached before the run (Lighthouse clears the HTTP cache, but keeps localStorage).
    await page.goto(`${base}/v1/health`);
    await page.evaluate((value) => {
      // Runs in the page (this file is typed without the DOM library).
      const storage = (globalThis as unknown as { localStorage: BrowserStorage }).localStorage;
      storage.clear();
      if (value) storage.setItem('auth', value);
    }, auth);
    const result = await lighthouse(
      `${base}${pagePath}`,
      { logLevel: 'error', output: 'json', onlyCategories: ['performance'] },
      undefined,
      page,
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${pagePath}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`${pagePath}: ${lhr.runtimeError.message}`);
    if (REPORTS) {
      fs.mkdirSync(REPORTS, { recursive: true });
      const name = `${pagePath.replace(/\W+/g, '-').replace(/^-|-$/g, '')}-${Date.now()}.json`;
      fs.writeFileSync(path.join(REPORTS, name), JSON.stringify(lhr, null, 1));
    }
    const num = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    const requests = (lhr.audits['network-requests']?.details as { items?: unknown[] } | undefined)
      ?.items?.length;
    return {
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      fcp: num('first-contentful-paint'),
      lcp: num('largest-contentful-paint'),
      tbt: num('total-blocking-time'),
      cls: num('cumulative-layout-shift'),
      si: num('speed-index'),
      bytes: num('total-byte-weight'),
      requests: requests ?? 0,
      finalUrl: new URL(lhr.finalDisplayedUrl).pathname,
    };
  } finally {
    await page.close();
  }
}

/** Lighthouse now and then fails to record a trace (NO_NAVSTART, …): such a run is repeated. */
async function measureWithRetry(...args: Parameters<typeof measure>): Promise<Sample> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(...args);
    } catch (err) {
      if (attempt >= 3) throw err;
      log(`run failed, again: ${(err as Error).message}`);
    }
  }
}

async function signIn(base: string) {
  const json = { 'content-type': 'application/json' };
  const res = await fetch(`${base}/v1/rest-auth/app/login/`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify(DEMO),
  });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
  const { token } = (await res.json()) as { token: string };
  const me = (await (
    await fetch(`${base}/v1/rest-auth/user/`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { user_id: string; email: string; can_create_client: boolean };
  // The persisted shape of apps/web/src/lib/auth-store.ts (zustand `persist`, version 1).
  return JSON.stringify({
    state: {
      userToken: token,
      user: { user_id: me.user_id, email: me.email, can_create_client: me.can_create_client },
      avatarURL: null,
      current_client: null,
      role: { userRole: null, currentEditClientId: null },
      ps_current_channel: {},
      org: { current: null, list: [], param: null },
    },
    version: 1,
  });
}

async function main() {
  if (!fs.existsSync(CHROME_PATH)) {
    throw new Error(`no Chromium at ${CHROME_PATH} (apt-get install chromium, or set CHROME_PATH)`);
  }
  if (!(await ensureWebBuild(log))) process.exit(1);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portolan-lighthouse-'));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    SMTP_URL: '',
    LOG_LEVEL: 'warn',
    WEB_DIST: path.join(WEB_DIR, 'dist'),
  };
  let server: ChildProcess | undefined;
  let browser: Awaited<ReturnType<typeof puppeteer.launch>> | undefined;
  try {
    execFileSync(process.execPath, [SEED_CLI], {
      env,
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [SERVER_ENTRY], {
      env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    for (let i = 0; ; i++) {
      const up = await fetch(`${base}/v1/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (i > 300 || server.exitCode !== null) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }

    await firstLoadBytes(base);
    const auth = await signIn(base);

    browser = await puppeteer.launch({
      executablePath: CHROME_PATH,
      headless: true,
      args: ['--no-sandbox', '--disable-dev-shm-usage'],
    });
    const pages: { name: string; path: string; auth: string | null; target: boolean }[] = [
      { name: '/login', path: '/login', auth: null, target: true },
      { name: '/register', path: '/register', auth: null, target: false },
      { name: 'dashboard (demo owner)', path: '/ps/dashboard', auth, target: true },
    ];
    console.log(
      `\nLighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version}, mobile preset, median of ${RUNS} run(s); times in ms, bytes transferred`,
    );
    console.log(
      `${'page'.padEnd(24)}${'score'.padStart(6)}${'FCP'.padStart(7)}${'LCP'.padStart(7)}${'TBT'.padStart(6)}${'CLS'.padStart(6)}${'SI'.padStart(7)}${'bytes'.padStart(9)}${'reqs'.padStart(6)}  runs`,
    );
    let missed = false;
    for (const p of pages) {
      const samples: Sample[] = [];
      for (let i = 0; i < RUNS; i++)
        samples.push(await measureWithRetry(browser, base, p.path, p.auth));
      const wrong = samples.find((s) => s.finalUrl !== p.path);
      if (wrong) throw new Error(`${p.path} ended on ${wrong.finalUrl}`);
      const m = (k: keyof Omit<Sample, 'finalUrl'>) => median(samples.map((s) => s[k]));
      const score = m('score');
      if (p.target && score < TARGET) missed = true;
      console.log(
        `${p.name.padEnd(24)}${String(score).padStart(6)}${m('fcp').toFixed(0).padStart(7)}${m('lcp').toFixed(0).padStart(7)}${m('tbt').toFixed(0).padStart(6)}${m('cls').toFixed(3).padStart(6)}${m('si').toFixed(0).padStart(7)}${m('bytes').toFixed(0).padStart(9)}${m('requests').toFixed(0).padStart(6)}  ${samples.map((s) => s.score).join(' ')}`,
      );
    }
    console.log(
      missed
        ? `\nBelow the target of ${TARGET} on /login or the dashboard.`
        : `\nTarget met: ${TARGET} or more on /login and the dashboard.`,
    );
  } finally {
    await browser?.close();
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
