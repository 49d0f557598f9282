import {
  accessRuleInputSchema,
  accessRulePageSchema,
  accessRuleSchema,
  customRoleInputSchema,
  customRolePageSchema,
  customRoleSchema,
  permissionCatalogueSchema,
} from '@portolan/contract';
import { z } from 'zod';
import type { App } from '../../context.ts';
import { catalogueFor } from './catalogue.ts';
import { accessCheckRoutes } from './access-check-routes.ts';
import { memberPermissionRoutes } from './member-routes.ts';
import { errors, security, tags } from './route-parts.ts';
import {
  createCustomRole,
  deleteCustomRole,
  getCustomRole,
  listCustomRoles,
  replaceCustomRole,
} from './roles-service.ts';
import {
  createAccessRule,
  deleteAccessRule,
  getAccessRule,
  listAccessRules,
  replaceAccessRule,
} from './rules-service.ts';
import { registerScopedResource, type Level } from './scoped-routes.ts';

/**
 * The two levels access rules and custom roles live at (decision 0008): an organization's,
 * usable in all its workspaces (OWNER, ADMIN), and one workspace's (OWNER, ADMIN, MANAGER of it
 * or of its organization), which also lists its organization's, read-only there.
 */
const LEVELS: Level[] = [
  {
    prefix: '/v1/organizations/:orgId',
    what: 'the organization',
    alsoListed: '',
    params: z.strictObject({ orgId: z.uuid() }),
    read: { access: { organization: 'orgId', permission: 'organization.roles.read' } },
    manage: { access: { organization: 'orgId', permission: 'organization.roles.manage' } },
  },
  {
    prefix: '/v1/clients/:id',
    what: 'the workspace',
    alsoListed: ' (and its organization’s, read-only here)',
    params: z.strictObject({ id: z.uuid() }),
    read: { access: { client: 'id', permission: 'client.roles.read' } },
    manage: { access: { client: 'id', permission: 'client.roles.manage' } },
  },
];

export async function permissionRoutes(app: App): Promise<void> {
  for (const level of LEVELS) {
    app.get(`${level.prefix}/permissions/catalogue/`, {
      config: level.read,
      schema: {
        tags,
        summary: `The permission catalogue of this app by module and group, and what each default role gives (${level.what})`,
        security,
        params: level.params,
        response: { 200: permissionCatalogueSchema, ...errors },
      },
      handler: async () => catalogueFor(app.ctx.config.appProfile),
    });

    registerScopedResource(app, level, {
      path: 'access-rules',
      idParam: 'ruleId',
      one: 'access rule',
      aOne: 'an access rule',
      many: 'Access rules',
      refusedDelete: 'while custom roles list it (409 RULE_IN_USE)',
      input: accessRuleInputSchema,
      answer: accessRuleSchema,
      page: accessRulePageSchema,
      list: listAccessRules,
      get: getAccessRule,
      create: createAccessRule,
      replace: replaceAccessRule,
      remove: deleteAccessRule,
    });

    registerScopedResource(app, level, {
      path: 'custom-roles',
      idParam: 'roleId',
      one: 'custom role',
      aOne: 'a custom role',
      many: 'Custom roles (each with its rules in priority order)',
      refusedDelete: 'while members hold it (409 ROLE_IN_USE)',
      input: customRoleInputSchema,
      answer: customRoleSchema,
      page: customRolePageSchema,
      list: listCustomRoles,
      get: getCustomRole,
      create: createCustomRole,
      replace: replaceCustomRole,
      remove: deleteCustomRole,
    });
  }

  await memberPermissionRoutes(app);
  await accessCheckRoutes(app);
}
