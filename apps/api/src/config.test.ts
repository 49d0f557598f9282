import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, REPO_ROOT } from './config.ts';

describe('configuration', () => {
  it('works with nothing set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      dataDir: path.join(REPO_ROOT, 'data'),
      databaseUrl: undefined,
      appProfile: 'transit',
      supportEmail: 'support@example.com',
      features: {
        registration: true,
        googleLogin: true,
        billing: true,
        autoPickWorkspace: false,
        modernLook: false,
        analytics: true,
      },
      payments: { gateway: 'sandbox' },
      internalEmailDomains: [],
    });
  });

  it('reads switches, lists and relative paths', () => {
    const config = loadConfig({
      FEATURE_BILLING: 'false',
      FEATURE_AUTO_PICK_WORKSPACE: '1',
      INTERNAL_EMAIL_DOMAINS: ' Portolan.io, example.org ,',
      DATA_DIR: 'var/data',
      INIT_CWD: '/srv/portolan',
      PUBLIC_URL: 'https://portal.example.com/',
    });
    expect(config.features.billing).toBe(false);
    expect(config.features.autoPickWorkspace).toBe(true);
    expect(config.internalEmailDomains).toEqual(['portolan.io', 'example.org']);
    expect(config.dataDir).toBe('/srv/portolan/var/data');
    expect(config.publicUrl).toBe('https://portal.example.com');
  });

  it.each([
    ['PORT', 'eighty'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['SMTP_URL', 'not a url'],
    ['FEATURE_REGISTRATION', 'maybe'],
    ['APP_PROFILE', 'shipping'],
    ['PAYMENT_GATEWAY', 'paypal'],
    ['JWT_SECRET', 'short'],
    ['REQUEST_TIMEOUT_MS', '30s'],
    ['REQUEST_TIMEOUT_MS', '0'],
    ['MAX_CONNECTIONS', '0'],
    ['DATABASE_CONNECT_TIMEOUT_MS', '-1'],
  ])('stops on a bad %s, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });

  it('has timeouts and a connection cap by default, each one configurable', () => {
    const defaults = loadConfig({});
    expect(defaults.http).toEqual({
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 72_000,
      maxConnections: 1024,
    });
    expect(defaults.databaseConnectTimeoutMs).toBe(2_000);
    expect(defaults.databaseStatementTimeoutMs).toBe(5_000);
    const set = loadConfig({
      REQUEST_TIMEOUT_MS: '1000',
      KEEP_ALIVE_TIMEOUT_MS: '5000',
      MAX_CONNECTIONS: '10',
      DATABASE_CONNECT_TIMEOUT_MS: '500',
      DATABASE_STATEMENT_TIMEOUT_MS: '60000',
    });
    expect(set.http).toEqual({
      requestTimeoutMs: 1000,
      keepAliveTimeoutMs: 5000,
      maxConnections: 10,
    });
    expect(set.databaseConnectTimeoutMs).toBe(500);
    expect(set.databaseStatementTimeoutMs).toBe(60_000);
  });

  it('builds links on the address the server listens on when PUBLIC_URL is unset', () => {
    expect(loadConfig({ PORT: '3101' }).publicUrl).toBe('http://localhost:3101');
    expect(loadConfig({ PORT: '3101', HOST: '0.0.0.0' }).publicUrl).toBe('http://localhost:3101');
    expect(loadConfig({ PORT: '8080', HOST: 'portal.lan' }).publicUrl).toBe(
      'http://portal.lan:8080',
    );
    expect(loadConfig({ PORT: '3101', HOST: 'fd00::5' }).publicUrl).toBe('http://[fd00::5]:3101');
    expect(loadConfig({ PORT: '80', HOST: '10.0.0.7' }).publicUrl).toBe('http://10.0.0.7');
    // PUBLIC_URL, when set, wins.
    expect(loadConfig({ PORT: '3101', PUBLIC_URL: 'https://portal.example.com/' }).publicUrl).toBe(
      'https://portal.example.com',
    );
  });

  it('reads MODULE_URLS: each module code once, with an http(s) URL', () => {
    expect(loadConfig({}).moduleUrls).toEqual({});
    expect(
      loadConfig({
        MODULE_URLS: ' TR=https://tr.example.com/launch?from=portolan , pf=http://localhost:4100/,',
      }).moduleUrls,
    ).toEqual({
      TR: 'https://tr.example.com/launch?from=portolan',
      PF: 'http://localhost:4100/',
    });
  });

  it.each([
    ['XX=https://x.example.com/', '"XX" is not a module code'],
    ['TR', 'an entry without ='],
    ['TR=', 'TR: not a URL'],
    ['TR=tr.example.com/launch', 'TR: not a URL'],
    ['TR=ftp://tr.example.com/', 'TR: the URL must start with http:// or https://'],
    ['TR=https://a.example.com/,TR=https://b.example.com/', 'TR is given twice'],
    ['TR=https://ops:hunter2@tr.example.com/', 'TR: the URL must not hold a user name or password'],
  ])('stops on MODULE_URLS=%s, naming it and the problem', (value, problem) => {
    expect(() => loadConfig({ MODULE_URLS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ MODULE_URLS: value })).toThrow(`MODULE_URLS: ${problem}`);
    // A password in it is never repeated.
    expect(() => loadConfig({ MODULE_URLS: value })).not.toThrow(/hunter2/);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
    });
  });
});
