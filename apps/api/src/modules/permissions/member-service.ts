import {
  can,
  reachesWorkspaceMember,
  effectiveWorkspaceRole,
  explainPermission,
  findPermissionGroup,
  permissionsOfGroup,
  resolvePermissions,
  type AccessCheckAnswer,
  type ExplanationAnswer,
  type GroupOverridesInput,
  type MemberCustomRoles,
  type MemberCustomRolesInput,
  type MemberPermissions,
  type ModuleCode,
  type PermissionSetting,
  type ResolutionInput,
  type Role,
} from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import type { Db, Tx } from '../../db/client.ts';
import { fieldError, forbidden, notFound } from '../../lib/errors.ts';
import type { Actor } from '../access/index.ts';
import { ActivityAction, recordActivity } from '../activities/index.ts';
import { arrange, catalogueSlice } from './catalogue.ts';
import {
  loadAssignments,
  loadEnabledModules,
  loadMembership,
  loadOverrides,
  loadRoleTrees,
  writeAssignments,
  writeOverrides,
  type MemberKey,
} from './member-repo.ts';
import { shareRoles } from './roles-repo.ts';
import { lockScope, refOf } from './scope.ts';
import { refuseItems, refuseUnknownItems } from './refusals.ts';

/**
 * A member's permissions in one workspace: reading them (the member themselves, or the
 * workspace's OWNER, ADMIN or MANAGER), explaining one, setting a group's overrides and the
 * member's custom roles (OWNER, ADMIN, MANAGER, and spec §6: only on a member whose role they may
 * act on, so a MANAGER never on an ADMIN or OWNER), and previewing custom roles.
 */

type WorkspaceScope = { organizationId: string; clientId: string };

const workspaceOf = (actor: Actor): WorkspaceScope => {
  if (!actor.client) throw new Error('a member permission route without a workspace');
  return { organizationId: actor.organization.id, clientId: actor.client.id };
};

interface Target extends MemberKey {
  /** Their workspace role as it counts (an organization OWNER or ADMIN acts as such). */
  role: Role;
}

/**
 * The member acted on, or 404 when they are not a member of the workspace. Reading: oneself, or
 * with `client.roles.read`. Changing (the route already required `client.roles.manage`): only a
 * member whose role the actor may act on (canActOnRole). `lock` holds the membership row for the
 * transaction, so two changes to one member's permissions run one after the other.
 */
async function targetOf(
  db: Db | Tx,
  actor: Actor,
  userId: string,
  intent: 'read' | 'change',
  lock = false,
): Promise<Target> {
  if (intent === 'read' && userId !== actor.userId && !can(actor, 'client.roles.read')) {
    throw forbidden('Only the workspace’s OWNER, ADMIN or MANAGER may see others’ permissions.');
  }
  const scope = workspaceOf(actor);
  const membership = await loadMembership(db, scope, userId, lock);
  if (!membership) throw notFound('No such member of this workspace.');
  const role = effectiveWorkspaceRole(membership)!;
  const reached = reachesWorkspaceMember(
    { role: actor.workspaceRole ?? null, orgRole: actor.orgRole },
    { role: membership.workspaceRole, orgRole: membership.orgRole },
  );
  if (intent === 'change' && !reached) {
    throw forbidden(`Your role may not change the permissions of a member whose role is ${role}.`);
  }
  return { clientId: scope.clientId, userId, role };
}

/**
 * Everything resolution needs, in a fixed number of queries: overrides, modules and the assigned
 * roles side by side, then the roles' rules and permissions in one join. `roleIds` replaces the
 * assigned roles (a preview). Also resolves a caller's own permissions (own-permissions.ts).
 */
