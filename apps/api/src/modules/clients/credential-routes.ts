import { credentialStatusSchema, errorBodySchema } from '@portolan/contract';
import { z } from 'zod';
import type { App } from '../../context.ts';
import { requireActor } from '../access/index.ts';

const clientParams = z.strictObject({ id: z.uuid() });

/**
 * The marketplace-seller credential status of a workspace (spec §3, §7 "credential status
 * fetch"), from the checker configuration chose (lib/credentials). Any member may read it: the
 * alert it feeds is on every workspace page (§2).
 */
export async function credentialRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.get('/v1/clients/:id/credential-status/', {
    config: { access: { client: 'id', permission: null } },
    schema: {
      tags: ['clients'],
      summary:
        'Whether the workspace’s marketplace-seller credential passes its check, with the checker’s message (plain text); a check that could not be made answers is_valid true with a message saying so',
      security: [{ bearerAuth: [] }],
      params: clientParams,
      response: {
        200: credentialStatusSchema,
        400: errorBodySchema,
        401: errorBodySchema,
        404: errorBodySchema,
      },
    },
    handler: async (request) => {
      const { client } = requireActor(request);
      if (!client) throw new Error('credential status without a workspace actor');
      return ctx.credentials.check({
        id: client.id,
        organization_id: client.organization_id,
        name: client.name,
      });
    },
  });
}
