import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.ts';
import { decoded, injectWithEncoding, varies } from './test-encoding.ts';

/** A built web app of our own: files with brotli and gzip copies made here, as the build does. */
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'portolan-web-'));
fs.mkdirSync(path.join(dist, 'assets'));
const INDEX = `<!doctype html><html lang="en"><head><title>Portolan</title>${'<meta name="x" content="padding to pass the compression threshold">'.repeat(30)}</head><body><div id="root"></div></body></html>`;
const ENTRY = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{id:${i},name:"row ${i}"}`).join(',')}];\n`;
const CSS = `${Array.from({ length: 200 }, (_, i) => `.c${i}{color:#${String(i).padStart(6, '0')}}`).join('\n')}\n`;
const write = (file: string, text: string, copies: ('br' | 'gz')[]) => {
  const data = Buffer.from(text);
  fs.writeFileSync(path.join(dist, file), data);
  if (copies.includes('br'))
    fs.writeFileSync(path.join(dist, `${file}.br`), zlib.brotliCompressSync(data));
  if (copies.includes('gz')) fs.writeFileSync(path.join(dist, `${file}.gz`), zlib.gzipSync(data));
};
write('index.html', INDEX, ['br', 'gz']);
write('assets/index-abc123.js', ENTRY, ['br', 'gz']);
// A stylesheet with a gzip copy only: a client accepting both gets gzip.
write('assets/index-def456.css', CSS, ['gz']);
// Under the build's 1 KiB threshold: no copies, always sent as is.
write('assets/small-abc123.js', 'console.log(1);\n', []);

const YEAR = 'public, max-age=31536000, immutable';

describe('static web app: precompressed files by Accept-Encoding', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ WEB_DIST: dist });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const get = injectWithEncoding(() => t);

  it('sends the brotli copy when br is accepted, with the headers of the original', async () => {
    const res = await get('/assets/index-abc123.js', 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
    expect(res.headers['cache-control']).toBe(YEAR);
    expect(varies(res.headers)).toBe(true);
    const br = fs.readFileSync(path.join(dist, 'assets/index-abc123.js.br'));
    expect(Number(res.headers['content-length'])).toBe(br.length);
    expect(res.rawPayload.equals(br)).toBe(true);
    expect(decoded(res)).toBe(ENTRY);
  });

  it('sends the gzip copy when gzip is accepted and br is not', async () => {
    for (const accept of ['gzip', 'gzip, deflate', 'br;q=0, gzip', '*']) {
      const res = await get('/assets/index-abc123.js', accept);
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe('gzip');
      expect(res.headers['cache-control'], accept).toBe(YEAR);
      expect(varies(res.headers), accept).toBe(true);
      expect(decoded(res), accept).toBe(ENTRY);
    }
  });

  it('sends the file as is when no compression is accepted', async () => {
    for (const accept of [undefined, '', 'identity', 'deflate', 'br;q=0, gzip;q=0']) {
      const res = await get('/assets/index-abc123.js', accept);
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBeUndefined();
      expect(res.headers['content-type'], accept).toMatch(/javascript/);
      expect(res.headers['cache-control'], accept).toBe(YEAR);
      // A shared cache must not hand this copy to a client that accepts br (or the other way).
      expect(varies(res.headers), accept).toBe(true);
      expect(Number(res.headers['content-length']), accept).toBe(Buffer.byteLength(ENTRY));
      expect(res.body, accept).toBe(ENTRY);
    }
  });

  it('falls back to the copies that exist', async () => {
    const css = await get('/assets/index-def456.css', 'br, gzip');
    expect(css.headers['content-encoding']).toBe('gzip');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(decoded(css)).toBe(CSS);
    const small = await get('/assets/small-abc123.js', 'br, gzip');
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toBe('console.log(1);\n');
  });

  it('compresses index.html of the SPA fallback, never cached', async () => {
    for (const url of ['/', '/login', '/ps/dashboard', '/some/unknown/page?x=1']) {
      const br = await get(url, 'gzip, deflate, br');
      expect(br.statusCode, url).toBe(200);
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(br.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(br.headers['cache-control'], url).toBe('no-cache');
      expect(varies(br.headers), url).toBe(true);
      expect(decoded(br), url).toBe(INDEX);

      const gz = await get(url, 'gzip');
      expect(gz.headers['content-encoding'], url).toBe('gzip');
      expect(decoded(gz), url).toBe(INDEX);

      const plain = await get(url);
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(plain.headers['content-type'], url).toMatch(/^text\/html/);
      expect(plain.headers['cache-control'], url).toBe('no-cache');
      expect(plain.body, url).toBe(INDEX);
    }
  });

  it('answers HEAD with the headers of the matching GET and no body', async () => {
    for (const url of ['/assets/index-abc123.js', '/login']) {
      for (const accept of ['br', 'gzip', 'identity']) {
        const head = await get(url, accept, 'HEAD');
        const full = await get(url, accept);
        expect(head.statusCode, `${url} ${accept}`).toBe(200);
        expect(head.rawPayload.length, `${url} ${accept}`).toBe(0);
        expect(head.headers['content-encoding'], `${url} ${accept}`).toBe(
          accept === 'identity' ? undefined : accept,
        );
        for (const name of [
          'content-encoding',
          'content-type',
          'content-length',
          'cache-control',
        ]) {
          expect(head.headers[name], `${url} ${accept} ${name}`).toBe(full.headers[name]);
        }
      }
    }
  });

  it('never serves the copies under their own names, nor compresses API 404s', async () => {
    for (const url of [
      '/assets/index-abc123.js.br',
      '/assets/index-abc123.js.gz',
      '/index.html.br',
    ]) {
      const res = await get(url, 'br, gzip');
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.headers['content-encoding'], url).toBeUndefined();
      expect(res.json(), url).toMatchObject({ code: 'NOT_FOUND' });
    }
  });
});