export async function resolutionInputOf(
  ctx: AppContext,
  actor: Actor,
  target: Target,
  roleIds?: readonly string[],
): Promise<{ input: ResolutionInput; overrides: PermissionSetting[] }> {
  const scope = workspaceOf(actor);
  const [overrides, enabledModules, assigned] = await Promise.all([
    loadOverrides(ctx.db, target),
    loadEnabledModules(ctx.db, target.clientId),
    roleIds ? Promise.resolve(null) : loadAssignments(ctx.db, scope, target),
  ]);
  const customRoles = await loadRoleTrees(ctx.db, scope, roleIds ?? assigned!.map((r) => r.id));
  return {
    overrides,
    input: {
      catalogue: catalogueSlice(ctx.config.appProfile),
      enabledModules,
      role: target.role,
      overrides,
      customRoles,
    },
  };
}

function toMemberPermissions(
  ctx: AppContext,
  target: Target,
  { input, overrides }: { input: ResolutionInput; overrides: PermissionSetting[] },
): MemberPermissions {
  const resolved = resolvePermissions(input);
  const overrideOf = new Map(overrides.map((o) => [o.permission, o.status]));
  const items = input.catalogue.map((p) => ({
    key: p.key,
    name: p.name,
    ...resolved[p.key]!,
    override: overrideOf.get(p.key) ?? 'INHERIT',
  }));
  return {
    user: target.userId,
    client: target.clientId,
    role: target.role,
    modules: arrange(ctx.config.appProfile, items, (module: ModuleCode) => ({
      enabled: input.enabledModules.includes(module),
    })),
  };
}

export async function getMemberPermissions(
  ctx: AppContext,
  actor: Actor,
  userId: string,
): Promise<MemberPermissions> {
  const target = await targetOf(ctx.db, actor, userId, 'read');
  return toMemberPermissions(ctx, target, await resolutionInputOf(ctx, actor, target));
}

export async function explainMemberPermission(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  permission: string,
): Promise<ExplanationAnswer> {
  const target = await targetOf(ctx.db, actor, userId, 'read');
  const { input } = await resolutionInputOf(ctx, actor, target);
  const explained = explainPermission(input, permission);
  if (!explained) throw notFound('This permission belongs to a module this app does not have.');
  return explained;
}

/**
 * POST /v1/access/check/ (issue 21 item 5): whether a member of the workspace may do something,
 * with the explainer's reason and chain, for a module's back end. Someone who is not a member
 * may not, and the answer says so (200, not 404: the question was a fair one).
 */
export async function checkMemberAccess(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  permission: string,
): Promise<AccessCheckAnswer> {
  if (!catalogueSlice(ctx.config.appProfile).some((p) => p.key === permission))
    throw fieldError('permission', `No such permission in this app: ${permission}.`);
  const scope = workspaceOf(actor);
  const membership = await loadMembership(ctx.db, scope, userId);
  if (!membership)
    return {
      allowed: false,
      reason: 'They are not a member of this workspace.',
      explanation: null,
    };
  const target = { ...scope, userId, role: effectiveWorkspaceRole(membership)! };
  const { input } = await resolutionInputOf(ctx, actor, target);
  const explanation = explainPermission(input, permission)!;
  return { allowed: explanation.status === 'ALLOW', reason: explanation.sentence, explanation };
}

/** Records a change of a member's permissions in the organization's log (UPDATE_MEMBER). */
async function recordChange(
  tx: Tx,
  ctx: AppContext,
  actor: Actor,
  target: Target,
  change: Record<string, unknown>,
) {
  await recordActivity(tx, {
    userId: actor.userId,
    action: ActivityAction.UPDATE_MEMBER,
    objectType: 'user',
    objectId: target.userId,
    organizationId: actor.organization.id,
    data: {
      app_profile: ctx.config.appProfile,
      client_id: target.clientId,
      client_name: actor.client!.name,
      ...change,
    },
    at: ctx.clock.now(),
  });
}

/**
 * PUT …/permissions/{module}/{group}/: the group's overrides become exactly the ALLOW and DENY
 * listed; INHERIT, or leaving a permission of the group out, removes its override.
 */
