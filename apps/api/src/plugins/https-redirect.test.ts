import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.ts';

describe('plain http to the production host', () => {
  let t: TestApp | undefined;
  afterEach(() => t?.close());

  const visit = (headers: Record<string, string>) =>
    t!.app.inject({ method: 'GET', url: '/login?path=%2Fps', headers });

  it('is redirected to https with 308 when PUBLIC_URL is https and the proxy is trusted', async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://portal.example.com', TRUST_PROXY: 'true' });
    const plain = await visit({ host: 'portal.example.com', 'x-forwarded-proto': 'http' });
    expect(plain.statusCode).toBe(308);
    expect(plain.headers.location).toBe('https://portal.example.com/login?path=%2Fps');
    // Already https, or another host (a health check by address): served as it is.
    const secure = await visit({ host: 'portal.example.com', 'x-forwarded-proto': 'https' });
    expect(secure.statusCode).not.toBe(308);
    const other = await visit({ host: '10.0.0.5:3000', 'x-forwarded-proto': 'http' });
    expect(other.statusCode).not.toBe(308);
  });

  it('is left alone without a trusted proxy, or with an http PUBLIC_URL', async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://portal.example.com' });
    expect((await visit({ host: 'portal.example.com' })).statusCode).not.toBe(308);
    await t.close();
    t = await createTestApp({ PUBLIC_URL: 'http://portal.example.com', TRUST_PROXY: 'true' });
    const plain = await visit({ host: 'portal.example.com', 'x-forwarded-proto': 'http' });
    expect(plain.statusCode).not.toBe(308);
  });
});
