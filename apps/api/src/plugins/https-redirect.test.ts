import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.ts';
import { ConfigError, loadConfig } from '../config.ts';

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
    // (FORCE_HTTPS_HOSTS without TRUST_PROXY cannot even start: see the configuration below.)
    t = await createTestApp({ PUBLIC_URL: 'https://portal.example.com' });
    expect((await visit({ host: 'portal.example.com' })).statusCode).not.toBe(308);
    await t.close();
    t = await createTestApp({ PUBLIC_URL: 'http://portal.example.com', TRUST_PROXY: 'true' });
    const plain = await visit({ host: 'portal.example.com', 'x-forwarded-proto': 'http' });
    expect(plain.statusCode).not.toBe(308);
  });
});

describe('plain http to a host of FORCE_HTTPS_HOSTS', () => {
  let t: TestApp | undefined;
  afterEach(() => t?.close());

  const visit = (headers: Record<string, string>, url = '/ps/dashboard?tab=a%20b&x=1') =>
    t!.app.inject({ method: 'GET', url, headers });
  const forced = () =>
    createTestApp({
      PUBLIC_URL: 'http://localhost:3000',
      TRUST_PROXY: 'true',
      FORCE_HTTPS_HOSTS: 'Portal.Example.com, legacy.example.com:8080',
    });

  it('is redirected with 308 to https on the same host, path and query, in any case and on any port', async () => {
    t = await forced();
    for (const host of ['portal.example.com', 'PORTAL.example.COM', 'portal.example.com:80']) {
      const res = await visit({ host, 'x-forwarded-proto': 'http' });
      expect(res.statusCode, host).toBe(308);
      expect(res.headers.location, host).toBe(
        'https://portal.example.com/ps/dashboard?tab=a%20b&x=1',
      );
    }
    // Any method: 308 keeps it and the body.
    const post = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/app/login/',
      headers: { host: 'portal.example.com', 'x-forwarded-proto': 'http' },
      payload: {},
    });
    expect(post.statusCode).toBe(308);
    expect(post.headers.location).toBe('https://portal.example.com/v1/rest-auth/app/login/');
    // The host a trusted proxy forwards counts, as for PUBLIC_URL's.
    const forwarded = await visit({
      host: '10.0.0.5:3000',
      'x-forwarded-host': 'portal.example.com',
      'x-forwarded-proto': 'http',
    });
    expect(forwarded.statusCode).toBe(308);
  });

  it('matches a host:port entry only on that port', async () => {
    t = await forced();
    const listed = await visit({ host: 'legacy.example.com:8080', 'x-forwarded-proto': 'http' });
    expect(listed.statusCode).toBe(308);
    expect(listed.headers.location).toBe('https://legacy.example.com/ps/dashboard?tab=a%20b&x=1');
    for (const host of ['legacy.example.com', 'legacy.example.com:9090']) {
      const res = await visit({ host, 'x-forwarded-proto': 'http' });
      expect(res.statusCode, host).not.toBe(308);
    }
  });

  it('leaves https visits and unlisted hosts alone', async () => {
    t = await forced();
    const secure = await visit({ host: 'portal.example.com', 'x-forwarded-proto': 'https' });
    expect(secure.statusCode).not.toBe(308);
    for (const host of [
      'other.example.com',
      'eu.portal.example.com',
      'portal.example.com.evil',
      '127.0.0.1:3000',
    ]) {
      const res = await visit({ host, 'x-forwarded-proto': 'http' });
      expect(res.statusCode, host).not.toBe(308);
    }
    // The API still answers there.
    const health = await visit(
      { host: '127.0.0.1:3000', 'x-forwarded-proto': 'http' },
      '/v1/health',
    );
    expect(health.statusCode).toBe(200);
  });

  it('keeps the PUBLIC_URL rule beside the listed hosts', async () => {
    t = await createTestApp({
      PUBLIC_URL: 'https://portal.example.com',
      TRUST_PROXY: 'true',
      FORCE_HTTPS_HOSTS: 'www.example.com',
    });
    const pub = await visit({ host: 'portal.example.com', 'x-forwarded-proto': 'http' });
    expect(pub.headers.location).toBe('https://portal.example.com/ps/dashboard?tab=a%20b&x=1');
    const www = await visit({ host: 'www.example.com', 'x-forwarded-proto': 'http' });
    expect(www.headers.location).toBe('https://www.example.com/ps/dashboard?tab=a%20b&x=1');
  });
});

describe('FORCE_HTTPS_HOSTS in the configuration', () => {
  it('is refused at start-up without TRUST_PROXY, naming the variable', () => {
    expect(() => loadConfig({ FORCE_HTTPS_HOSTS: 'portal.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ FORCE_HTTPS_HOSTS: 'portal.example.com' })).toThrow(
      /FORCE_HTTPS_HOSTS: needs TRUST_PROXY=true/,
    );
  });

  it('is refused when an entry is not a host name', () => {
    for (const entry of [
      'https://portal.example.com',
      'portal.example.com/ps',
      'a b',
      '-x.example.com',
    ]) {
      expect(() => loadConfig({ FORCE_HTTPS_HOSTS: entry, TRUST_PROXY: 'true' }), entry).toThrow(
        /FORCE_HTTPS_HOSTS: ".*" is not a host name/,
      );
    }
  });

  it('is parsed lower-cased, and an empty list needs nothing', () => {
    expect(
      loadConfig({ FORCE_HTTPS_HOSTS: ' A.Example.com ,b.example.com:8443', TRUST_PROXY: 'true' })
        .forceHttpsHosts,
    ).toEqual(['a.example.com', 'b.example.com:8443']);
    expect(loadConfig({ FORCE_HTTPS_HOSTS: '' }).forceHttpsHosts).toEqual([]);
  });
});
