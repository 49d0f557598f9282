import type {
  ModuleCode,
  OrgRole,
  PermissionSetting,
  PermissionStatus,
  ResolutionRole,
  WorkspaceRole,
} from '@portolan/contract';
import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  accessRulePermissions,
  accessRules,
  clientMembers,
  clientModules,
  customRoleRules,
  customRoles,
  memberCustomRoles,
  memberPermissionOverrides,
  organizationMembers,
} from '../../db/schema/index.ts';
import { usableIn, type Scope } from './scope.ts';

/**
 * What a member's effective permissions are computed from, read in a fixed number of queries
 * whatever the number of roles, rules and permissions: the membership, the overrides, the
 * assigned roles, the roles' rules and permissions (one join), the workspace's modules.
 */

type Conn = Db | Tx;
export interface MemberKey {
  clientId: string;
  userId: string;
}

/** The rows of one member in one workspace. */
const ofMember = (t: typeof memberPermissionOverrides | typeof memberCustomRoles, m: MemberKey) =>
  and(eq(t.client_id, m.clientId), eq(t.user_id, m.userId));

/**
 * The member's workspace membership (MEMBER or PENDING: permissions may be set up before an
 * invitation is accepted) and their accepted organization role. With `lock`, the membership row
 * is locked for the transaction, which serialises changes to one member's permissions.
 */
export async function loadMembership(
  db: Conn,
  scope: Scope & { clientId: string },
  userId: string,
  lock = false,
) {
  const query = db
    .select({ workspaceRole: clientMembers.role, orgRole: organizationMembers.role })
    .from(clientMembers)
    .leftJoin(
      organizationMembers,
      and(
        eq(organizationMembers.organization_id, scope.organizationId),
        eq(organizationMembers.user_id, clientMembers.user_id),
        eq(organizationMembers.status, 'MEMBER'),
      ),
    )
    .where(and(eq(clientMembers.client_id, scope.clientId), eq(clientMembers.user_id, userId)));
  const [row] = lock ? await query.for('update', { of: clientMembers }) : await query;
  return (
    row && {
      workspaceRole: row.workspaceRole as WorkspaceRole,
      orgRole: (row.orgRole ?? null) as OrgRole | null,
    }
  );
}

export async function loadOverrides(db: Conn, member: MemberKey): Promise<PermissionSetting[]> {
  return db
    .select({
      permission: memberPermissionOverrides.permission,
      status: memberPermissionOverrides.status,
    })
    .from(memberPermissionOverrides)
    .where(ofMember(memberPermissionOverrides, member));
}

/** The member's live custom roles usable in the workspace, in priority order. */
export async function loadAssignments(db: Conn, scope: Scope, member: MemberKey) {
  return db
    .select({
      id: customRoles.id,
      name: customRoles.name,
      client_id: customRoles.client_id,
    })
    .from(memberCustomRoles)
    .innerJoin(
      customRoles,
      and(eq(customRoles.id, memberCustomRoles.role_id), usableIn(customRoles, scope)),
    )
    .where(ofMember(memberCustomRoles, member))
    .orderBy(asc(memberCustomRoles.priority));
}

/**
 * The given roles (those usable in the scope) with their live rules in priority order and each
 * rule's permissions, in one query; answered in the order of `roleIds`, unknown ones left out.
 */
export async function loadRoleTrees(
  db: Conn,
  scope: Scope,
  roleIds: readonly string[],
): Promise<ResolutionRole[]> {
  if (roleIds.length === 0) return [];
  const rows = await db
    .select({
      roleId: customRoles.id,
      roleName: customRoles.name,
      ruleId: accessRules.id,
      ruleName: accessRules.name,
      module: accessRules.module,
      permission: accessRulePermissions.permission,
      status: accessRulePermissions.status,
    })
    .from(customRoles)
    .leftJoin(customRoleRules, eq(customRoleRules.role_id, customRoles.id))
    .leftJoin(
      accessRules,
      and(eq(accessRules.id, customRoleRules.rule_id), isNull(accessRules.deleted_at)),
    )
    .leftJoin(accessRulePermissions, eq(accessRulePermissions.rule_id, accessRules.id))
    .where(and(inArray(customRoles.id, [...roleIds]), usableIn(customRoles, scope)))
    .orderBy(asc(customRoles.id), asc(customRoleRules.priority));
  type Rule = {
    id: string;
    name: string;
    module: ModuleCode | null;
    permissions: PermissionSetting[];
  };
  const roles = new Map<string, { id: string; name: string; rules: Map<string, Rule> }>();
  for (const row of rows) {
    let role = roles.get(row.roleId);
    if (!role)
      roles.set(row.roleId, (role = { id: row.roleId, name: row.roleName, rules: new Map() }));
    if (!row.ruleId) continue;
    let rule = role.rules.get(row.ruleId);
    if (!rule) {
      rule = {
        id: row.ruleId,
        name: row.ruleName!,
        module: row.module as ModuleCode | null,
        permissions: [],
      };
      role.rules.set(row.ruleId, rule);
    }
    if (row.permission) {
      rule.permissions.push({ permission: row.permission, status: row.status as PermissionStatus });
    }
  }
  return roleIds.flatMap((id) => {
    const role = roles.get(id);
    return role ? [{ id: role.id, name: role.name, rules: [...role.rules.values()] }] : [];
  });
}

/** The workspace's enabled modules. */
export async function loadEnabledModules(db: Conn, clientId: string): Promise<ModuleCode[]> {
  const rows = await db
    .select({ module: clientModules.module })
    .from(clientModules)
    .where(and(eq(clientModules.client_id, clientId), eq(clientModules.enabled, true)));
  return rows.map((r) => r.module as ModuleCode);
}

/** Sets the member's overrides among `keys` to exactly the explicit ones of `settings`. */
export async function writeOverrides(
  tx: Tx,
  member: MemberKey,
  keys: readonly string[],
  settings: readonly PermissionSetting[],
): Promise<void> {
  await tx
    .delete(memberPermissionOverrides)
    .where(
      and(
        ofMember(memberPermissionOverrides, member),
        inArray(memberPermissionOverrides.permission, [...keys]),
      ),
    );
  const explicit = settings.filter((s) => s.status !== 'INHERIT');
  if (explicit.length === 0) return;
  await tx.insert(memberPermissionOverrides).values(
    explicit.map((s) => ({
      client_id: member.clientId,
      user_id: member.userId,
      permission: s.permission,
      status: s.status,
    })),
  );
}

/** Sets the member's custom roles to exactly these. */
export async function writeAssignments(
  tx: Tx,
  member: MemberKey,
  roles: readonly { role: string; priority: number }[],
): Promise<void> {
  await tx.delete(memberCustomRoles).where(ofMember(memberCustomRoles, member));
  if (roles.length === 0) return;
  await tx.insert(memberCustomRoles).values(
    roles.map((r) => ({
      client_id: member.clientId,
      user_id: member.userId,
      role_id: r.role,
      priority: r.priority,
    })),
  );
}

/**
 * A person leaving workspaces loses their custom roles and own permission overrides there, in
 * one statement (the members module, removing them). `workspaces` selects the workspaces' ids.
 */
export async function dropMemberGrants(tx: Tx, userId: string, workspaces: SQL): Promise<void> {
  await tx.execute(sql`
    with roles as (delete from ${memberCustomRoles} where ${memberCustomRoles.user_id} = ${userId}
      and ${memberCustomRoles.client_id} in (${workspaces}))
    delete from ${memberPermissionOverrides}
      where ${memberPermissionOverrides.user_id} = ${userId}
      and ${memberPermissionOverrides.client_id} in (${workspaces})`);
}
