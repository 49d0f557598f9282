import {
  ErrorCode,
  type AccessRule,
  type AccessRuleInput,
  type Paginated,
  type RuleListQuery,
} from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import { accessRules } from '../../db/schema/index.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { Actor } from '../access/index.ts';
import {
  insertRule,
  rolesListingRule,
  ruleReads,
  softDeleteRule,
  toAccessRuleDto,
  updateRule,
  writeRulePermissions,
} from './rules-repo.ts';
import { assertChangeable, lockScope, nameIsTaken, nameTaken, refOf, scopeOf } from './scope.ts';

/**
 * Access rules of an organization or a workspace (the scope comes from the route). Unknown
 * permission keys, repeated ones and keys of another module than the rule's are refused by the
 * request schema; names are unique per scope among live rules, any case, even in a race.
 */

const WHAT = 'access rule';
const missing = () => notFound('No such access rule here.');

export const listAccessRules = (
  ctx: AppContext,
  actor: Actor,
  query: RuleListQuery,
): Promise<Paginated<AccessRule>> => ruleReads.page(ctx.db, scopeOf(actor), query, toAccessRuleDto);

export async function getAccessRule(
  ctx: AppContext,
  actor: Actor,
  id: string,
): Promise<AccessRule> {
  const found = await ruleReads.find(ctx.db, scopeOf(actor), id);
  if (!found) throw missing();
  return toAccessRuleDto(found.row, found.parts);
}

export async function createAccessRule(
  ctx: AppContext,
  actor: Actor,
  input: AccessRuleInput,
): Promise<AccessRule> {
  const scope = scopeOf(actor);
  const row = await ctx.db.transaction(async (tx) => {
    await lockScope(tx, scope);
    // DO NOTHING on the live-name index: a clash answers no row instead of aborting.
    const created = await insertRule(tx, scope, input, actor.userId);
    if (!created) throw nameTaken(WHAT, scope);
    await writeRulePermissions(tx, created.id, input.permissions);
    return created;
  });
  return toAccessRuleDto(row, input.permissions);
}

/** Replaces name, description, module and permissions (what PUT leaves out is emptied). */
export async function replaceAccessRule(
  ctx: AppContext,
  actor: Actor,
  id: string,
  input: AccessRuleInput,
): Promise<AccessRule> {
  const scope = scopeOf(actor);
  const row = await ctx.db.transaction(async (tx) => {
    await lockScope(tx, scope);
    const current = await ruleReads.lock(tx, scope, id);
    if (!current) throw missing();
    assertChangeable(current, scope, WHAT);
    if (await nameIsTaken(tx, accessRules, scope, input.name, id)) throw nameTaken(WHAT, scope);
    const updated = await updateRule(tx, id, input);
    await writeRulePermissions(tx, id, input.permissions);
    return updated;
  });
  return toAccessRuleDto(row, input.permissions);
}

/**
 * Soft-deletes a rule. A rule that live custom roles list is refused (409 RULE_IN_USE naming
 * them) rather than taken out of them: removing it would silently change what every holder of
 * those roles may do, in every workspace. Take it out of the roles first (decision 0008).
 */
export async function deleteAccessRule(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  const scope = scopeOf(actor);
  await ctx.db.transaction(async (tx) => {
    await lockScope(tx, scope);
    // The row lock waits for a role being saved with this rule (it holds it FOR SHARE).
    const current = await ruleReads.lock(tx, scope, id);
    if (!current) throw missing();
    assertChangeable(current, scope, WHAT);
    const roles = await rolesListingRule(tx, id);
    if (roles.length > 0) {
      throw conflict(
        ErrorCode.RULE_IN_USE,
        `Custom roles list this rule: ${roles.map((r) => r.name).join(', ')}. Take it out of them first.`,
        { roles: roles.map(refOf) },
      );
    }
    await softDeleteRule(tx, scope, id, ctx.clock.now());
  });
}
