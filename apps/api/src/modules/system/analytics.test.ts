import { afterEach, describe, expect, it } from 'vitest';
import { publicConfigSchema } from '@portolan/contract';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { loadConfig } from '../../config.ts';

/**
 * Spec §1 analytics: the public config names the sink, and the CSP lets the browser reach its
 * origin, only with FEATURE_ANALYTICS on and both ANALYTICS_ID and ANALYTICS_URL set.
 */
describe('analytics in the public config and the CSP', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function read(env: Record<string, string>) {
    t = await createTestApp(env);
    const config = await t.app.inject({ method: 'GET', url: '/v1/config' });
    expect(config.statusCode).toBe(200);
    const body = publicConfigSchema.parse(config.json());
    const page = await t.app.inject({ method: 'GET', url: '/v1/health' });
    const csp = String(page.headers['content-security-policy']);
    const connectSrc = /connect-src ([^;]*)/.exec(csp)?.[1];
    return { body, connectSrc };
  }

  it('on and configured: the sink is served and its origin (only) is allowed to connect', async () => {
    const { body, connectSrc } = await read({
      FEATURE_ANALYTICS: 'true',
      ANALYTICS_ID: 'PORTOLAN-1',
      ANALYTICS_URL: 'https://sink.example.net:8443/collect?v=1',
    });
    expect(body.analytics).toEqual({
      id: 'PORTOLAN-1',
      url: 'https://sink.example.net:8443/collect?v=1',
    });
    expect(body.features.analytics).toBe(true);
    expect(connectSrc).toBe("'self' https://sink.example.net:8443");
  });

  it.each([
    [
      'switched off',
      {
        FEATURE_ANALYTICS: 'false',
        ANALYTICS_ID: 'P-1',
        ANALYTICS_URL: 'https://sink.example.net/c',
      },
    ],
    ['without an id', { FEATURE_ANALYTICS: 'true', ANALYTICS_URL: 'https://sink.example.net/c' }],
    ['without a URL', { FEATURE_ANALYTICS: 'true', ANALYTICS_ID: 'P-1' }],
    ['with nothing configured', {}],
  ])('%s: no sink, and connect-src stays self', async (_label, env) => {
    const { body, connectSrc } = await read(env);
    expect(body.analytics).toBeNull();
    expect(connectSrc).toBe("'self'");
    expect(JSON.stringify(body)).not.toContain('sink.example.net');
  });

  it('refuses an ANALYTICS_URL that is not http(s) at start-up', () => {
    expect(() => loadConfig({ ANALYTICS_URL: 'javascript:alert(1)' })).toThrow(/ANALYTICS_URL/);
  });
});
