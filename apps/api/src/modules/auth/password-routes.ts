import {
  detailResponseSchema,
  errorBodySchema,
  passwordChangeSchema,
  passwordResetConfirmSchema,
  passwordResetIdentitySchema,
  passwordResetRequestSchema,
  passwordResetResponseSchema,
  tokenResponseSchema,
} from '@portolan/contract';
import type { App } from '../../context.ts';
import { requireSession } from '../access/index.ts';
import * as passwords from './password-service.ts';
import { originOf } from '../security-log/index.ts';

const tags = ['auth'];
const errors = { 400: errorBodySchema, 429: errorBodySchema };
/** Per-IP limits: a reset mails someone, and each later step guesses at a secret. */
const perIp = (max: number, publicWhy: string) => ({
  access: { public: publicWhy },
  rateLimit: { max, timeWindow: '15 minutes' },
});

export async function passwordRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.post('/v1/rest-auth/password/reset/', {
    config: perIp(10, 'a reset is asked for without a session'),
    schema: {
      tags,
      summary:
        'Ask for a password reset: e-mails a 6-digit code and returns a reset token (the same answer for an unknown e-mail)',
      body: passwordResetRequestSchema,
      response: { 200: passwordResetResponseSchema, ...errors },
    },
    handler: async (request) => passwords.requestPasswordReset(ctx, request.body.email),
  });

  app.post('/v1/rest-auth/password/reset/identity/', {
    config: perIp(30, 'the reset token and the e-mailed code are the credential'),
    schema: {
      tags,
      summary: 'Exchange the e-mailed code and the reset token for a token that sets the password',
      body: passwordResetIdentitySchema,
      response: { 200: tokenResponseSchema, ...errors },
    },
    handler: async (request) =>
      passwords.verifyResetCode(ctx, request.body.token, request.body.code),
  });

  app.post('/v1/rest-auth/password/reset/confirm/', {
    config: perIp(30, 'the reset token is the credential'),
    schema: {
      tags,
      summary:
        'Set the new password; activates the account and signs out every session of the user',
      body: passwordResetConfirmSchema,
      response: { 200: detailResponseSchema, ...errors },
    },
    handler: async (request) =>
      passwords.confirmPasswordReset(
        ctx,
        request.body.token,
        request.body.password,
        originOf(request),
      ),
  });

  app.post('/v1/rest-auth/password/change/', {
    // Signed in: the kernel answers 401 to a caller without a valid token before the body is read.
    config: {
      access: { signedIn: 'the caller changes their own password', stepUp: true },
      rateLimit: { max: 20, timeWindow: '15 minutes' },
    },
    schema: {
      tags,
      summary: "Change the signed-in user's password; signs out the user's other sessions",
      security: [{ bearerAuth: [] }],
      body: passwordChangeSchema,
      response: { 200: detailResponseSchema, ...errors, 401: errorBodySchema },
    },
    handler: async (request) =>
      passwords.changePassword(ctx, requireSession(request), request.body, originOf(request)),
  });
}
