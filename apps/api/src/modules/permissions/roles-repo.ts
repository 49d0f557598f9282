import type { CustomRole, ModuleCode } from '@portolan/contract';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import {
  accessRules,
  clientMembers,
  clients,
  customRoleRules,
  customRoles,
  memberCustomRoles,
  users,
} from '../../db/schema/index.ts';
import { windowTotal } from '../../lib/pagination.ts';
import { scopedReads } from './scoped-repo.ts';
import { ownedBy, refOf, scopeFieldsOf, usableIn, type Scope } from './scope.ts';

export type RoleRow = typeof customRoles.$inferSelect;

interface ListedRule {
  id: string;
  name: string;
  module: string | null;
  client_id: string | null;
  priority: number;
}

/** A role's live rules in priority order, aggregated in the query that reads the role. */
const rulesOfRole = sql<ListedRule[]>`coalesce((select json_agg(json_build_object(
  'id', r.id, 'name', r.name, 'module', r.module, 'client_id', r.client_id,
  'priority', crr.priority) order by crr.priority)
  from ${customRoleRules} crr join ${accessRules} r on r.id = crr.rule_id
  where crr.role_id = ${customRoles}.id and r.deleted_at is null), '[]'::json)`;

export const toCustomRoleDto = (row: RoleRow, rules: readonly ListedRule[]): CustomRole => ({
  ...scopeFieldsOf(row),
  rules: rules.map((r) => ({
    rule: { ...refOf(r), module: r.module as ModuleCode | null },
    priority: r.priority,
  })),
});

/** A page of the roles usable in a scope, one of them, one locked. */
export const roleReads = scopedReads<RoleRow, ListedRule[]>(customRoles, rulesOfRole);

/**
 * Locks, so they cannot be deleted meanwhile, the live roles among `ids` usable in the scope
 * (FOR SHARE: many members may be given one role at once).
 */
export async function shareRoles(tx: Tx, scope: Scope, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(customRoles)
    .where(and(inArray(customRoles.id, [...ids]), usableIn(customRoles, scope)))
    .for('share');
}

/** A new role of the scope; undefined when a live role of the scope has the name. */
export async function insertRole(
  tx: Tx,
  scope: Scope,
  input: { name: string; description?: string | undefined },
  createdBy: string,
): Promise<RoleRow | undefined> {
  const [row] = await tx
    .insert(customRoles)
    .values({
      organization_id: scope.organizationId,
      client_id: scope.clientId,
      name: input.name,
      description: input.description ?? '',
      created_by: createdBy,
    })
    .onConflictDoNothing()
    .returning();
  return row;
}

export async function updateRole(
  tx: Tx,
  id: string,
  input: { name: string; description?: string | undefined },
): Promise<RoleRow> {
  const [row] = await tx
    .update(customRoles)
    .set({ name: input.name, description: input.description ?? '' })
    .where(eq(customRoles.id, id))
    .returning();
  return row!;
}

/** Sets the role's rules to exactly these (two statements, whatever their number). */
export async function writeRoleRules(
  tx: Tx,
  roleId: string,
  rules: readonly { rule: string; priority: number }[],
): Promise<void> {
  await tx.delete(customRoleRules).where(eq(customRoleRules.role_id, roleId));
  if (rules.length === 0) return;
  await tx
    .insert(customRoleRules)
    .values(rules.map((r) => ({ role_id: roleId, rule_id: r.rule, priority: r.priority })));
}

/** At most this many holders are named when a role in use is not deleted. */
const HOLDERS_NAMED = 100;

/** Members of live workspaces who hold the role (the first HOLDERS_NAMED, and how many in all). */
export async function holdersOfRole(tx: Tx, roleId: string) {
  const rows = await tx
    .select({
      client: clients.id,
      client_name: clients.name,
      user: users.id,
      email: users.email,
      total: windowTotal,
    })
    .from(memberCustomRoles)
    .innerJoin(
      clientMembers,
      and(
        eq(clientMembers.client_id, memberCustomRoles.client_id),
        eq(clientMembers.user_id, memberCustomRoles.user_id),
      ),
    )
    .innerJoin(clients, and(eq(clients.id, clientMembers.client_id), isNull(clients.deleted_at)))
    .innerJoin(users, eq(users.id, memberCustomRoles.user_id))
    .where(eq(memberCustomRoles.role_id, roleId))
    .orderBy(asc(clients.name), asc(users.email))
    .limit(HOLDERS_NAMED);
  return { count: rows[0]?.total ?? 0, members: rows.map(({ total: _, ...m }) => m) };
}

/**
 * Soft-deletes the role and drops what is left of its assignments (people no longer members of
 * the workspace), so nobody who comes back finds a deleted role in their list.
 */
export async function softDeleteRole(tx: Tx, scope: Scope, id: string, at: Date): Promise<void> {
  await tx.delete(memberCustomRoles).where(eq(memberCustomRoles.role_id, id));
  await tx
    .update(customRoles)
    .set({ deleted_at: at })
    .where(and(eq(customRoles.id, id), ownedBy(customRoles, scope)));
}
