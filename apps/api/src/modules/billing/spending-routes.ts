import {
  balanceAlertsSchema,
  balanceAlertsUpdateSchema,
  clientParamsSchema,
  orgParamsSchema,
  spendCapSchema,
  spendCapUpdateSchema,
} from '@portolan/contract';
import type { App } from '../../context.ts';
import { requireActor } from '../access/index.ts';
import {
  readAlerts,
  readWorkspaceCap,
  setAlerts,
  setOrganizationCap,
  setWorkspaceCap,
} from './spending-service.ts';
import { readOrganizationCap } from './spending.ts';
import { billing, errors, security, tags } from './route-kit.ts';

const workspaceBilling = { client: 'clientId', permission: 'organization.billing' } as const;

/**
 * Issue 22 items 2 and 3: the monthly spend caps of the organization and of each workspace, and
 * the low-balance alert thresholds. OWNERs and ADMINs (organization.billing) read and set them.
 */
export async function spendingRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.get('/v1/organizations/:orgId/balance/spend-cap/', {
    config: { access: billing },
    schema: {
      tags,
      summary: 'The organization’s monthly spend cap (null: none) and what this month has spent',
      security,
      params: orgParamsSchema,
      response: { 200: spendCapSchema, ...errors },
    },
    handler: async (request) =>
      readOrganizationCap(ctx.db, requireActor(request).organization.id, ctx.clock.now()),
  });

  app.put('/v1/organizations/:orgId/balance/spend-cap/', {
    config: { access: billing },
    schema: {
      tags,
      summary:
        'Set the organization’s monthly spend cap (null: none): a charge that would pass it answers 402 SPEND_CAP_REACHED',
      security,
      params: orgParamsSchema,
      body: spendCapUpdateSchema,
      response: { 200: spendCapSchema, ...errors },
    },
    handler: async (request) =>
      setOrganizationCap(ctx, requireActor(request), request.body.monthly_limit),
  });

  app.get('/v1/clients/:clientId/spend-cap/', {
    config: { access: workspaceBilling },
    schema: {
      tags,
      summary: 'A workspace’s monthly spend cap (null: none) and what this month has spent in it',
      security,
      params: clientParamsSchema,
      response: { 200: spendCapSchema, ...errors },
    },
    handler: async (request) => readWorkspaceCap(ctx, requireActor(request)),
  });

  app.put('/v1/clients/:clientId/spend-cap/', {
    config: { access: workspaceBilling },
    schema: {
      tags,
      summary:
        'Set a workspace’s monthly spend cap (null: none): a charge naming the workspace that would pass it answers 402 SPEND_CAP_REACHED',
      security,
      params: clientParamsSchema,
      body: spendCapUpdateSchema,
      response: { 200: spendCapSchema, ...errors },
    },
    handler: async (request) =>
      setWorkspaceCap(ctx, requireActor(request), request.body.monthly_limit),
  });

  app.get('/v1/organizations/:orgId/balance/alerts/', {
    config: { access: billing },
    schema: {
      tags,
      summary: 'The low-balance alert thresholds, highest first',
      security,
      params: orgParamsSchema,
      response: { 200: balanceAlertsSchema, ...errors },
    },
    handler: async (request) => readAlerts(ctx.db, requireActor(request).organization.id),
  });

  app.put('/v1/organizations/:orgId/balance/alerts/', {
    config: { access: billing },
    schema: {
      tags,
      summary:
        'Set the low-balance alert thresholds: a charge taking the balance below one tells the OWNERs and ADMINs (bell and e-mail) and records balance.low, once per crossing',
      security,
      params: orgParamsSchema,
      body: balanceAlertsUpdateSchema,
      response: { 200: balanceAlertsSchema, ...errors },
    },
    handler: async (request) => setAlerts(ctx, requireActor(request), request.body.thresholds),
  });
}
