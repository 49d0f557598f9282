import {
  emailChangeConfirmSchema,
  emailChangeRequestSchema,
  emailChangeResponseSchema,
  errorBodySchema,
} from '@portolan/contract';
import type { App } from '../../context.ts';
import { requireSession } from '../access/index.ts';
import { originOf } from '../security-log/index.ts';
import { confirmEmailChange, requestEmailChange } from './email-change.ts';

const tags = ['auth'];
const security = [{ bearerAuth: [] }];
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
};
/** Per account, after authentication: each request mails two addresses. */
const perAccount = (max: number) => ({
  max,
  timeWindow: '1 hour',
  keyGenerator: (request: { auth: { userId: string } | null; ip: string }) =>
    request.auth ? `email-change:${request.auth.userId}` : `ip:${request.ip}`,
});

/** Changing the account's e-mail address (issue 20 item 7). */
export async function emailChangeRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.post('/v1/user/email-change/', {
    config: {
      access: { signedIn: 'the caller changes their own address', stepUp: true },
      rateLimit: perAccount(10),
    },
    schema: {
      tags,
      summary:
        'Ask to change the e-mail address (password required): a code goes to the new address, a notice to the current one; a taken address answers alike and changes nothing',
      security,
      body: emailChangeRequestSchema,
      response: { 200: emailChangeResponseSchema, ...errors },
    },
    handler: async (request) =>
      requestEmailChange(ctx, requireSession(request), request.body, originOf(request)),
  });

  app.post('/v1/user/email-change/confirm/', {
    config: {
      access: { signedIn: 'the caller confirms their own new address' },
      rateLimit: perAccount(30),
    },
    schema: {
      tags,
      summary:
        'Confirm the new e-mail address with the code sent to it: the account switches to it',
      security,
      body: emailChangeConfirmSchema,
      response: { 200: emailChangeResponseSchema, ...errors },
    },
    handler: async (request) =>
      confirmEmailChange(ctx, requireSession(request), request.body.code, originOf(request)),
  });
}
