import { z } from 'zod';
import { MODULE_CODES, type ModuleCode, type Role } from './constants.ts';

/**
 * Module launches (issue 21 item 4): a workspace member opens a module's own app with a short-lived
 * token signed by Portolan (ES256), which the module verifies offline against the public keys at
 * GET /.well-known/jwks.json.
 */

/** A launch token lives this long at most: enough to carry it to the module, too short to replay. */
export const MODULE_LAUNCH_TOKEN_TTL_S = 300;

/** The signing algorithm of launch tokens and their keys. */
export const MODULE_LAUNCH_ALGORITHM = 'ES256';

/** The audience of a launch token for one module: a token for one module is refused by another. */
export const moduleLaunchAudience = (module: ModuleCode) => `portolan-module:${module}`;

/** The claims a module receives, besides iss, aud, sub, iat, exp and jti. */
export interface ModuleLaunchClaims {
  /** The workspace's id. */
  client: string;
  /** The workspace's organization's id. */
  org: string;
  /** The caller's role in the workspace as it counts (an organization OWNER or ADMIN acts as such). */
  role: Role;
  /** The module's permission keys the caller is allowed, in catalogue order. */
  permissions: string[];
}

/** POST /v1/clients/{clientId}/modules/{module}/launch/ */
export const moduleLaunchParamsSchema = z.strictObject({
  clientId: z.uuid('Not a valid id.'),
  module: z.enum(MODULE_CODES, `Choose a module: ${MODULE_CODES.join(', ')}.`),
});

export const moduleLaunchSchema = z.object({
  /** The signed JWT (header kid and alg ES256); hand it to the module, never keep it. */
  token: z.string(),
  /** Where the module's app receives a launch (a form POST with the field `token`); null: not configured. */
  url: z.string().nullable(),
  expires_at: z.iso.datetime({ offset: true }),
});
export type ModuleLaunch = z.infer<typeof moduleLaunchSchema>;

/** One public key of the JWKS: an EC P-256 key (RFC 7517, 7518). */
const publicJwkSchema = z.object({
  kty: z.literal('EC'),
  crv: z.literal('P-256'),
  x: z.string(),
  y: z.string(),
  kid: z.string(),
  alg: z.literal(MODULE_LAUNCH_ALGORITHM),
  use: z.literal('sig'),
});

/** GET /.well-known/jwks.json: the keys a launch token may be signed with. */
export const jwksSchema = z.object({ keys: z.array(publicJwkSchema) });
export type Jwks = z.infer<typeof jwksSchema>;
