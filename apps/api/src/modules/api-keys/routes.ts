import {
  apiKeyCreatedSchema,
  apiKeyCreateSchema,
  apiKeyListSchema,
  apiKeyParamsSchema,
  errorBodySchema,
  orgParamsSchema,
} from '@portolan/contract';
import { z } from 'zod';
import type { App } from '../../context.ts';
import { requireActor } from '../access/index.ts';
import { createApiKey, listApiKeys, revokeApiKey } from './service.ts';

const tags = ['api-keys'];
const security = [{ bearerAuth: [] }];
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};
const managers = { organization: 'orgId', permission: 'organization.api_keys.manage' } as const;

/** An organization's API keys (issue 21 item 1): its OWNERs and ADMINs manage them. */
export async function apiKeyRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.post('/v1/organizations/:orgId/api-keys/', {
    config: { access: { ...managers, stepUp: true } },
    schema: {
      tags,
      summary:
        'Create an API key (`Authorization: Bearer ptl_…`) with permissions you hold, for all or some workspaces; the key is answered this once',
      security,
      params: orgParamsSchema,
      body: apiKeyCreateSchema,
      response: { 201: apiKeyCreatedSchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await createApiKey(ctx, requireActor(request), request.body)),
  });

  app.get('/v1/organizations/:orgId/api-keys/', {
    config: { access: managers },
    schema: {
      tags,
      summary:
        'The organization’s API keys (never the keys themselves), with when and where each was last used',
      security,
      params: orgParamsSchema,
      response: { 200: apiKeyListSchema, ...errors },
    },
    handler: async (request) => listApiKeys(ctx, requireActor(request)),
  });

  app.delete('/v1/organizations/:orgId/api-keys/:keyId/', {
    config: { access: managers },
    schema: {
      tags,
      summary: 'Revoke an API key: refused at once, on every instance within a second',
      security,
      params: apiKeyParamsSchema,
      response: { 204: z.null().describe('Revoked'), ...errors },
    },
    handler: async (request, reply) => {
      await revokeApiKey(ctx, requireActor(request), request.params.keyId);
      return reply.code(204).send(null);
    },
  });
}
