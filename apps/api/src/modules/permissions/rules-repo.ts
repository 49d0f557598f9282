import {
  PERMISSION_KEYS,
  type AccessRule,
  type AccessRuleInput,
  type ModuleCode,
  type PermissionSetting,
} from '@portolan/contract';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import {
  accessRulePermissions,
  accessRules,
  customRoleRules,
  customRoles,
} from '../../db/schema/index.ts';
import { scopedReads } from './scoped-repo.ts';
import { ownedBy, scopeFieldsOf, usableIn, type Scope } from './scope.ts';

export type RuleRow = typeof accessRules.$inferSelect;

/** A rule's (permission, status) pairs, aggregated in the query that reads the rule. */
const permissionsOfRule = sql<PermissionSetting[]>`coalesce((select json_agg(json_build_object(
  'permission', p.permission, 'status', p.status)) from ${accessRulePermissions} p
  where p.rule_id = ${accessRules}.id), '[]'::json)`;

const catalogueOrder = (key: string) => {
  const at = PERMISSION_KEYS.indexOf(key as never);
  return at < 0 ? PERMISSION_KEYS.length : at;
};

export const toAccessRuleDto = (row: RuleRow, permissions: PermissionSetting[]): AccessRule => ({
  ...scopeFieldsOf(row),
  module: row.module as ModuleCode | null,
  permissions: [...permissions].sort(
    (a, b) => catalogueOrder(a.permission) - catalogueOrder(b.permission),
  ),
});

/** A page of the rules usable in a scope, one of them, one locked. */
export const ruleReads = scopedReads<RuleRow, PermissionSetting[]>(accessRules, permissionsOfRule);

/** A new rule of the scope; undefined when a live rule of the scope has the name. */
export async function insertRule(
  tx: Tx,
  scope: Scope,
  input: AccessRuleInput,
  createdBy: string,
): Promise<RuleRow | undefined> {
  const [row] = await tx
    .insert(accessRules)
    .values({
      organization_id: scope.organizationId,
      client_id: scope.clientId,
      name: input.name,
      description: input.description ?? '',
      module: input.module ?? null,
      created_by: createdBy,
    })
    .onConflictDoNothing()
    .returning();
  return row;
}

export async function updateRule(tx: Tx, id: string, input: AccessRuleInput): Promise<RuleRow> {
  const [row] = await tx
    .update(accessRules)
    .set({ name: input.name, description: input.description ?? '', module: input.module ?? null })
    .where(eq(accessRules.id, id))
    .returning();
  return row!;
}

/** Sets the rule's permissions to exactly these (two statements, whatever their number). */
export async function writeRulePermissions(
  tx: Tx,
  ruleId: string,
  permissions: readonly PermissionSetting[],
): Promise<void> {
  await tx.delete(accessRulePermissions).where(eq(accessRulePermissions.rule_id, ruleId));
  if (permissions.length === 0) return;
  await tx
    .insert(accessRulePermissions)
    .values(permissions.map((p) => ({ rule_id: ruleId, ...p })));
}

/** The live custom roles, of any scope, that list the rule. */
export async function rolesListingRule(tx: Tx, ruleId: string) {
  return tx
    .select({ id: customRoles.id, name: customRoles.name, client_id: customRoles.client_id })
    .from(customRoleRules)
    .innerJoin(customRoles, eq(customRoles.id, customRoleRules.role_id))
    .where(and(eq(customRoleRules.rule_id, ruleId), isNull(customRoles.deleted_at)))
    .orderBy(asc(sql`lower(${customRoles.name})`));
}

/**
 * Locks, so they cannot be deleted meanwhile, the live rules among `ids` that a role of the scope
 * may list (FOR SHARE: two roles may take the same rule at once).
 */
export async function shareRules(tx: Tx, scope: Scope, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(accessRules)
    .where(and(inArray(accessRules.id, [...ids]), usableIn(accessRules, scope)))
    .for('share');
}

export async function softDeleteRule(tx: Tx, scope: Scope, id: string, at: Date): Promise<void> {
  await tx
    .update(accessRules)
    .set({ deleted_at: at })
    .where(and(eq(accessRules.id, id), ownedBy(accessRules, scope)));
}
