import { effectiveWorkspaceRole, resolvePermissions, type ModuleCode } from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../access/index.ts';
import { resolutionInputOf } from './member-service.ts';

/** A caller's standing in one module of a workspace: whether it is on, and what they may do in it. */
export interface OwnModuleAccess {
  enabled: boolean;
  /** The module's permission keys the caller is allowed, in catalogue order. */
  allowed: string[];
}

/**
 * The caller's own effective permissions in one module of the actor's workspace (a module launch
 * token carries them, issue 21 item 4), resolved from the same input as a member's permissions
 * (member-service.ts). Unlike reading a member's permissions it needs no workspace membership: an
 * organization OWNER or ADMIN acts in every workspace of their organization through that role.
 */
export async function ownModuleAccess(
  ctx: AppContext,
  actor: Actor,
  module: ModuleCode,
): Promise<OwnModuleAccess> {
  const role = effectiveWorkspaceRole(actor);
  if (!actor.client || !role) throw new Error('ownModuleAccess needs an actor of a workspace');
  const target = { clientId: actor.client.id, userId: actor.userId, role };
  const { input } = await resolutionInputOf(ctx, actor, target);
  const catalogue = input.catalogue.filter((p) => p.module === module);
  const resolved = resolvePermissions({ ...input, catalogue });
  return {
    enabled: input.enabledModules.includes(module),
    allowed: catalogue.filter((p) => resolved[p.key]?.status === 'ALLOW').map((p) => p.key),
  };
}
