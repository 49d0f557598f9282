import {
  detailResponseSchema,
  errorBodySchema,
  revokeOthersResponseSchema,
  sessionIdParamsSchema,
  sessionListQuerySchema,
  sessionListResponseSchema,
} from '@portolan/contract';
import type { App } from '../../context.ts';
import { requireSession } from '../access/index.ts';
import { listSessions, revokeAccountSession, revokeOtherSessions } from './account-sessions.ts';
import { originOf } from '../security-log/index.ts';

const tags = ['auth'];
const secured = [{ bearerAuth: [] }];
const errors = { 400: errorBodySchema, 401: errorBodySchema };
const own = { access: { signedIn: 'the caller’s own sessions' } };

/** The account's sessions (issue 20 item 6): where it is signed in, and signing out of any. */
export async function accountSessionRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.get('/v1/user/sessions/', {
    config: own,
    schema: {
      tags,
      summary: 'The live sessions of the signed-in account, the most recently active first',
      security: secured,
      querystring: sessionListQuerySchema,
      response: { 200: sessionListResponseSchema, ...errors },
    },
    handler: async (request) => listSessions(ctx, requireSession(request), request.query),
  });

  app.post('/v1/user/sessions/revoke-others/', {
    config: own,
    schema: {
      tags,
      summary: 'Sign out every other session of the account (this one stays)',
      security: secured,
      response: { 200: revokeOthersResponseSchema, ...errors },
    },
    handler: async (request) =>
      revokeOtherSessions(ctx, requireSession(request), originOf(request)),
  });

  app.delete('/v1/user/sessions/:id/', {
    config: own,
    schema: {
      tags,
      summary: 'Sign out one session of the account (this one too)',
      security: secured,
      params: sessionIdParamsSchema,
      response: { 200: detailResponseSchema, ...errors, 404: errorBodySchema },
    },
    handler: async (request) =>
      revokeAccountSession(ctx, requireSession(request), request.params.id, originOf(request)),
  });
}
