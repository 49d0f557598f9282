import {
  errorBodySchema,
  organizationNotificationCreateSchema,
  organizationNotificationResultSchema,
  orgParamsSchema,
} from '@portolan/contract';
import type { App } from '../../context.ts';
import { requireActor } from '../access/index.ts';
import { sendOrganizationNotification } from './send.ts';

/** A module's back end notifies members (issue 21 item 6): an API key with the permission. */
export async function sendRoutes(app: App): Promise<void> {
  const { ctx } = app;
  app.post('/v1/organizations/:orgId/notifications/', {
    config: {
      access: { organization: 'orgId', permission: 'organization.notifications.send' },
    },
    schema: {
      tags: ['notifications'],
      summary:
        'Notify named members of the organization (their bell, and their open streams at once); for a module’s back end with an API key',
      security: [{ bearerAuth: [] }],
      params: orgParamsSchema,
      body: organizationNotificationCreateSchema,
      response: {
        201: organizationNotificationResultSchema,
        400: errorBodySchema,
        401: errorBodySchema,
        403: errorBodySchema,
        404: errorBodySchema,
      },
    },
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(await sendOrganizationNotification(ctx, requireActor(request), request.body)),
  });
}
