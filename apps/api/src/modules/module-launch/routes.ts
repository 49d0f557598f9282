import {
  errorBodySchema,
  jwksSchema,
  moduleLaunchParamsSchema,
  moduleLaunchSchema,
} from '@portolan/contract';
import type { App } from '../../context.ts';
import { requireActor } from '../access/index.ts';
import { launchModule } from './service.ts';
import { publishedKeys } from './signing-keys.ts';

/**
 * How long a verifier may keep the JWKS: short beside a retired key's RETIRED_KEY_PUBLISHED_MS,
 * and a verifier meeting an unknown kid (a new key) fetches again anyway.
 */
const JWKS_MAX_AGE_S = 300;

/** Module launch tokens and the public keys that verify them (issue 21 item 4). */
export async function moduleLaunchRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.get('/.well-known/jwks.json', {
    config: {
      access: {
        public:
          'modules verify launch tokens offline with these public keys; nothing in it is secret',
      },
    },
    schema: {
      tags: ['module-launch'],
      summary:
        'The public keys (JWKS) that verify module launch tokens: the current key and those retired less than the token lifetime plus a minute ago',
      response: { 200: jwksSchema, 503: errorBodySchema },
    },
    handler: async (_request, reply) => {
      reply.header('cache-control', `public, max-age=${JWKS_MAX_AGE_S}`);
      return publishedKeys(ctx);
    },
  });

  app.post('/v1/clients/:clientId/modules/:module/launch/', {
    // Any member of the workspace (an organization OWNER or ADMIN through that role); the token
    // says what they may do in the module.
    config: { access: { client: 'clientId', permission: 'client.read', person: true } },
    schema: {
      tags: ['module-launch'],
      summary:
        'A short-lived token (ES256 JWT, at most 5 minutes) that opens the module’s own app as the caller: who they are, their role and their permissions in the module; 409 MODULE_NOT_ENABLED when the module is off here or not part of this app',
      security: [{ bearerAuth: [] }],
      params: moduleLaunchParamsSchema,
      response: {
        200: moduleLaunchSchema,
        400: errorBodySchema,
        401: errorBodySchema,
        403: errorBodySchema,
        404: errorBodySchema,
        409: errorBodySchema,
      },
    },
    handler: async (request, reply) => {
      // A credential: no cache, no proxy, may keep it.
      reply.header('cache-control', 'no-store');
      return launchModule(ctx, requireActor(request), request.params.module);
    },
  });
}
