import {
  balanceUsageQuerySchema,
  balanceUsageSchema,
  errorBodySchema,
  orgParamsSchema,
} from '@portolan/contract';
import type { App } from '../../context.ts';
import { requireActor } from '../access/index.ts';
import { usageCsv, usageCsvFileName, usageReport, usageWindow } from './usage.ts';

/** GET …/balance/usage/ (issue 22 item 4): the charges' totals, as JSON or a CSV download. */
export async function usageRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.get('/v1/organizations/:orgId/balance/usage/', {
    config: { access: { organization: 'orgId', permission: 'organization.billing' } },
    schema: {
      tags: ['billing'],
      summary:
        'What the charges drew from the balance, net of refunds, per service, workspace (client) or member (user), largest first, and per day: from and to are whole days (YYYY-MM-DD, UTC, both included; by default this month to today); format=csv answers a CSV download',
      security: [{ bearerAuth: [] }],
      params: orgParamsSchema,
      querystring: balanceUsageQuerySchema,
      // format=csv answers text/csv instead (the serializer is skipped for a text body).
      response: {
        200: balanceUsageSchema,
        400: errorBodySchema,
        401: errorBodySchema,
        403: errorBodySchema,
        404: errorBodySchema,
      },
    },
    handler: async (request, reply) => {
      const { organization } = requireActor(request);
      const { query } = request;
      const usage = await usageReport(
        ctx.db,
        organization.id,
        query.group_by,
        usageWindow(query, ctx.clock.now()),
      );
      if (query.format === 'json') return usage;
      return (
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${usageCsvFileName(usage)}"`)
          .header('cache-control', 'private, no-store')
          // A text body: Fastify sends it as is (no JSON serializer for text/csv), so the JSON
          // schema's type does not apply to it.
          .send(usageCsv(usage) as unknown as typeof usage)
      );
    },
  });
}
