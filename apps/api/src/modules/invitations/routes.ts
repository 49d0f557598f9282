import {
  clientForceInvitationSchema,
  clientInvitationSchema,
  errorBodySchema,
  invitationSuggestionQuerySchema,
  invitationSuggestionSchema,
  invitedMemberSchema,
  organizationForceInvitationSchema,
  organizationInvitationSchema,
  type Permission,
} from '@portolan/contract';
import { z } from 'zod';
import type { App } from '../../context.ts';
import { requireActor } from '../access/index.ts';
import { forceInvite, invite, resendInvitation } from './service.ts';
import { suggestInvitees } from './suggestions.ts';

const tags = ['invitations'];
const security = [{ bearerAuth: [] }];

/** The errors every inviting route may answer. */
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

/** Invitations send e-mail to any address: a few hundred per quarter hour and address at most. */
const rateLimit = { max: 300, timeWindow: '15 minutes' };

/** The two tenants an invitation is made in: their path parameter and permission. */
const TENANTS = [
  {
    base: '/v1/organizations/:orgId',
    params: z.strictObject({ orgId: z.uuid() }),
    access: { organization: 'orgId', permission: 'organization.members.manage' as Permission },
    what: 'organization',
    invitation: organizationInvitationSchema,
    force: organizationForceInvitationSchema,
  },
  {
    base: '/v1/clients/:id',
    params: z.strictObject({ id: z.uuid() }),
    access: { client: 'id', permission: 'client.members.manage' as Permission },
    what: 'workspace',
    invitation: clientInvitationSchema,
    force: clientForceInvitationSchema,
  },
] as const;

/**
 * Spec §7: inviting, force-inviting and resending, under an organization and under a workspace
 * (the same rules; a workspace invitation of someone outside the organization also makes them its
 * pending external member), and the workspace's suggestions of whom to invite.
 */
export async function invitationRoutes(app: App): Promise<void> {
  const { ctx } = app;

  for (const tenant of TENANTS) {
    const { access, params, what } = tenant;

    app.post(`${tenant.base}/users/invitation/`, {
      config: { access, rateLimit },
      schema: {
        tags,
        summary: `Invite someone to the ${what} by e-mail (role default STAFF): a PENDING member, a notification and an e-mail with the link`,
        security,
        params,
        body: tenant.invitation,
        response: { 201: invitedMemberSchema, ...errors },
      },
      handler: async (request, reply) =>
        reply.status(201).send(await invite(ctx, requireActor(request), request.body)),
    });

    app.post(`${tenant.base}/users/force-invitation/`, {
      config: { access, rateLimit },
      schema: {
        tags,
        summary: `Add someone to the ${what} at once; a new account gets the password given, an existing one keeps its own; the e-mail never carries it`,
        security,
        params,
        body: tenant.force,
        response: { 201: invitedMemberSchema, ...errors },
      },
      handler: async (request, reply) =>
        reply.status(201).send(await forceInvite(ctx, requireActor(request), request.body)),
    });

    app.post(`${tenant.base}/users/:userId/resend-invitation/`, {
      config: { access, rateLimit },
      schema: {
        tags,
        summary: `Send a pending ${what} invitation again: the old link stops working, a new one is e-mailed`,
        security,
        params: params.extend({ userId: z.uuid() }),
        response: { 200: invitedMemberSchema, ...errors },
      },
      handler: async (request) =>
        resendInvitation(ctx, requireActor(request), request.params.userId),
    });
  }

  app.get('/v1/clients/:id/users/invitation/suggestion', {
    config: { access: { client: 'id', permission: 'client.members.manage' } },
    schema: {
      tags,
      summary:
        'Whom to invite: members of other workspaces the caller administers, not in this one, matched by key on e-mail and names',
      security,
      params: z.strictObject({ id: z.uuid() }),
      querystring: invitationSuggestionQuerySchema,
      response: { 200: z.array(invitationSuggestionSchema), ...errors },
    },
    handler: async (request) => suggestInvitees(ctx.db, requireActor(request), request.query),
  });
}
