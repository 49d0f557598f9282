import {
  errorBodySchema,
  invitationAcceptResponseSchema,
  invitationAcceptSchema,
  type InvitationKind,
} from '@portolan/contract';
import type { App } from '../../context.ts';
import { acceptInvitation } from './accept-service.ts';

const tags = ['invitations'];

/** Accepting costs a password hash when one is chosen: per address, like sign-in. */
const rateLimit = { max: 100, timeWindow: '15 minutes' };

const ACCEPT_PATHS: Record<InvitationKind, string> = {
  organization: '/v1/organizations/users/invitation/accept/',
  client: '/v1/clients/users/invitation/accept/',
};

/**
 * Accepting an invitation (decision 0008): no session needed, the token is the credential. A
 * valid session token sent along names the caller, who may only accept their own invitation; an
 * invalid or expired one is ignored (the confirm page works signed out).
 */
export async function acceptRoutes(app: App): Promise<void> {
  const { ctx } = app;

  for (const [kind, path] of Object.entries(ACCEPT_PATHS) as [InvitationKind, string][]) {
    const what = kind === 'client' ? 'workspace' : 'organization';
    app.post(path, {
      config: {
        access: { public: 'the invitation token is the credential', optionalSession: true },
        rateLimit,
      },
      schema: {
        tags,
        summary: `Accept a ${what} invitation by its token; answers needs_password (nothing changed) for an invitee who must first choose a password`,
        body: invitationAcceptSchema,
        response: {
          200: invitationAcceptResponseSchema,
          400: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
          410: errorBodySchema,
          429: errorBodySchema,
        },
      },
      handler: async (request) =>
        acceptInvitation(ctx, kind, request.body, request.auth && { userId: request.auth.userId }, {
          ip: request.ip,
          userAgent: request.headers['user-agent'],
        }),
    });
  }
}
