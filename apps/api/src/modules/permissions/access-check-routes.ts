import { accessCheckAnswerSchema, accessCheckRequestSchema } from '@portolan/contract';
import type { App } from '../../context.ts';
import { requireActor } from '../access/index.ts';
import { checkMemberAccess } from './member-service.ts';
import { errors, security, tags } from './route-parts.ts';

/**
 * The access check a module's back end asks with an organization API key (issue 21 item 5). The
 * workspace is named in the body: the kernel decides on it there (`in: 'body'`), 404 outside it.
 */
export async function accessCheckRoutes(app: App): Promise<void> {
  const { ctx } = app;
  app.post('/v1/access/check/', {
    config: {
      access: { client: 'client_id', in: 'body', permission: 'organization.access.check' },
    },
    schema: {
      tags,
      summary:
        'May this member do this in this workspace? {allowed, reason} with the explainer’s chain (for a module’s back end, with an API key)',
      security,
      body: accessCheckRequestSchema,
      response: { 200: accessCheckAnswerSchema, ...errors },
    },
    handler: async (request) =>
      checkMemberAccess(ctx, requireActor(request), request.body.user_id, request.body.permission),
  });
}
