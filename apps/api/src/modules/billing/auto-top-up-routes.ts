import {
  autoTopUpSchema,
  autoTopUpUpdateSchema,
  errorBodySchema,
  orgParamsSchema,
} from '@portolan/contract';
import type { App } from '../../context.ts';
import { requireActor } from '../access/index.ts';
import { readAutoTopUp, updateAutoTopUp } from './auto-top-up.ts';
import { billing, errors, security, tags } from './route-kit.ts';

/** Auto top-up (issue 22 item 1): the organization's settings and its latest automatic top-up. */
export async function autoTopUpRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.get('/v1/organizations/:orgId/balance/auto-top-up/', {
    config: { access: billing },
    schema: {
      tags,
      summary:
        'Auto top-up: whether it is on, below which balance it buys which fund package, the declines in a row, and the latest automatic top-up',
      security,
      params: orgParamsSchema,
      response: { 200: autoTopUpSchema, ...errors },
    },
    handler: async (request) => readAutoTopUp(ctx.db, requireActor(request).organization.id),
  });

  app.put('/v1/organizations/:orgId/balance/auto-top-up/', {
    config: { access: billing },
    schema: {
      tags,
      summary:
        'Set auto top-up: when a charge takes the balance below the threshold, the fund package is bought once with the default card (409 NO_PAYMENT_METHOD without one)',
      security,
      params: orgParamsSchema,
      body: autoTopUpUpdateSchema,
      response: { 200: autoTopUpSchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request) => updateAutoTopUp(ctx, requireActor(request), request.body),
  });
}
