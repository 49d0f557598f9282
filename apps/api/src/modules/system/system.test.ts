// engine-parity: the health check names the engine it runs on
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicConfigSchema } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { testEngine } from '../../../test/support/database.ts';

const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'portolan-web-'));
fs.mkdirSync(path.join(webDist, 'assets'));
fs.writeFileSync(
  path.join(webDist, 'index.html'),
  '<!doctype html><title>Portolan</title><div id="root"></div>',
);
fs.writeFileSync(path.join(webDist, 'assets', 'index-abc123.js'), 'console.log(1)');

describe('system endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ WEB_DIST: webDist, FEATURE_ANALYTICS: 'false' });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('reports health with the database engine', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: testEngine, version: 'v1.7.4' });
  });

  it('serves the public build switches', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/config' });
    expect(res.statusCode).toBe(200);
    const body = publicConfigSchema.parse(res.json());
    expect(body).toMatchObject({
      version: 'v1.7.4',
      app_profile: 'transit',
      modules: ['TR'],
      support_email: 'support@example.com',
      features: {
        registration: true,
        // on by default, but no GOOGLE_CLIENT_ID is set: the button stays hidden
        google_login: false,
        billing: true,
        auto_pick_workspace: false,
        modern_look: false,
        analytics: false,
      },
    });
  });

  it('sends security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/login' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("script-src 'self' 'unsafe-inline'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves the SPA for app paths, with index.html never cached', async () => {
    for (const url of ['/', '/login', '/ps/dashboard', '/some/unknown/page']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('caches hashed assets for a year and 404s missing ones', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await t.app.inject({ method: 'GET', url: '/assets/missing-123.js' });
    expect(missing.statusCode).toBe(404);
  });

  it('serves OpenAPI at /docs/json, equal to the committed openapi.json', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const committed = JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, '../../../openapi.json'), 'utf8'),
    );
    // If this fails after an API change, run `npm run openapi` and commit openapi.json.
    expect(res.json()).toEqual(committed);
    const ui = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(ui.statusCode).toBe(200);
  });
});

describe('request logs', () => {
  it('never contain query strings (they can carry one-time tokens)', async () => {
    const lines: string[] = [];
    const t = await createTestApp(
      { LOG_LEVEL: 'info' },
      { logStream: { write: (l) => lines.push(l) } },
    );
    try {
      await t.app.inject({ method: 'GET', url: '/reset-password?token=secret-reset-token-123' });
      await t.app.inject({ method: 'GET', url: '/v1/health?probe=secret-probe-456' });
      const log = lines.join('');
      expect(log).toContain('/reset-password');
      expect(log).toContain('/v1/health');
      expect(log).not.toContain('secret-reset-token-123');
      expect(log).not.toContain('secret-probe-456');
    } finally {
      await t.close();
    }
  });
});
