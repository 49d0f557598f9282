/**
 * The Portolan SDK: a typed client of the API (openapi-fetch over the types generated from
 * openapi.json) and the check of a module launch token against the published keys. For a
 * customer's systems and a module's back end (issue 21 item 7); docs/modules.md shows both at work.
 */
import createClient, { type Client } from 'openapi-fetch';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { paths } from './schema.ts';

export type { components, paths } from './schema.ts';
export type PortolanClient = Client<paths>;

/**
 * A client of the API at `baseUrl` (the portal's public URL), authenticated with an organization
 * API key (`ptl_…`) or a session token. Every call is typed by path, method, parameters and body:
 *
 *   const portolan = createPortolanClient({ baseUrl, apiKey });
 *   const { data, error } = await portolan.POST('/v1/organizations/{orgId}/balance/charges/', {
 *     params: { path: { orgId }, header: { 'idempotency-key': key } },
 *     body: { service: 'SHIPPING_LABEL', quantity: 1 },
 *   });
 */
export function createPortolanClient(options: {
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
}): PortolanClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch && { fetch: options.fetch }),
  });
}

/** What a module launch token says (POST /v1/clients/{clientId}/modules/{module}/launch/). */
export interface ModuleLaunchClaims extends JWTPayload {
  /** The user's id. */
  sub: string;
  /** The workspace (client) and organization ids. */
  client: string;
  org: string;
  /** The user's role in the workspace. */
  role: string;
  /** The module's permissions the user has (effective ALLOW). */
  permissions: string[];
}

/**
 * A verifier of launch tokens for one module: the signature against the portal's JWKS
 * (`/.well-known/jwks.json`, fetched and cached by jose, refetched for an unknown key id), the
 * issuer (the portal's public URL), the audience `portolan-module:<MODULE>` and the expiry.
 * Offline after the first fetch: no call to the portal per launch.
 */
export function launchVerifier(options: { portalUrl: string; module: string }) {
  const issuer = options.portalUrl.replace(/\/+$/, '');
  const keys = createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`));
  return async (token: string): Promise<ModuleLaunchClaims> => {
    const { payload } = await jwtVerify(token, keys, {
      issuer,
      audience: `portolan-module:${options.module}`,
      algorithms: ['ES256'],
    });
    return payload as ModuleLaunchClaims;
  };
}
