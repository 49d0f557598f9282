import {
  ErrorCode,
  type CustomRole,
  type CustomRoleInput,
  type Paginated,
  type RuleListQuery,
} from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { customRoles } from '../../db/schema/index.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { Actor } from '../access/index.ts';
import { refuseUnknownItems } from './refusals.ts';
import {
  holdersOfRole,
  insertRole,
  roleReads,
  softDeleteRole,
  toCustomRoleDto,
  updateRole,
  writeRoleRules,
} from './roles-repo.ts';
import { shareRules } from './rules-repo.ts';
import {
  assertChangeable,
  lockScope,
  nameIsTaken,
  nameTaken,
  scopeOf,
  type Scope,
} from './scope.ts';

/**
 * Custom roles of an organization or a workspace: a name and an ordered list of access rules
 * (priorities 1..n, checked by the request schema). A workspace's role may list the workspace's
 * rules and its organization's; an organization's role only the organization's.
 */

const WHAT = 'custom role';
const missing = () => notFound('No such custom role here.');

/**
 * Locks the listed rules FOR SHARE (a rule cannot be deleted under a role being saved) and
 * answers them in the order given; a rule that is not usable here is a 400 naming its item.
 */
async function takeRules(tx: Tx, scope: Scope, input: CustomRoleInput) {
  const ids = input.rules.map((r) => r.rule);
  const found = new Map((await shareRules(tx, scope, ids)).map((r) => [r.id, r]));
  refuseUnknownItems(
    'rules',
    'rule',
    ids,
    new Set(found.keys()),
    'No such access rule in this organization or workspace.',
  );
  return [...input.rules]
    .sort((a, b) => a.priority - b.priority)
    .map((r) => ({ ...found.get(r.rule)!, priority: r.priority }));
}

export const listCustomRoles = (
  ctx: AppContext,
  actor: Actor,
  query: RuleListQuery,
): Promise<Paginated<CustomRole>> => roleReads.page(ctx.db, scopeOf(actor), query, toCustomRoleDto);

export async function getCustomRole(
  ctx: AppContext,
  actor: Actor,
  id: string,
): Promise<CustomRole> {
  const found = await roleReads.find(ctx.db, scopeOf(actor), id);
  if (!found) throw missing();
  return toCustomRoleDto(found.row, found.parts);
}

export async function createCustomRole(
  ctx: AppContext,
  actor: Actor,
  input: CustomRoleInput,
): Promise<CustomRole> {
  const scope = scopeOf(actor);
  return ctx.db.transaction(async (tx) => {
    await lockScope(tx, scope);
    const rules = await takeRules(tx, scope, input);
    const created = await insertRole(tx, scope, input, actor.userId);
    if (!created) throw nameTaken(WHAT, scope);
    await writeRoleRules(tx, created.id, input.rules);
    return toCustomRoleDto(created, rules);
  });
}

/** Replaces name, description and rules (what PUT leaves out is emptied). */
export async function replaceCustomRole(
  ctx: AppContext,
  actor: Actor,
  id: string,
  input: CustomRoleInput,
): Promise<CustomRole> {
  const scope = scopeOf(actor);
  return ctx.db.transaction(async (tx) => {
    await lockScope(tx, scope);
    const current = await roleReads.lock(tx, scope, id);
    if (!current) throw missing();
    assertChangeable(current, scope, WHAT);
    const rules = await takeRules(tx, scope, input);
    if (await nameIsTaken(tx, customRoles, scope, input.name, id)) throw nameTaken(WHAT, scope);
    const updated = await updateRole(tx, id, input);
    await writeRoleRules(tx, id, input.rules);
    return toCustomRoleDto(updated, rules);
  });
}

/**
 * Soft-deletes a role. A role that members of live workspaces hold is refused (409 ROLE_IN_USE
 * naming them, like a rule in use): what those members may do would change without anyone
 * deciding it for them. Take it from them first (decision 0008).
 */
export async function deleteCustomRole(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  const scope = scopeOf(actor);
  await ctx.db.transaction(async (tx) => {
    await lockScope(tx, scope);
    // The row lock waits for an assignment being saved with this role (it holds it FOR SHARE).
    const current = await roleReads.lock(tx, scope, id);
    if (!current) throw missing();
    assertChangeable(current, scope, WHAT);
    const holders = await holdersOfRole(tx, id);
    if (holders.count > 0) {
      throw conflict(
        ErrorCode.ROLE_IN_USE,
        `${holders.count} member${holders.count === 1 ? '' : 's'} hold this role. Take it from them first.`,
        holders,
      );
    }
    await softDeleteRole(tx, scope, id, ctx.clock.now());
  });
}
