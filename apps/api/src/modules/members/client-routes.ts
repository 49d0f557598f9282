import {
  clientMemberListQuerySchema,
  clientMemberPageSchema,
  clientMemberParamsSchema,
  clientMemberSchema,
  clientRoleUpdateSchema,
  errorBodySchema,
} from '@portolan/contract';
import { z } from 'zod';
import type { App } from '../../context.ts';
import { requireActor, toOwnerOrAdmin } from '../access/index.ts';
import {
  changeWorkspaceRole,
  getWorkspaceMember,
  listWorkspaceMembers,
  removeWorkspaceMember,
} from './client-service.ts';
import { errors, security, tags } from './org-routes.ts';

const manage = { client: 'id', permission: 'client.members.manage' } as const;

/** Members of a workspace (spec §7 "Clients"): the list, role changes, removal. */
export async function workspaceMemberRoutes(app: App): Promise<void> {
  const { ctx } = app;

  app.get('/v1/clients/:id/users/', {
    config: { access: { client: 'id', permission: 'client.members.read' } },
    schema: {
      tags,
      summary:
        'Members of the workspace, pending ones included, by workspace role then e-mail, with their organization role',
      security,
      params: clientMemberParamsSchema.pick({ id: true }),
      querystring: clientMemberListQuerySchema,
      response: { 200: clientMemberPageSchema, ...errors },
    },
    handler: async (request) => listWorkspaceMembers(ctx, requireActor(request), request.query),
  });

  app.get('/v1/clients/:id/users/:userId/', {
    config: { access: { client: 'id', permission: 'client.members.read' } },
    schema: {
      tags,
      summary: 'One member of the workspace (pending too), with their organization role',
      security,
      params: clientMemberParamsSchema,
      response: { 200: clientMemberSchema, ...errors },
    },
    handler: async (request) =>
      getWorkspaceMember(ctx, requireActor(request), request.params.userId),
  });

  app.put('/v1/clients/:id/users/:userId/roles/', {
    config: { access: { ...manage, stepUp: toOwnerOrAdmin } },
    schema: {
      tags,
      summary:
        'Change a member’s workspace role (§6: OWNER on anyone, ADMIN not on an OWNER, MANAGER not on an ADMIN or OWNER; a workspace OWNER’s needs the organization’s OWNER or ADMIN)',
      security,
      params: clientMemberParamsSchema,
      body: clientRoleUpdateSchema,
      response: { 200: clientMemberSchema, ...errors, 409: errorBodySchema },
    },
    handler: async (request) =>
      changeWorkspaceRole(ctx, requireActor(request), request.params.userId, request.body.role),
  });

  app.delete('/v1/clients/:id/users/:userId/', {
    config: { access: manage },
    schema: {
      tags,
      summary:
        'Remove a member from the workspace with their custom roles and overrides there (never a workspace OWNER: 409; a pending one’s invitation is cancelled)',
      security,
      params: clientMemberParamsSchema,
      response: { 204: z.null().describe('Removed'), ...errors, 409: errorBodySchema },
    },
    handler: async (request, reply) => {
      await removeWorkspaceMember(ctx, requireActor(request), request.params.userId);
      return reply.status(204).send(null);
    },
  });
}
