import {
  activityCreateSchema,
  activityExportQuerySchema,
  activityListQuerySchema,
  activityPageSchema,
  activitySchema,
  errorBodySchema,
} from '@portolan/contract';
import { z } from 'zod';
import type { App } from '../../context.ts';
import { requireActor, requireAuth } from '../access/index.ts';
import { countExport, EXPORT_CONTENT_TYPES, exportFileName, exportStream } from './export.ts';
import { listOrganizationActivities, reportActivity } from './service.ts';

const tags = ['activities'];
const security = [{ bearerAuth: [] }];

/** POST /v1/activities/ and GET /v1/organizations/{orgId}/activities/. */
export async function activityRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.post('/v1/activities/', {
    config: { access: { signedIn: 'the workspace is named in the body: the service decides it' } },
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

  app.get('/v1/organizations/:orgId/activities/export/', {
    config: { access: { organization: 'orgId', permission: 'organization.activities.read' } },
    schema: {
      tags,
      summary:
        'The organization’s activities as a download (OWNER and ADMIN): CSV or JSON Lines, newest first, streamed; the log’s filters and a date range (YYYY-MM-DD, UTC, inclusive); X-Export-Count says how many rows come',
      security,
      params: z.strictObject({ orgId: z.uuid() }),
      querystring: activityExportQuerySchema,
      // The file itself is not JSON; errors before it starts answer the usual shape.
    },
    handler: async (request, reply) => {
      const { organization } = requireActor(request);
      const count = await countExport(ctx.db, organization.id, request.query);
      return reply
        .header('content-type', EXPORT_CONTENT_TYPES[request.query.format])
        .header(
          'content-disposition',
          `attachment; filename="${exportFileName(organization.name, request.query)}"`,
        )
        .header('x-export-count', String(count))
        .header('cache-control', 'private, no-store')
        .send(exportStream(ctx.database, organization.id, request.query));
    },
  });
}
