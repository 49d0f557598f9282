import {
  errorBodySchema,
  googleLoginRequestSchema,
  googleLoginResponseSchema,
  googleStartQuerySchema,
} from '@portolan/contract';
import { z } from 'zod';
import type { App } from '../../context.ts';
import { createOidcClient, type OidcClient } from '../../lib/oidc.ts';
import { assertGoogleEnabled, completeGoogleLogin, startGoogleLogin } from './google-service.ts';

const tags = ['auth'];
/** Per-IP limits: both doors are unauthenticated. */
const perIp = (max: number, publicWhy: string) => ({
  access: { public: publicWhy },
  rateLimit: { max, timeWindow: '15 minutes' },
});

/**
 * Sign-in with Google (any OpenID Connect issuer: GOOGLE_ISSUER). Both routes answer
 * 403 FEATURE_DISABLED unless FEATURE_GOOGLE_LOGIN is on and GOOGLE_CLIENT_ID is set.
 */
export async function googleRoutes(app: App): Promise<void> {
  const { ctx } = app;
  // One client per app, made on first use: it caches the issuer's discovery document.
  let client: OidcClient | null = null;
  const oidc = () => {
    assertGoogleEnabled(ctx);
    client ??= createOidcClient({
      issuer: ctx.config.google.issuer,
      clientId: ctx.config.google.clientId!,
      clientSecret: ctx.config.google.clientSecret,
    });
    return client;
  };

  app.get('/v1/social-auth/google/start/', {
    config: perIp(60, 'signing in with Google comes before any session'),
    schema: {
      tags,
      summary:
        'Start sign-in with Google: 302 to the provider (state, nonce, PKCE S256); it returns to PUBLIC_URL/google-auth?code=…&state=…',
      querystring: googleStartQuerySchema,
      response: {
        302: z.null().describe('Redirect to the provider; Location is its authorization URL.'),
        400: errorBodySchema,
        403: errorBodySchema,
        429: errorBodySchema,
        503: errorBodySchema,
      },
    },
    handler: async (request, reply) => {
      const url = await startGoogleLogin(ctx, oidc(), request.query.path);
      return reply.header('cache-control', 'no-store').redirect(url, 302);
    },
  });

  app.post('/v1/social-auth/google/', {
    config: perIp(60, 'signing in with Google comes before any session'),
    schema: {
      tags,
      summary:
        'Finish sign-in with Google: exchanges the code of /google-auth for a session token and the return path',
      body: googleLoginRequestSchema,
      response: {
        200: googleLoginResponseSchema,
        400: errorBodySchema,
        403: errorBodySchema,
        409: errorBodySchema,
        429: errorBodySchema,
        503: errorBodySchema,
      },
    },
    handler: async (request) =>
      completeGoogleLogin(ctx, oidc(), request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      }),
  });
}
