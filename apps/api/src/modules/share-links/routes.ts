import {
  errorBodySchema,
  sharedViewParamsSchema,
  sharedViewSchema,
  shareLinkClientParamsSchema,
  shareLinkCreatedSchema,
  shareLinkCreateSchema,
  shareLinkListQuerySchema,
  shareLinkPageSchema,
  shareLinkParamsSchema,
} from '@portolan/contract';
import { z } from 'zod';
import type { App } from '../../context.ts';
import { requireActor } from '../access/index.ts';
import { createShareLink, listShareLinks, openSharedView, revokeShareLink } from './service.ts';

const tags = ['share-links'];
const security = [{ bearerAuth: [] }];
/** Any member of the workspace; the service applies the share-link rules of the contract. */
const member = { client: 'clientId', permission: 'client.read' } as const;
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};

/**
 * Opening a link needs no session, so it is limited per address like the other public routes: a
 * visitor reads one page, a prober guessing tokens (256 bits: hopeless anyway) is slowed down.
 */
const publicRateLimit = { max: 300, timeWindow: '15 minutes' };

/**
 * Public share links (spec §2 "Any path containing /share/ is public"): a workspace's links
 * (create, list, revoke) and the public read-only view a link opens.
 */
export async function shareLinkRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.post('/v1/clients/:clientId/share-links/', {
    config: { access: member },
    schema: {
      tags,
      summary:
        'Share a module page of the workspace as a public read-only link (the token is in this answer only); the module must be on; at most 50 live links a workspace (409 SHARE_LINK_LIMIT)',
      security,
      params: shareLinkClientParamsSchema,
      body: shareLinkCreateSchema,
      response: { 201: shareLinkCreatedSchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await createShareLink(ctx, requireActor(request), request.body)),
  });

  app.get('/v1/clients/:clientId/share-links/', {
    config: { access: member },
    schema: {
      tags,
      summary:
        'The workspace’s share links, newest first (10 a page): every one for its OWNERs and ADMINs, one’s own for other members; never a token',
      security,
      params: shareLinkClientParamsSchema,
      querystring: shareLinkListQuerySchema,
      response: { 200: shareLinkPageSchema, ...errors },
    },
    handler: async (request) => listShareLinks(ctx, requireActor(request), request.query),
  });

  app.delete('/v1/clients/:clientId/share-links/:linkId/', {
    config: { access: member },
    schema: {
      tags,
      summary:
        'Revoke a share link: it stops opening at once (its creator, or a workspace OWNER or ADMIN); revoking it again answers 204 too',
      security,
      params: shareLinkParamsSchema,
      response: { 204: z.null().describe('Revoked'), ...errors },
    },
    handler: async (request, reply) => {
      await revokeShareLink(ctx, requireActor(request), request.params.linkId);
      return reply.status(204).send(null);
    },
  });

  app.get('/v1/share/:token/', {
    config: {
      access: { public: 'the share token is the credential' },
      rateLimit: publicRateLimit,
    },
    schema: {
      tags,
      summary:
        'The read-only view a share link opens (no session needed): the module and the workspace’s name; 404 alike for an unknown, revoked or expired link',
      params: sharedViewParamsSchema,
      response: { 200: sharedViewSchema, 404: errorBodySchema, 429: errorBodySchema },
    },
    handler: async (request, reply) => {
      const view = await openSharedView(ctx, request.params.token);
      // A revoked link must stop showing at once: nothing may keep a copy; search engines stay out.
      return reply
        .header('cache-control', 'no-store')
        .header('x-robots-tag', 'noindex, nofollow')
        .send(view);
    },
  });
}
