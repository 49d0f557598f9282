import {
  appParamsSchema,
  checkoutParamsSchema,
  checkoutSchema,
  errorBodySchema,
  organizationSubscriptionPageSchema,
  orgParamsSchema,
  paymentMethodChoiceSchema,
  paymentMethodListSchema,
  planChoiceSchema,
  subscriptionListQuerySchema,
} from '@portolan/contract';
import { z } from 'zod';
import type { App } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { SANDBOX_SIGNATURE_HEADER } from '../../lib/payments/sandbox.ts';
import { requireActor, requireAuth } from '../access/index.ts';
import { getCheckout, startCardCheckout, startSubscriptionCheckout } from './checkout-service.ts';
import { receiveGatewayEvent } from './events.ts';
import { idempotencyHeaders, idempotent } from './idempotency.ts';
import {
  listPaymentMethods,
  removePaymentMethod,
  setDefaultPaymentMethod,
} from './payment-methods-service.ts';
import { listMySubscriptions } from './subscriptions-service.ts';

const tags = ['billing'];
const security = [{ bearerAuth: [] }];
const billing = { organization: 'orgId', permission: 'organization.billing' } as const;
/** The cards on file: billing, with a fresh proof of presence (issue 20 item 4). */
const cards = { ...billing, stepUp: true } as const;
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};

/**
 * Billing I (spec §7 "Billing"): subscribing through a hosted checkout, the caller's
 * subscriptions, an organization's cards, and the gateway's webhook.
 */
export async function billingRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.post('/v1/organizations/:orgId/checkout/', {
    config: { access: billing },
    schema: {
      tags,
      summary:
        'Open a hosted payment page to subscribe to a plan (Idempotency-Key required); the subscription starts when the gateway reports the payment',
      security,
      params: orgParamsSchema,
      headers: idempotencyHeaders,
      body: planChoiceSchema,
      response: { 201: checkoutSchema, ...errors, 409: errorBodySchema, 503: errorBodySchema },
    },
    handler: async (request, reply) =>
      idempotent(ctx, request, reply, () =>
        startSubscriptionCheckout(ctx, requireActor(request), request.body),
      ),
  });

  app.get('/v1/organizations/:orgId/checkout/:checkoutId/', {
    config: { access: billing },
    schema: {
      tags,
      summary: 'A checkout and its outcome (OPEN, COMPLETE, FAILED with its message, EXPIRED)',
      security,
      params: checkoutParamsSchema,
      response: { 200: checkoutSchema, ...errors },
    },
    handler: async (request) => getCheckout(ctx, requireActor(request), request.params.checkoutId),
  });

  app.get('/v1/me/organizations/and/subscriptions/:app/', {
    config: { access: { signedIn: 'the caller’s own organizations' } },
    schema: {
      tags,
      summary:
        'The caller’s organizations (by name, any role) with their subscription, limits and usage (page 1, 99 by default)',
      security,
      params: appParamsSchema,
      querystring: subscriptionListQuerySchema,
      response: {
        200: organizationSubscriptionPageSchema,
        400: errorBodySchema,
        401: errorBodySchema,
      },
    },
    handler: async (request) =>
      listMySubscriptions(ctx, requireAuth(request), request.params.app, request.query),
  });

  // ---- cards -----------------------------------------------------------------------------------

  app.get('/v1/organizations/:orgId/payment-methods/', {
    config: { access: billing },
    schema: {
      tags,
      summary: 'The organization’s cards and which one renewals charge',
      security,
      params: orgParamsSchema,
      response: { 200: paymentMethodListSchema, ...errors },
    },
    handler: async (request) => listPaymentMethods(ctx, requireActor(request)),
  });

  app.post('/v1/organizations/:orgId/payment-methods/checkout/', {
    config: { access: cards },
    schema: {
      tags,
      summary: 'Open a hosted page to add a card, nothing charged (Idempotency-Key required)',
      security,
      params: orgParamsSchema,
      headers: idempotencyHeaders,
      response: { 201: checkoutSchema, ...errors, 503: errorBodySchema },
    },
    handler: async (request, reply) =>
      idempotent(ctx, request, reply, () => startCardCheckout(ctx, requireActor(request))),
  });

  app.post('/v1/organizations/:orgId/payment-methods/modification/', {
    config: { access: cards },
    schema: {
      tags,
      summary: 'Make a card the default one (renewals charge it); needs a subscription',
      security,
      params: orgParamsSchema,
      body: paymentMethodChoiceSchema,
      response: { 200: paymentMethodListSchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request) =>
      setDefaultPaymentMethod(ctx, requireActor(request), request.body.payment_method_id),
  });

  app.delete('/v1/organizations/:orgId/payment-methods/modification/', {
    config: { access: cards },
    schema: {
      tags,
      summary:
        'Remove a card; not the default one while the subscription renews with it (409 DEFAULT_CARD_IN_USE)',
      security,
      params: orgParamsSchema,
      body: paymentMethodChoiceSchema,
      response: { 200: paymentMethodListSchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request) =>
      removePaymentMethod(ctx, requireActor(request), request.body.payment_method_id),
  });

  await app.register(webhookRoutes);
}

/**
 * POST /v1/billing/webhooks/{gateway}/: the gateway's signed events. The signature covers the
 * exact bytes sent, so this route (and only it: an encapsulated plugin) keeps the JSON body as
 * a string for the gateway to verify before anything is parsed.
 */
async function webhookRoutes(app: App): Promise<void> {
  const { ctx } = app;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );

  app.post('/v1/billing/webhooks/:gateway/', {
    config: { access: { public: 'the gateway’s signature is the credential' } },
    schema: {
      tags,
      summary:
        'The payment gateway’s events (signed); each applies once, whatever the order or the number of deliveries',
      params: z.strictObject({ gateway: z.enum(['sandbox', 'stripe']) }),
      response: {
        200: z.object({ received: z.literal(true) }),
        400: errorBodySchema,
        404: errorBodySchema,
      },
    },
    handler: async (request) => {
      // Events of a gateway this server does not use are not ours to verify.
      if (request.params.gateway !== ctx.payments.name)
        throw notFound('This server does not use that payment gateway.');
      const raw = typeof request.body === 'string' ? request.body : '';
      const signature =
        request.headers[
          ctx.payments.name === 'stripe' ? 'stripe-signature' : SANDBOX_SIGNATURE_HEADER
        ];
      await receiveGatewayEvent(
        ctx,
        raw,
        typeof signature === 'string' ? signature : undefined,
        request.log,
      );
      return { received: true as const };
    },
  });
}
