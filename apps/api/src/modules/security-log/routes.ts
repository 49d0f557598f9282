import {
  errorBodySchema,
  securityEventListQuerySchema,
  securityEventListResponseSchema,
} from '@portolan/contract';
import type { App } from '../../context.ts';
import { requireAuth } from '../access/index.ts';
import { listSecurityEvents } from './events.ts';

/** GET /v1/user/security-events/ (issue 20 item 8). */
export async function securityLogRoutes(app: App): Promise<void> {
  app.get('/v1/user/security-events/', {
    config: { access: { signedIn: 'the caller’s own security log' } },
    schema: {
      tags: ['auth'],
      summary:
        'The account’s security log, newest first: sign-ins, failed factors, MFA, password and session changes, step-ups',
      security: [{ bearerAuth: [] }],
      querystring: securityEventListQuerySchema,
      response: {
        200: securityEventListResponseSchema,
        400: errorBodySchema,
        401: errorBodySchema,
      },
    },
    handler: async (request) =>
      listSecurityEvents(app.ctx.db, requireAuth(request).userId, request.query),
  });
}
