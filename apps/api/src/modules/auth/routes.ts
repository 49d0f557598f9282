import {
  activationRequestSchema,
  activationResponseSchema,
  activationTokenResponseSchema,
  appLoginRequestSchema,
  detailResponseSchema,
  errorBodySchema,
  loginRequestSchema,
  refreshRequestSchema,
  registrationRequestSchema,
  tokenResponseSchema,
  ErrorCode,
} from '@portolan/contract';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { requireAuth } from '../access/index.ts';
import { bearerToken } from './tokens.ts';
import * as auth from './service.ts';

const tags = ['auth'];
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
};
const secured = [{ bearerAuth: [] }];
/** Per-IP limits on the doors people knock on: sign-in, registration, codes. */
const perIp = (max: number, publicWhy: string) => ({
  access: { public: publicWhy },
  rateLimit: { max, timeWindow: '15 minutes' },
});

const meta = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

export async function authRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.post('/v1/rest-auth/registration/', {
    config: perIp(20, 'registering comes before any account'),
    schema: {
      tags,
      summary:
        'Register; e-mails a 6-digit activation code and returns the activation token (the same answer for an address that has an account: its owner is told by e-mail)',
      body: registrationRequestSchema,
      response: { 201: activationTokenResponseSchema, ...errors, 403: errorBodySchema },
    },
    handler: async (request, reply) => {
      if (!ctx.config.features.registration) {
        throw new AppError(
          ErrorCode.FEATURE_DISABLED,
          'Registration is closed. Ask your organization for an invitation.',
        );
      }
      return reply.status(201).send(await auth.register(ctx, request.body));
    },
  });

  app.patch('/v1/rest-auth/registration/activation/', {
    config: perIp(30, 'the activation code is the credential'),
    schema: {
      tags,
      summary:
        'Activate the account with the e-mailed code (activation token as Authorization); signs the user in',
      body: activationRequestSchema,
      response: { 200: activationResponseSchema, ...errors, 403: errorBodySchema },
    },
    handler: async (request) =>
      auth.activate(
        ctx,
        bearerToken(request.headers.authorization),
        request.body.code,
        meta(request),
      ),
  });

  app.get('/v1/rest-auth/registration/activation/resend-code/', {
    config: perIp(10, 'a new code is asked for before any session'),
    schema: {
      tags,
      summary: 'E-mail a new activation code (activation token as Authorization)',
      response: { 200: detailResponseSchema, ...errors },
    },
    handler: async (request) =>
      auth.resendActivation(ctx, bearerToken(request.headers.authorization)),
  });

  app.post('/v1/rest-auth/app/login/', {
    config: perIp(50, 'signing in comes before any session'),
    schema: {
      tags,
      summary: 'Sign in with e-mail and password',
      body: appLoginRequestSchema,
      response: { 200: tokenResponseSchema, ...errors, 403: errorBodySchema },
    },
    handler: async (request) =>
      auth.login(ctx, request.body.email, request.body.password, meta(request)),
  });

  app.post('/v1/rest-auth/login/', {
    config: perIp(50, 'signing in comes before any session'),
    schema: {
      tags,
      summary: 'Sign in with username (the e-mail) and password',
      body: loginRequestSchema,
      response: { 200: tokenResponseSchema, ...errors, 403: errorBodySchema },
    },
    handler: async (request) =>
      auth.login(ctx, request.body.username, request.body.password, meta(request)),
  });

  app.post('/v1/rest-auth/logout/', {
    config: { access: { signedIn: 'signing out ends the caller’s own session' } },
    schema: {
      tags,
      summary: 'Sign out: revokes this session',
      security: secured,
      response: { 200: detailResponseSchema, 401: errorBodySchema },
    },
    handler: async (request) => auth.logout(ctx, requireAuth(request).sessionId),
  });

  app.post('/v1/rest-auth/app/jwt-refresh/', {
    config: perIp(120, 'the token in the body is the credential'),
    schema: {
      tags,
      summary: 'Exchange a valid token for a fresh one of the same session',
      body: refreshRequestSchema,
      response: { 200: tokenResponseSchema, ...errors },
    },
    handler: async (request) => auth.refresh(ctx, request.body.token),
  });
}
