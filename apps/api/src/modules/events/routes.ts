import {
  EVENT_TYPE_LIST,
  errorBodySchema,
  eventFeedQuerySchema,
  eventFeedSchema,
  eventTypeListSchema,
  orgParamsSchema,
} from '@portolan/contract';
import type { App } from '../../context.ts';
import { requireActor } from '../access/index.ts';
import { listEvents } from './service.ts';

/** The events feed of an organization and the catalogue of event types (issue 21 item 3). */
export async function eventRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.get('/v1/organizations/:orgId/events/', {
    config: {
      access: { organization: 'orgId', permission: 'organization.events.read' },
    },
    schema: {
      tags: ['events'],
      summary:
        'The organization’s events of the last 30 days after the cursor, oldest first; keep next_cursor and call again (at once while has_more)',
      security: [{ bearerAuth: [] }],
      params: orgParamsSchema,
      querystring: eventFeedQuerySchema,
      response: {
        200: eventFeedSchema,
        400: errorBodySchema,
        401: errorBodySchema,
        403: errorBodySchema,
        404: errorBodySchema,
      },
    },
    handler: async (request) => listEvents(ctx, requireActor(request), request.query),
  });

  app.get('/v1/webhooks/event-types/', {
    config: {
      access: { public: 'the catalogue of event types is documentation, the same for everyone' },
    },
    schema: {
      tags: ['events'],
      summary: 'The event types a webhook endpoint may subscribe to, each with what it means',
      response: { 200: eventTypeListSchema },
    },
    handler: async () => ({ results: EVENT_TYPE_LIST }),
  });
}