export async function setGroupOverrides(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  where: { module: ModuleCode; group: string },
  body: GroupOverridesInput,
): Promise<MemberPermissions> {
  const group = findPermissionGroup(where.module, where.group);
  const keys = permissionsOfGroup(where.module, where.group).map((p) => p.key);
  if (!group || !catalogueSlice(ctx.config.appProfile).some((p) => keys.includes(p.key))) {
    throw notFound('No such permission group in this app.');
  }
  refuseItems(
    body.permissions.flatMap((s, i) =>
      keys.includes(s.permission)
        ? []
        : [
            {
              field: `permissions.${i}.permission`,
              message: `Not a permission of the group ${group.name} of ${where.module}.`,
            },
          ],
    ),
  );
  const target = await ctx.db.transaction(async (tx) => {
    await lockScope(tx, workspaceOf(actor));
    const found = await targetOf(tx, actor, userId, 'change', true);
    await writeOverrides(tx, found, keys, body.permissions);
    await recordChange(tx, ctx, actor, found, {
      change: 'permissions',
      module: where.module,
      group: where.group,
      permissions: body.permissions,
    });
    return found;
  });
  return toMemberPermissions(ctx, target, await resolutionInputOf(ctx, actor, target));
}

// ---- a member's custom roles --------------------------------------------------------------------

const NO_SUCH_ROLE = 'No such custom role in this workspace or its organization.';

export async function getMemberCustomRoles(
  ctx: AppContext,
  actor: Actor,
  userId: string,
): Promise<MemberCustomRoles> {
  const target = await targetOf(ctx.db, actor, userId, 'read');
  const assigned = await loadAssignments(ctx.db, workspaceOf(actor), target);
  return { roles: assigned.map((r, i) => ({ role: refOf(r), priority: i + 1 })) };
}

/** The roles in priority order. */
const inOrder = (body: MemberCustomRolesInput) =>
  [...body.roles].sort((a, b) => a.priority - b.priority);

/**
 * Sets the member's custom roles (priorities 1..n, checked by the request schema); each must be
 * a live role of the workspace or its organization, held FOR SHARE so it is not deleted under
 * the assignment.
 */
export async function setMemberCustomRoles(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  body: MemberCustomRolesInput,
): Promise<MemberCustomRoles> {
  const scope = workspaceOf(actor);
  const ordered = inOrder(body);
  return ctx.db.transaction(async (tx) => {
    await lockScope(tx, scope);
    const target = await targetOf(tx, actor, userId, 'change', true);
    const found = new Map(
      (
        await shareRoles(
          tx,
          scope,
          body.roles.map((r) => r.role),
        )
      ).map((r) => [r.id, r]),
    );
    refuseUnknownItems(
      'roles',
      'role',
      body.roles.map((r) => r.role),
      new Set(found.keys()),
      NO_SUCH_ROLE,
    );
    await writeAssignments(tx, target, body.roles);
    const roles = ordered.map((r) => ({ role: refOf(found.get(r.role)!), priority: r.priority }));
    await recordChange(tx, ctx, actor, target, {
      change: 'custom_roles',
      roles: roles.map((r) => r.role.name),
    });
    return { roles };
  });
}

/** The member's effective permissions as these custom roles would make them; writes nothing. */
export async function previewMemberCustomRoles(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  body: MemberCustomRolesInput,
): Promise<MemberPermissions> {
  const target = await targetOf(ctx.db, actor, userId, 'change');
  const ids = inOrder(body).map((r) => r.role);
  const loaded = await resolutionInputOf(ctx, actor, target, ids);
  const found = new Set(loaded.input.customRoles.map((r) => r.id));
  refuseUnknownItems(
    'roles',
    'role',
    body.roles.map((r) => r.role),
    found,
    NO_SUCH_ROLE,
  );
  return toMemberPermissions(ctx, target, loaded);
}
