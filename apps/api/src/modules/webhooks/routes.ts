import {
  errorBodySchema,
  orgParamsSchema,
  webhookCreateSchema,
  webhookDeliveryListQuerySchema,
  webhookDeliveryPageSchema,
  webhookDeliveryParamsSchema,
  webhookDeliverySchema,
  webhookEndpointCreatedSchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookParamsSchema,
  webhookSecretSchema,
  webhookTestSentSchema,
  webhookUpdateSchema,
} from '@portolan/contract';
import { z } from 'zod';
import type { App } from '../../context.ts';
import { requireActor } from '../access/index.ts';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  revealSecret,
  rotateSecret,
  sendTestEvent,
  updateWebhook,
} from './service.ts';

const tags = ['webhooks'];
const security = [{ bearerAuth: [] }];
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};
/** The organization's OWNERs and ADMINs. */
const manager = { organization: 'orgId', permission: 'organization.webhooks.manage' } as const;
/** Making, revealing and rotating a secret also needs a recent proof of presence. */
const withStepUp = { ...manager, stepUp: true } as const;
const base = '/v1/organizations/:orgId/webhooks';

/** An organization's outbound webhooks (issue 21 item 2): endpoints, secrets, deliveries. */
export async function webhookRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.post(`${base}/`, {
    config: { access: withStepUp },
    schema: {
      tags,
      summary:
        'Add a webhook endpoint (with a step-up): the answer carries its signing secret (whsec_…); at most 20 an organization (409 WEBHOOK_LIMIT); a private, loopback or link-local address is refused',
      security,
      params: orgParamsSchema,
      body: webhookCreateSchema,
      response: { 201: webhookEndpointCreatedSchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await createWebhook(ctx, requireActor(request), request.body)),
  });

  app.get(`${base}/`, {
    config: { access: manager },
    schema: {
      tags,
      summary: 'The organization’s webhook endpoints, oldest first; never a secret',
      security,
      params: orgParamsSchema,
      response: { 200: webhookEndpointListSchema, ...errors },
    },
    handler: async (request) => listWebhooks(ctx, requireActor(request)),
  });

  app.get(`${base}/:id/`, {
    config: { access: manager },
    schema: {
      tags,
      summary: 'A webhook endpoint',
      security,
      params: webhookParamsSchema,
      response: { 200: webhookEndpointSchema, ...errors },
    },
    handler: async (request) => getWebhook(ctx, requireActor(request), request.params.id),
  });

  app.patch(`${base}/:id/`, {
    config: { access: manager },
    schema: {
      tags,
      summary:
        'Change a webhook endpoint’s URL, events, description, or switch it off or on (on again: its failures are forgotten and its waiting deliveries go)',
      security,
      params: webhookParamsSchema,
      body: webhookUpdateSchema,
      response: { 200: webhookEndpointSchema, ...errors },
    },
    handler: async (request) =>
      updateWebhook(ctx, requireActor(request), request.params.id, request.body),
  });

  app.delete(`${base}/:id/`, {
    config: { access: manager },
    schema: {
      tags,
      summary: 'Delete a webhook endpoint with its deliveries (the events stay in the feed)',
      security,
      params: webhookParamsSchema,
      response: { 204: z.null().describe('Deleted'), ...errors },
    },
    handler: async (request, reply) => {
      await deleteWebhook(ctx, requireActor(request), request.params.id);
      return reply.status(204).send(null);
    },
  });

  app.get(`${base}/:id/secret/`, {
    config: { access: withStepUp },
    schema: {
      tags,
      summary: 'A webhook endpoint’s signing secret (with a step-up)',
      security,
      params: webhookParamsSchema,
      response: { 200: webhookSecretSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply
        .header('cache-control', 'no-store')
        .send(await revealSecret(ctx, requireActor(request), request.params.id)),
  });

  app.post(`${base}/:id/rotate-secret/`, {
    config: { access: withStepUp },
    schema: {
      tags,
      summary:
        'A new signing secret (with a step-up); for 24 hours deliveries are signed with the previous one too',
      security,
      params: webhookParamsSchema,
      response: { 200: webhookSecretSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply
        .header('cache-control', 'no-store')
        .send(await rotateSecret(ctx, requireActor(request), request.params.id)),
  });

  app.post(`${base}/:id/test/`, {
    config: { access: manager },
    schema: {
      tags,
      summary: 'Send a webhook.test event to this endpoint only; its delivery shows in the log',
      security,
      params: webhookParamsSchema,
      response: { 202: webhookTestSentSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.code(202).send(await sendTestEvent(ctx, requireActor(request), request.params.id)),
  });

  app.get(`${base}/:id/deliveries/`, {
    config: { access: manager },
    schema: {
      tags,
      summary:
        'A webhook endpoint’s deliveries, newest first (20 a page), each with its attempts: time, status, duration, the answer’s first KiB',
      security,
      params: webhookParamsSchema,
      querystring: webhookDeliveryListQuerySchema,
      response: { 200: webhookDeliveryPageSchema, ...errors },
    },
    handler: async (request) =>
      listDeliveries(ctx, requireActor(request), request.params.id, request.query),
  });

  app.post(`${base}/deliveries/:deliveryId/retry/`, {
    config: { access: manager },
    schema: {
      tags,
      summary:
        'Send a delivery again now; a failed one is pending again, its attempts kept (one more failure fails it)',
      security,
      params: webhookDeliveryParamsSchema,
      response: { 202: webhookDeliverySchema, ...errors },
    },
    handler: async (request, reply) =>
      reply
        .code(202)
        .send(await retryDelivery(ctx, requireActor(request), request.params.deliveryId)),
  });
}
