import {
  appParamsSchema,
  errorBodySchema,
  planConfigQuerySchema,
  planPageSchema,
  planSchema,
  planTypeParamsSchema,
} from '@portolan/contract';
import type { App } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { pageOf, offsetOf } from '../../lib/pagination.ts';
import { findPlan, listPlans, toPlanDto } from './subscription-repo.ts';
import { listBalanceServices } from './wallet-service.ts';

const tags = ['billing'];
const security = [{ bearerAuth: [] }];
const signedIn = { signedIn: 'plans are the same for everyone signed in' };

/** The plans (spec §7 "Billing"): one by type, and the list of an app profile. */
export async function planRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.get('/v1/plans/:type/', {
    config: { access: signedIn },
    schema: {
      tags,
      summary: 'A plan of the active app profile by its type',
      security,
      params: planTypeParamsSchema,
      response: {
        200: planSchema,
        400: errorBodySchema,
        401: errorBodySchema,
        404: errorBodySchema,
      },
    },
    handler: async (request) => {
      const [plan, services] = await Promise.all([
        findPlan(ctx.db, ctx.config.appProfile, request.params.type),
        listBalanceServices(ctx.db, ctx.config.appProfile),
      ]);
      if (!plan) throw notFound('No such plan.');
      return toPlanDto(plan, services);
    },
  });

  app.get('/v1/plans/service/config/:app/', {
    config: { access: signedIn },
    schema: {
      tags,
      summary:
        'The enabled plans of an app profile, in their order, with the services each includes (page 1, 99 by default)',
      security,
      params: appParamsSchema,
      querystring: planConfigQuerySchema,
      response: { 200: planPageSchema, 400: errorBodySchema, 401: errorBodySchema },
    },
    handler: async (request) => {
      // A handful of plans: one statement, paged here.
      const [rows, services] = await Promise.all([
        listPlans(ctx.db, request.params.app),
        listBalanceServices(ctx.db, request.params.app),
      ]);
      const { query } = request;
      const offset = offsetOf(query);
      const page = rows.slice(offset, offset + query.limit);
      return pageOf(
        rows.length,
        query,
        page.map((plan) => toPlanDto(plan, services)),
      );
    },
  });
}
