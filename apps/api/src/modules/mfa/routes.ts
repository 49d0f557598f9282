import {
  detailResponseSchema,
  errorBodySchema,
  mfaStatusResponseSchema,
  passkeyAddedResponseSchema,
  passkeyListResponseSchema,
  passkeyOptionsResponseSchema,
  passkeyRegistrationSchema,
  recoveryCodesResponseSchema,
  totpConfirmRequestSchema,
  totpSetupResponseSchema,
} from '@portolan/contract';
import { z } from 'zod';
import type { App } from '../../context.ts';
import { requireSession } from '../access/index.ts';
import {
  confirmTotp,
  mfaStatus,
  regenerateRecoveryCodes,
  removeTotp,
  setUpTotp,
} from './service.ts';
import { addPasskey, listPasskeys, registrationOptions, removePasskey } from './passkeys.ts';
import { originOf } from '../security-log/index.ts';

const tags = ['mfa'];
const security = [{ bearerAuth: [] }];
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };
/** Changing a factor needs a fresh proof of presence (issue 20 item 4). */
const change = {
  access: { signedIn: 'the caller’s own second factors', stepUp: true as const },
};

/** The account's second factors (issue 20 item 1): /v1/user/mfa/. */
export async function mfaRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.get('/v1/user/mfa/', {
    config: { access: { signedIn: 'the caller’s own second factors' } },
    schema: {
      tags,
      summary: 'The account’s second factors, and until when this session needs no step-up',
      security,
      response: { 200: mfaStatusResponseSchema, 401: errorBodySchema },
    },
    handler: async (request) => mfaStatus(ctx, requireSession(request)),
  });

  app.post('/v1/user/mfa/totp/', {
    config: change,
    schema: {
      tags,
      summary:
        'Start setting up an authenticator app: a new secret and its otpauth:// URL, pending until confirmed',
      security,
      response: { 200: totpSetupResponseSchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request) => setUpTotp(ctx, requireSession(request)),
  });

  app.post('/v1/user/mfa/totp/confirm/', {
    config: change,
    schema: {
      tags,
      summary:
        'Confirm the authenticator app with a code of it: TOTP is on, and the 10 recovery codes are shown this once',
      security,
      body: totpConfirmRequestSchema,
      response: { 200: recoveryCodesResponseSchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request) =>
      confirmTotp(ctx, requireSession(request), request.body.code, originOf(request)),
  });

  app.delete('/v1/user/mfa/totp/', {
    config: change,
    schema: {
      tags,
      summary: 'Remove the authenticator app; the recovery codes go with it',
      security,
      response: { 200: detailResponseSchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request) => removeTotp(ctx, requireSession(request), originOf(request)),
  });

  app.post('/v1/user/mfa/recovery-codes/', {
    config: change,
    schema: {
      tags,
      summary: 'New recovery codes, shown this once; the earlier ones stop working',
      security,
      response: { 200: recoveryCodesResponseSchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request) =>
      regenerateRecoveryCodes(ctx, requireSession(request), originOf(request)),
  });

  app.get('/v1/user/mfa/passkeys/', {
    config: { access: { signedIn: 'the caller’s own passkeys' } },
    schema: {
      tags,
      summary: 'The account’s passkeys, the oldest first',
      security,
      response: { 200: passkeyListResponseSchema, 401: errorBodySchema },
    },
    handler: async (request) => listPasskeys(ctx, requireSession(request).userId),
  });

  app.post('/v1/user/mfa/passkeys/options/', {
    config: change,
    schema: {
      tags,
      summary:
        'Start adding a passkey: the options for navigator.credentials.create() and the challenge to answer (5 minutes)',
      security,
      response: { 200: passkeyOptionsResponseSchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request) => registrationOptions(ctx, requireSession(request)),
  });

  app.post('/v1/user/mfa/passkeys/', {
    config: change,
    schema: {
      tags,
      summary:
        'Add the passkey the browser made for the challenge; the account’s first factor comes with recovery codes (shown once)',
      security,
      body: passkeyRegistrationSchema,
      response: { 201: passkeyAddedResponseSchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request, reply) =>
      reply
        .status(201)
        .send(await addPasskey(ctx, requireSession(request), request.body, originOf(request))),
  });

  app.delete('/v1/user/mfa/passkeys/:id/', {
    config: change,
    schema: {
      tags,
      summary: 'Remove a passkey; the recovery codes go with the account’s last factor',
      security,
      params: z.strictObject({ id: z.uuid('Not a valid id.') }),
      response: { 200: detailResponseSchema, ...errors, 404: errorBodySchema },
    },
    handler: async (request) =>
      removePasskey(ctx, requireSession(request), request.params.id, originOf(request)),
  });
}
