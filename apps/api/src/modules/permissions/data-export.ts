import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  accessRulePermissions,
  accessRules,
  customRoleRules,
  customRoles,
  memberCustomRoles,
  memberPermissionOverrides,
} from '../../db/schema/index.ts';
import { workspaceIdsOf, type Exporter } from '../../lib/data-export.ts';

/**
 * Rules and roles in the archives: the custom roles and permission overrides a user holds
 * (memberships.json), an organization's access rules, custom roles and what its members hold
 * (roles-and-rules.json).
 */

async function rolesAndRulesOf(db: Db, orgId: string) {
  const rules = await db
    .select()
    .from(accessRules)
    .where(eq(accessRules.organization_id, orgId))
    .orderBy(asc(accessRules.created_at), asc(accessRules.id));
  const grants = await db
    .select({ g: accessRulePermissions })
    .from(accessRulePermissions)
    .innerJoin(accessRules, eq(accessRules.id, accessRulePermissions.rule_id))
    .where(eq(accessRules.organization_id, orgId))
    .orderBy(asc(accessRulePermissions.permission));
  const roles = await db
    .select()
    .from(customRoles)
    .where(eq(customRoles.organization_id, orgId))
    .orderBy(asc(customRoles.created_at), asc(customRoles.id));
  const roleRules = await db
    .select({ r: customRoleRules })
    .from(customRoleRules)
    .innerJoin(customRoles, eq(customRoles.id, customRoleRules.role_id))
    .where(eq(customRoles.organization_id, orgId))
    .orderBy(asc(customRoleRules.priority));
  const held = await db
    .select()
    .from(memberCustomRoles)
    .where(inArray(memberCustomRoles.client_id, workspaceIdsOf(db, orgId)))
    .orderBy(
      asc(memberCustomRoles.client_id),
      asc(memberCustomRoles.user_id),
      asc(memberCustomRoles.priority),
    );
  const overrides = await db
    .select()
    .from(memberPermissionOverrides)
    .where(inArray(memberPermissionOverrides.client_id, workspaceIdsOf(db, orgId)))
    .orderBy(
      asc(memberPermissionOverrides.client_id),
      asc(memberPermissionOverrides.user_id),
      asc(memberPermissionOverrides.permission),
    );
  const scope = (r: typeof accessRules.$inferSelect | typeof customRoles.$inferSelect) => ({
    id: r.id,
    workspace_id: r.client_id,
    name: r.name,
    description: r.description,
    is_system: r.is_system,
    created_by: r.created_by,
    created_at: r.created_at,
    modified_at: r.modified_at,
    deleted_at: r.deleted_at,
  });
  return {
    access_rules: rules.map((r) => ({
      ...scope(r),
      module: r.module,
      permissions: grants
        .filter(({ g }) => g.rule_id === r.id)
        .map(({ g }) => ({ permission: g.permission, status: g.status })),
    })),
    custom_roles: roles.map((r) => ({
      ...scope(r),
      rules: roleRules
        .filter(({ r: link }) => link.role_id === r.id)
        .map(({ r: link }) => ({ rule_id: link.rule_id, priority: link.priority })),
    })),
    member_custom_roles: held.map((h) => ({
      workspace_id: h.client_id,
      user_id: h.user_id,
      role_id: h.role_id,
      priority: h.priority,
    })),
    member_permission_overrides: overrides.map((o) => ({
      workspace_id: o.client_id,
      user_id: o.user_id,
      permission: o.permission,
      status: o.status,
    })),
  };
}

export const permissionsExporter: Exporter = {
  tables: [
    'accessRules',
    'accessRulePermissions',
    'customRoles',
    'customRoleRules',
    'memberCustomRoles',
    'memberPermissionOverrides',
  ],
  sections: {
    USER: {
      'memberships.json#custom_roles': {
        json: async ({ db, id }) => {
          const roles = await db
            .select({ m: memberCustomRoles, name: customRoles.name })
            .from(memberCustomRoles)
            .innerJoin(customRoles, eq(customRoles.id, memberCustomRoles.role_id))
            .where(eq(memberCustomRoles.user_id, id))
            .orderBy(asc(memberCustomRoles.client_id), asc(memberCustomRoles.priority));
          return roles.map(({ m, name }) => ({
            workspace_id: m.client_id,
            role: { id: m.role_id, name },
            priority: m.priority,
          }));
        },
      },
      'memberships.json#permission_overrides': {
        json: async ({ db, id }) => {
          const overrides = await db
            .select()
            .from(memberPermissionOverrides)
            .where(eq(memberPermissionOverrides.user_id, id))
            .orderBy(
              asc(memberPermissionOverrides.client_id),
              asc(memberPermissionOverrides.permission),
            );
          return overrides.map((o) => ({
            workspace_id: o.client_id,
            permission: o.permission,
            status: o.status,
          }));
        },
      },
    },
    ORGANIZATION: {
      'roles-and-rules.json': { json: ({ db, id }) => rolesAndRulesOf(db, id) },
    },
  },
};
