import {
  activityCreateSchema,
  activityListQuerySchema,
  activityPageSchema,
  activitySchema,
  errorBodySchema,
} from '@portolan/contract';
import { z } from 'zod';
import type { App } from '../../context.ts';
import { requireActor } from '../access/index.ts';
import { requireAuth } from '../auth/index.ts';
import { listOrganizationActivities, reportActivity } from './service.ts';

const tags = ['activities'];
const security = [{ bearerAuth: [] }];

/** POST /v1/activities/ and GET /v1/organizations/{orgId}/activities/. */
export async function activityRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.post('/v1/activities/', {
    onRequest: app.authenticate,
    schema: {
      tags,
      summary:
        'Record an action of the caller on a workspace (ACCESS_WORKSPACE once per user and workspace: a repeat answers the existing record with 200)',
      security,
      body: activityCreateSchema,
      response: {
        200: activitySchema,
        201: activitySchema,
        400: errorBodySchema,
        401: errorBodySchema,
        404: errorBodySchema,
      },
    },
    handler: async (request, reply) => {
      const { created, activity } = await reportActivity(ctx, requireAuth(request), request.body);
      return reply.status(created ? 201 : 200).send(activity);
    },
  });

  app.get('/v1/organizations/:orgId/activities/', {
    config: { access: { organization: 'orgId', permission: 'organization.activities.read' } },
    schema: {
      tags,
      summary:
        'The organization’s activity log, newest first (OWNER and ADMIN); filter by action, search names, e-mails and module labels',
      security,
      params: z.strictObject({ orgId: z.uuid() }),
      querystring: activityListQuerySchema,
      response: {
        200: activityPageSchema,
        400: errorBodySchema,
        401: errorBodySchema,
        403: errorBodySchema,
        404: errorBodySchema,
      },
    },
    handler: async (request) =>
      listOrganizationActivities(ctx, requireActor(request).organization.id, request.query),
  });
}
