import {
  errorBodySchema,
  grantAccessSchema,
  memberClientAccessSchema,
  orgMemberListQuerySchema,
  orgMemberPageSchema,
  orgMemberParamsSchema,
  orgMemberRemovalQuerySchema,
  orgMemberSchema,
  orgRoleUpdateSchema,
} from '@portolan/contract';
import { z } from 'zod';
import type { App } from '../../context.ts';
import { requireActor, toOwnerOrAdmin } from '../access/index.ts';
import { grantClientAccess, listMemberClients } from './client-access-service.ts';
import {
  changeOrganizationRole,
  getOrganizationMember,
  listOrganizationMembers,
  removeOrganizationMember,
} from './org-service.ts';

export const tags = ['members'];
export const security = [{ bearerAuth: [] }];

/** The errors every member route may answer. */
export const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};

const read = { organization: 'orgId', permission: 'organization.members.read' } as const;
const manage = { organization: 'orgId', permission: 'organization.members.manage' } as const;

/**
 * Members of an organization (spec §7 "Organizations"): the list, one member, removal, role
 * changes, and the client-access screen's workspaces and grants. `userId` is the member's user id.
 */
export async function organizationMemberRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.get('/v1/organizations/:orgId/users/', {
    config: { access: read },
    schema: {
      tags,
      summary:
        'Members of the organization, pending ones included, by role then e-mail; roles=OWNER,ADMIN,STAFF (internal) or CLIENT (external) filters',
      security,
      params: orgMemberParamsSchema.pick({ orgId: true }),
      querystring: orgMemberListQuerySchema,
      response: { 200: orgMemberPageSchema, ...errors },
    },
    handler: async (request) => listOrganizationMembers(ctx, requireActor(request), request.query),
  });

  app.get('/v1/organizations/:orgId/users/:userId/', {
    config: { access: read },
    schema: {
      tags,
      summary: 'One member of the organization (404 when the person is not a member of it)',
      security,
      params: orgMemberParamsSchema,
      response: { 200: orgMemberSchema, ...errors },
    },
    handler: async (request) =>
      getOrganizationMember(ctx, requireActor(request), request.params.userId),
  });

  app.delete('/v1/organizations/:orgId/users/:userId/', {
    config: { access: manage },
    schema: {
      tags,
      summary:
        'Remove a member (never oneself, nor an OWNER unless an OWNER, nor the last OWNER); one still in workspaces needs choice=remove_everywhere or keep_as_external; a pending one’s invitation is cancelled',
      security,
      params: orgMemberParamsSchema,
      querystring: orgMemberRemovalQuerySchema,
      response: { 204: z.null().describe('Removed'), ...errors, 409: errorBodySchema },
    },
    handler: async (request, reply) => {
      await removeOrganizationMember(
        ctx,
        requireActor(request),
        request.params.userId,
        request.query.choice,
      );
      return reply.status(204).send(null);
    },
  });

  app.put('/v1/organizations/:orgId/users/:userId/role/', {
    config: { access: { ...manage, stepUp: toOwnerOrAdmin } },
    schema: {
      tags,
      summary:
        'Change a member’s organization role (OWNER: anyone’s; ADMIN: not an OWNER’s, never to OWNER); never the last OWNER’s; OWNER or ADMIN get every active workspace',
      security,
      params: orgMemberParamsSchema,
      body: orgRoleUpdateSchema,
      response: { 200: orgMemberSchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request) =>
      changeOrganizationRole(ctx, requireActor(request), request.params.userId, request.body.role),
  });

  app.get('/v1/organizations/:orgId/users/:userId/client/', {
    config: { access: read },
    schema: {
      tags,
      summary:
        'The organization’s workspaces the caller sees, each with the member’s role and status there (null when not a member of it)',
      security,
      params: orgMemberParamsSchema,
      response: { 200: z.array(memberClientAccessSchema), ...errors },
    },
    handler: async (request) =>
      listMemberClients(ctx, requireActor(request), request.params.userId),
  });

  app.post('/v1/organizations/:orgId/users/:userId/clients/grant_access/', {
    config: { access: manage },
    schema: {
      tags,
      summary:
        'Add the member to workspaces of the organization with a role each, or change their role there; all or nothing (a workspace of another organization: 404)',
      security,
      params: orgMemberParamsSchema,
      body: grantAccessSchema,
      response: { 200: z.array(memberClientAccessSchema), ...errors, 409: errorBodySchema },
    },
    handler: async (request) =>
      grantClientAccess(ctx, requireActor(request), request.params.userId, request.body),
  });
}