/**
 * The real build, when apps/web/dist holds one made with the precompress plugin of
 * apps/web/vite.config.ts (`npm run build`): everything index.html loads by itself has its brotli
 * and gzip copies, and each is served and decodes to the file.
 */
const realDist = path.resolve(import.meta.dirname, '../../../web/dist');
const built =
  fs.existsSync(path.join(realDist, 'index.html')) &&
  fs.existsSync(path.join(realDist, 'assets')) &&
  fs.readdirSync(path.join(realDist, 'assets')).some((f) => f.endsWith('.br'));

describe.skipIf(!built)('static web app: the real build', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ WEB_DIST: realDist });
  });
  afterAll(() => t.close());

  it('serves the entry script, its preloads and the stylesheet compressed', async () => {
    const html = fs.readFileSync(path.join(realDist, 'index.html'), 'utf8');
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    for (const url of ['/login', ...assets]) {
      const file = path.join(realDist, url === '/login' ? 'index.html' : url);
      const original = fs.readFileSync(file, 'utf8');
      for (const [accept, coding] of [
        ['br, gzip', 'br'],
        ['gzip', 'gzip'],
      ] as const) {
        const res = await t.app.inject({
          method: 'GET',
          url,
          headers: { 'accept-encoding': accept },
        });
        expect(res.statusCode, url).toBe(200);
        // The build skips files under 1 KiB; everything bigger comes compressed.
        if (original.length >= 1024) expect(res.headers['content-encoding'], url).toBe(coding);
        expect(decoded(res), url).toBe(original);
      }
    }
  });
});

describe('static web app: app.html for the signed-in pages', () => {
  const appDist = fs.mkdtempSync(path.join(os.tmpdir(), 'portolan-web-app-'));
  const PUBLIC_HTML = '<!doctype html><title>public</title>';
  const APP_HTML = '<!doctype html><title>app</title><link rel="modulepreload" href="/x.js">';
  fs.writeFileSync(path.join(appDist, 'index.html'), PUBLIC_HTML);
  fs.writeFileSync(path.join(appDist, 'app.html'), APP_HTML);
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ WEB_DIST: appDist });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(appDist, { recursive: true, force: true });
  });

  it('sends index.html to the public pages and app.html to the others', async () => {
    const page = async (url: string) => (await t.app.inject({ method: 'GET', url })).body;
    for (const url of [
      '/',
      '/login',
      '/register/',
      '/forgot-password?x=1',
      '/reset-password',
      '/ps/clients/invitation',
      '/share/abc',
      '/tr/0c000000-0000-4000-8000-000000000001/share/abc',
    ])
      expect(await page(url), url).toBe(PUBLIC_HTML);
    for (const url of ['/ps/dashboard', '/ps/profile/', '/tr/x/home', '/redirect?path=/', '/nope'])
      expect(await page(url), url).toBe(APP_HTML);
  });
});
