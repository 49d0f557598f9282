import crypto from 'node:crypto';
import {
  APP_PROFILES,
  effectiveWorkspaceRole,
  ErrorCode,
  MODULE_LAUNCH_ALGORITHM,
  MODULE_LAUNCH_TOKEN_TTL_S,
  MODULE_NAMES,
  moduleLaunchAudience,
  type ModuleCode,
  type ModuleLaunch,
  type ModuleLaunchClaims,
} from '@portolan/contract';
import { SignJWT } from 'jose';
import type { AppContext } from '../../context.ts';
import { conflict } from '../../lib/errors.ts';
import type { Actor } from '../access/index.ts';
import { ownModuleAccess } from '../permissions/index.ts';
import { currentSigningKey } from './signing-keys.ts';

/**
 * POST /v1/clients/{clientId}/modules/{module}/launch/ (issue 21 item 4): a token the module's own
 * app verifies offline (GET /.well-known/jwks.json) that says who the caller is in the workspace
 * and what they may do in the module, for MODULE_LAUNCH_TOKEN_TTL_S. The kernel has decided the
 * caller is a member of the workspace (or its organization's OWNER or ADMIN); the module must be
 * part of this app and switched on there. Nothing is written; the token is never logged.
 */
export async function launchModule(
  ctx: AppContext,
  actor: Actor,
  module: ModuleCode,
): Promise<ModuleLaunch> {
  const name = MODULE_NAMES[module];
  if (!(APP_PROFILES[ctx.config.appProfile] as readonly ModuleCode[]).includes(module)) {
    throw conflict(ErrorCode.MODULE_NOT_ENABLED, `${name} is not part of this app.`);
  }
  const access = await ownModuleAccess(ctx, actor, module);
  if (!access.enabled) {
    throw conflict(
      ErrorCode.MODULE_NOT_ENABLED,
      `${name} is switched off in this workspace. An OWNER, ADMIN or MANAGER of the workspace can switch it on in the workspace settings.`,
    );
  }
  const claims: ModuleLaunchClaims = {
    client: actor.client!.id,
    org: actor.organization.id,
    role: effectiveWorkspaceRole(actor)!,
    permissions: access.allowed,
  };
  const { kid, key } = await currentSigningKey(ctx);
  const issuedAt = Math.floor(ctx.clock.now().getTime() / 1000);
  const expiresAt = issuedAt + MODULE_LAUNCH_TOKEN_TTL_S;
  const token = await new SignJWT({ ...claims })
    .setProtectedHeader({ alg: MODULE_LAUNCH_ALGORITHM, kid, typ: 'JWT' })
    .setIssuer(ctx.config.publicUrl)
    .setAudience(moduleLaunchAudience(module))
    .setSubject(actor.userId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .setJti(crypto.randomBytes(16).toString('base64url'))
    .sign(key);
  return {
    token,
    url: ctx.config.moduleUrls[module] ?? null,
    expires_at: new Date(expiresAt * 1000).toISOString(),
  };
}
