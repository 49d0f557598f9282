import {
  activationRequestSchema,
  activationResponseSchema,
  activationTokenResponseSchema,
  appLoginRequestSchema,
  detailResponseSchema,
  errorBodySchema,
  loginRequestSchema,
  loginResponseSchema,
  mfaLoginRequestSchema,
  mfaTokenRequestSchema,
  passkeyAssertionSchema,
  passkeyOptionsResponseSchema,
  stepUpRequestSchema,
  stepUpResponseSchema,
  refreshRequestSchema,
  registrationRequestSchema,
  tokenResponseSchema,
  ErrorCode,
} from '@portolan/contract';
import type { App } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { requireSession } from '../access/index.ts';
import { bearerToken } from './tokens.ts';
import * as auth from './service.ts';
import { assertionOptions } from '../mfa/index.ts';
import { secondStepPasskeyOptions } from './mfa-challenge.ts';
import { stepUp } from './step-up.ts';
import { originOf } from '../security-log/index.ts';

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
        originOf(request),
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
      summary:
        'Sign in with e-mail and password: a session token, or (an account with a second factor) {mfa_required, mfa_token, methods} for /v1/rest-auth/app/login/mfa/',
      body: appLoginRequestSchema,
      response: { 200: loginResponseSchema, ...errors, 403: errorBodySchema },
    },
    handler: async (request) =>
      auth.login(ctx, request.body.email, request.body.password, originOf(request)),
  });

  app.post('/v1/rest-auth/login/', {
    config: perIp(50, 'signing in comes before any session'),
    schema: {
      tags,
      summary:
        'Sign in with username (the e-mail) and password: a session token, or the second factor’s challenge',
      body: loginRequestSchema,
      response: { 200: loginResponseSchema, ...errors, 403: errorBodySchema },
    },
    handler: async (request) =>
      auth.login(ctx, request.body.username, request.body.password, originOf(request)),
  });

  app.post('/v1/rest-auth/app/login/mfa/', {
    config: perIp(50, 'the second step of a sign-in comes before any session'),
    schema: {
      tags,
      summary:
        'The second step of a sign-in: the mfa_token of the first and a TOTP code or a recovery code give the session token',
      body: mfaLoginRequestSchema,
      response: { 200: tokenResponseSchema, ...errors },
    },
    handler: async (request) => {
      const { mfa_token: token, code, recovery_code: recoveryCode, passkey } = request.body;
      const proof =
        code !== undefined
          ? { code }
          : passkey !== undefined
            ? { passkey, purpose: 'second_factor' as const }
            : { recovery_code: recoveryCode! };
      return auth.loginWithSecondFactor(ctx, token, proof, originOf(request));
    },
  });

  app.post('/v1/rest-auth/app/login/mfa/passkey-options/', {
    config: perIp(50, 'the second step of a sign-in comes before any session'),
    schema: {
      tags,
      summary:
        'The second step with a passkey: options for navigator.credentials.get() naming the account’s passkeys',
      body: mfaTokenRequestSchema,
      response: { 200: passkeyOptionsResponseSchema, ...errors },
    },
    handler: async (request) => secondStepPasskeyOptions(ctx, request.body.mfa_token),
  });

  app.post('/v1/rest-auth/passkey/options/', {
    config: perIp(50, 'signing in with a passkey comes before any session'),
    schema: {
      tags,
      summary:
        'Start signing in with a passkey alone: options for navigator.credentials.get() (any passkey of this site)',
      response: { 200: passkeyOptionsResponseSchema, 429: errorBodySchema },
    },
    handler: async () => assertionOptions(ctx.db, ctx, 'sign_in', null),
  });

  app.post('/v1/rest-auth/passkey/', {
    config: perIp(50, 'signing in with a passkey comes before any session'),
    schema: {
      tags,
      summary:
        'Sign in with a passkey: its answer to the challenge gives the session token (a passkey is both factors)',
      body: passkeyAssertionSchema,
      response: { 200: tokenResponseSchema, ...errors, 403: errorBodySchema },
    },
    handler: async (request) => auth.loginWithPasskey(ctx, request.body, originOf(request)),
  });

  app.post('/v1/user/step-up/passkey-options/', {
    config: { access: { signedIn: 'a proof of presence renews the caller’s own session' } },
    schema: {
      tags,
      summary:
        'Step up with a passkey: options for navigator.credentials.get() naming the account’s passkeys',
      security: secured,
      response: { 200: passkeyOptionsResponseSchema, 401: errorBodySchema },
    },
    handler: async (request) =>
      assertionOptions(ctx.db, ctx, 'step_up', requireSession(request).userId),
  });

  app.post('/v1/user/step-up/', {
    config: {
      access: { signedIn: 'a proof of presence renews the caller’s own session' },
      // Per account, after authentication: wrong passwords here are guesses like sign-in's.
      rateLimit: {
        max: 30,
        timeWindow: '15 minutes',
        keyGenerator: (request) =>
          request.auth ? `step-up:${request.auth.userId}` : `ip:${request.ip}`,
      },
    },
    schema: {
      tags,
      summary:
        'Prove presence again (the password, a TOTP code or a recovery code): sensitive actions need no step-up until step_up_until',
      security: secured,
      body: stepUpRequestSchema,
      response: { 200: stepUpResponseSchema, ...errors },
    },
    handler: async (request) =>
      stepUp(ctx, requireSession(request), request.body, originOf(request)),
  });

  app.post('/v1/rest-auth/logout/', {
    config: { access: { signedIn: 'signing out ends the caller’s own session' } },
    schema: {
      tags,
      summary: 'Sign out: revokes this session',
      security: secured,
      response: { 200: detailResponseSchema, 401: errorBodySchema },
    },
    handler: async (request) => auth.logout(ctx, requireSession(request).sessionId),
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
