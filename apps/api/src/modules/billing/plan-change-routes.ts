import {
  errorBodySchema,
  gradeChangePreviewSchema,
  orgParamsSchema,
  planChoiceSchema,
  subscriptionSchema,
} from '@portolan/contract';
import type { App } from '../../context.ts';
import { requireActor } from '../access/index.ts';
import { checkoutGradeChange, previewGradeChange } from './grade-change-service.ts';
import { fingerprintOf, idempotencyKeyOf, withIdempotency } from './idempotency.ts';
import { unsubscribe } from './unsubscription.ts';

const tags = ['billing'];
const security = [{ bearerAuth: [] }];
const access = { organization: 'orgId', permission: 'organization.billing' } as const;

/** The errors every route here may answer; 409 for the subscription's state. */
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

/** Plan changes and the unsubscription (spec §7 "Billing"); OWNER and ADMIN only. */
export async function planChangeRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.post('/v1/organizations/:orgId/grade-changes/preview/', {
    config: { access },
    schema: {
      tags,
      summary:
        'Preview a plan change: the prorated invoice and how the organization fits the new limits',
      security,
      params: orgParamsSchema,
      body: planChoiceSchema,
      response: { 200: gradeChangePreviewSchema, ...errors },
    },
    handler: async (request) => previewGradeChange(ctx, requireActor(request), request.body),
  });

  app.post('/v1/organizations/:orgId/grade-changes/checkout/', {
    // A plan change moves money: a fresh proof of presence (issue 20 item 4).
    config: { access: { ...access, stepUp: true } },
    schema: {
      tags,
      summary:
        'Change the plan: an upgrade charges the prorated difference to the default card, a downgrade keeps it as credit',
      security,
      params: orgParamsSchema,
      body: planChoiceSchema,
      response: { 200: subscriptionSchema, 402: errorBodySchema, ...errors },
    },
    handler: async (request, reply) => {
      const actor = requireActor(request);
      // The Idempotency-Key header is required (a 400 naming it); a replay answers the first
      // answer and charges nothing.
      const key = idempotencyKeyOf(request);
      const scope = {
        organizationId: actor.organization.id,
        userId: actor.userId,
        key,
        fingerprint: fingerprintOf(request),
      };
      const answer = await withIdempotency(ctx, scope, async () => ({
        status: 200,
        body: await checkoutGradeChange(ctx, actor, request.body, key),
      }));
      return reply.code(answer.status).send(answer.body);
    },
  });

  // A GET that changes state, as the specification names it; it is idempotent in effect (a second
  // call answers 409 ALREADY_CANCELED and changes nothing).
  app.get('/v1/organizations/:orgId/unsubscription/', {
    config: { access },
    schema: {
      tags,
      summary: 'Cancel the subscription at the end of its period (only the member who subscribed)',
      security,
      params: orgParamsSchema,
      response: { 200: subscriptionSchema, ...errors },
    },
    handler: async (request) => unsubscribe(ctx, requireActor(request)),
  });
}
