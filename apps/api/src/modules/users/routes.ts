import { detailResponseSchema, errorBodySchema, userExistsQuerySchema } from '@portolan/contract';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../context.ts';
import { notFound, tooManyRequests } from '../../lib/errors.ts';
import { findUserByEmail } from './repo.ts';

const LIMIT = { max: 30, timeWindow: '1 minute' } as const;

export async function userRoutes(app: App): Promise<void> {
  const { ctx } = app;

  /** A limiter as a hook, so the per-IP and per-user limits run in a chosen order. */
  const enforce = (keyGenerator?: (request: FastifyRequest) => string) => {
    const limiter = app.createRateLimit({ ...LIMIT, ...(keyGenerator && { keyGenerator }) });
    return async (request: FastifyRequest) => {
      const result = await limiter(request);
      if (!result.isAllowed && result.isExceeded) {
        const minutes = Math.max(1, Math.ceil(result.ttl / 60_000));
        throw tooManyRequests(`Too many requests. Try again in ${minutes} minute(s).`);
      }
    };
  };

  app.get('/v1/user/is-existed/', {
    // Per IP first (before any token work), then the token, then per signed-in user: looking up
    // who has an account is rationed.
    config: { access: { signedIn: 'looking up who has an account', before: [enforce()] } },
    onRequest: enforce((request) => `user:${request.auth?.userId ?? request.ip}`),
    schema: {
      tags: ['user'],
      summary: 'Whether an account exists for an e-mail: 200 if it does, 404 if not',
      security: [{ bearerAuth: [] }],
      querystring: userExistsQuerySchema,
      response: {
        200: detailResponseSchema,
        400: errorBodySchema,
        401: errorBodySchema,
        404: errorBodySchema,
        429: errorBodySchema,
      },
    },
    handler: async (request) => {
      const user = await findUserByEmail(ctx.db, request.query.email);
      if (!user) throw notFound('No account uses this e-mail.');
      return { detail: 'An account uses this e-mail.' };
    },
  });
}
