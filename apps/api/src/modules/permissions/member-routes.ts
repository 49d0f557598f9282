import {
  explainQuerySchema,
  explanationSchema,
  groupOverridesInputSchema,
  memberCustomRolesInputSchema,
  memberCustomRolesSchema,
  memberPermissionsSchema,
  permissionGroupParams,
} from '@portolan/contract';
import { z } from 'zod';
import type { App } from '../../context.ts';
import { requireActor } from '../access/index.ts';
import {
  explainMemberPermission,
  getMemberCustomRoles,
  getMemberPermissions,
  previewMemberCustomRoles,
  setGroupOverrides,
  setMemberCustomRoles,
} from './member-service.ts';
import { errors, security, tags } from './route-parts.ts';

const memberParams = z.strictObject({ id: z.uuid(), userId: z.uuid() });
/** Any member reaches the route; the service lets them read their own, others need client.roles.read. */
const readAccess = { access: { client: 'id', permission: 'client.read' } } as const;
const manageAccess = { access: { client: 'id', permission: 'client.roles.manage' } } as const;

/**
 * A member's permissions in one workspace (spec §7 GET/PUT …/users/{userId}/permissions/, decision
 * 0008 for the rest): effective permissions with their source, the explainer, a group's
 * overrides, and the member's custom roles with a preview.
 */
export async function memberPermissionRoutes(app: App): Promise<void> {
  const { ctx } = app;
  const base = '/v1/clients/:id/users/:userId';

  app.get(`${base}/permissions/`, {
    config: readAccess,
    schema: {
      tags,
      summary:
        'A member’s effective permissions by module and group, each with its status, own override and source (the member, or OWNER, ADMIN, MANAGER)',
      security,
      params: memberParams,
      response: { 200: memberPermissionsSchema, ...errors },
    },
    handler: async (request) =>
      getMemberPermissions(ctx, requireActor(request), request.params.userId),
  });

  app.get(`${base}/permissions/explain`, {
    config: readAccess,
    schema: {
      tags,
      summary:
        'Why a member has a permission or not: the steps looked at and the one that decided, with a sentence',
      security,
      params: memberParams,
      querystring: explainQuerySchema,
      response: { 200: explanationSchema, ...errors },
    },
    handler: async (request) =>
      explainMemberPermission(
        ctx,
        requireActor(request),
        request.params.userId,
        request.query.permission,
      ),
  });

  app.put(`${base}/permissions/:module/:group/`, {
    config: manageAccess,
    schema: {
      tags,
      summary:
        'Set the member’s overrides of one permission group: exactly the ALLOW and DENY listed; INHERIT or left out removes one',
      security,
      params: memberParams.extend(permissionGroupParams),
      body: groupOverridesInputSchema,
      response: { 200: memberPermissionsSchema, ...errors },
    },
    handler: async (request) => {
      const { userId, module, group } = request.params;
      return setGroupOverrides(ctx, requireActor(request), userId, { module, group }, request.body);
    },
  });

  app.get(`${base}/custom-roles/`, {
    config: readAccess,
    schema: {
      tags,
      summary: 'The member’s custom roles in this workspace, in priority order',
      security,
      params: memberParams,
      response: { 200: memberCustomRolesSchema, ...errors },
    },
    handler: async (request) =>
      getMemberCustomRoles(ctx, requireActor(request), request.params.userId),
  });

  app.put(`${base}/custom-roles/`, {
    config: manageAccess,
    schema: {
      tags,
      summary:
        'Set the member’s custom roles: roles of this workspace or its organization, priorities 1..n',
      security,
      params: memberParams,
      body: memberCustomRolesInputSchema,
      response: { 200: memberCustomRolesSchema, ...errors },
    },
    handler: async (request) =>
      setMemberCustomRoles(ctx, requireActor(request), request.params.userId, request.body),
  });

  app.post(`${base}/custom-roles/preview/`, {
    config: manageAccess,
    schema: {
      tags,
      summary:
        'The effective permissions the member would have with these custom roles; nothing is saved',
      security,
      params: memberParams,
      body: memberCustomRolesInputSchema,
      response: { 200: memberPermissionsSchema, ...errors },
    },
    handler: async (request) =>
      previewMemberCustomRoles(ctx, requireActor(request), request.params.userId, request.body),
  });
}
