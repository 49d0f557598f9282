import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedSchema, SCHEMA_FILE } from './generate.ts';
import { createPortolanClient, launchVerifier } from './index.ts';

/** A local HTTP server that records each request and answers what `answer` says. */
async function localServer(answer: (req: http.IncomingMessage, body: string) => [number, unknown]) {
  const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] =
    [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const [status, json] = answer(req, body);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, seen, close: () => new Promise((r) => server.close(r)) };
}

describe('the SDK', () => {
  it('is generated from the committed openapi.json (run `npm run generate -w @portolan/sdk`)', async () => {
    expect(fs.readFileSync(SCHEMA_FILE, 'utf8') === (await generatedSchema())).toBe(true);
  });

  it('calls the API with the key, typed paths and parameters', async () => {
    const api = await localServer(() => [201, { included: false, amount: 25 }]);
    try {
      const portolan = createPortolanClient({ baseUrl: `${api.base}/`, apiKey: 'ptl_test' });
      const orgId = '5f0c6f9e-2b7a-4a53-9f4e-6b9a1d1e2c3f';
      const { data, error } = await portolan.POST('/v1/organizations/{orgId}/balance/charges/', {
        params: { path: { orgId }, header: { 'idempotency-key': 'k-1' } },
        body: { service: 'SHIPPING_LABEL', quantity: 1 },
      });
      expect(error).toBeUndefined();
      expect(data).toMatchObject({ amount: 25 });
      expect(api.seen[0]).toMatchObject({
        method: 'POST',
        url: `/v1/organizations/${orgId}/balance/charges/`,
        headers: { authorization: 'Bearer ptl_test', 'idempotency-key': 'k-1' },
      });
      expect(JSON.parse(api.seen[0]!.body)).toEqual({ service: 'SHIPPING_LABEL', quantity: 1 });
    } finally {
      await api.close();
    }
  });

  describe('launch tokens', () => {
    let portal: Awaited<ReturnType<typeof localServer>>;
    let sign: (claims: Record<string, unknown>, aud?: string, exp?: string) => Promise<string>;
    beforeAll(async () => {
      const { privateKey, publicKey } = await generateKeyPair('ES256');
      const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
      portal = await localServer(() => [200, { keys: [jwk] }]);
      sign = (claims, aud = 'portolan-module:TR', exp = '5m') =>
        new SignJWT(claims)
          .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
          .setIssuer(portal.base)
          .setAudience(aud)
          .setSubject('user-1')
          .setIssuedAt()
          .setExpirationTime(exp)
          .sign(privateKey);
    });
    afterAll(() => portal.close());

    it('verifies a token against the portal’s JWKS, and refuses another module’s or an expired one', async () => {
      const verify = launchVerifier({ portalUrl: portal.base, module: 'TR' });
      const claims = await verify(
        await sign({ client: 'c', org: 'o', role: 'STAFF', permissions: ['tr.history.view'] }),
      );
      expect(claims).toMatchObject({
        sub: 'user-1',
        client: 'c',
        org: 'o',
        role: 'STAFF',
        permissions: ['tr.history.view'],
      });
      expect(portal.seen[0]!.url).toBe('/.well-known/jwks.json');
      await expect(verify(await sign({}, 'portolan-module:PF'))).rejects.toThrow();
      await expect(verify(await sign({}, 'portolan-module:TR', '-1m'))).rejects.toThrow();
      const elsewhere = launchVerifier({ portalUrl: 'http://127.0.0.1:1', module: 'TR' });
      await expect(elsewhere(await sign({}))).rejects.toThrow();
    });
  });
});
