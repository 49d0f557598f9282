import {
  billingDetailsSchema,
  billingDetailsUpdateSchema,
  orgParamsSchema,
} from '@portolan/contract';
import type { App } from '../../context.ts';
import { requireActor } from '../access/index.ts';
import { getBillingDetails, saveBillingDetails } from './billing-details.ts';
import { billing, errors, security, tags } from './route-kit.ts';

/** The organization's billing details (issue 22 item 6), printed on later invoices and credit notes. */
export async function billingDetailsRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.get('/v1/organizations/:orgId/billing-details/', {
    config: { access: billing },
    schema: {
      tags,
      summary:
        'The company, address, country and tax ID printed on invoices and credit notes (empty until saved)',
      security,
      params: orgParamsSchema,
      response: { 200: billingDetailsSchema, ...errors },
    },
    handler: async (request) => getBillingDetails(ctx.db, requireActor(request).organization.id),
  });

  app.put('/v1/organizations/:orgId/billing-details/', {
    config: { access: billing },
    schema: {
      tags,
      summary:
        'Save the billing details (the tax ID is checked in form for the country and stored without spaces or punctuation); invoices and credit notes issued from now on print them',
      security,
      params: orgParamsSchema,
      body: billingDetailsUpdateSchema,
      response: { 200: billingDetailsSchema, ...errors },
    },
    handler: async (request) => saveBillingDetails(ctx, requireActor(request), request.body),
  });
}
