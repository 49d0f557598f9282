import {
  ActivityAction,
  can,
  ErrorCode,
  MAX_API_KEYS_PER_ORGANIZATION,
  type ApiKey,
  type ApiKeyCreate,
  type ApiKeyCreated,
  type Permission,
} from '@portolan/contract';
import { and, count, desc, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { apiKeys, clients, users } from '../../db/schema/index.ts';
import { conflict, fieldError, notFound } from '../../lib/errors.ts';
import { lockTenant, type Actor } from '../access/index.ts';
import { recordActivity } from '../activities/index.ts';
import { recordEvent } from '../events/index.ts';
import { newApiKey } from './secret.ts';

type KeyRow = typeof apiKeys.$inferSelect;
type Creator = Pick<
  typeof users.$inferSelect,
  'id' | 'email' | 'first_name' | 'last_name' | 'avatar'
>;

const creatorFields = {
  id: users.id,
  email: users.email,
  first_name: users.first_name,
  last_name: users.last_name,
  avatar: users.avatar,
};

function toApiKey(row: KeyRow, creator: Creator | null): ApiKey {
  return {
    id: row.id,
    name: row.name,
    hint: row.hint,
    permissions: row.permissions,
    workspace_ids: row.workspace_ids,
    created_by: creator,
    created: row.created_at.toISOString(),
    expires_at: row.expires_at?.toISOString() ?? null,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    last_used_ip: row.last_used_ip,
  };
}

/** A key is live until revoked or past its expiry. */
const live = (now: Date) =>
  and(isNull(apiKeys.revoked_at), or(isNull(apiKeys.expires_at), gt(apiKeys.expires_at, now)));

/** The workspace ids that are not live workspaces of the organization. */
async function strangeWorkspaces(tx: Tx, organizationId: string, ids: readonly string[]) {
  const found = await tx
    .select({ id: clients.id })
    .from(clients)
    .where(
      and(
        eq(clients.organization_id, organizationId),
        inArray(clients.id, [...ids]),
        isNull(clients.deleted_at),
      ),
    );
  const known = new Set(found.map((c) => c.id));
  return ids.filter((id) => !known.has(id));
}

/**
 * POST /v1/organizations/{orgId}/api-keys/: a key with permissions the creator holds now (it will
 * never do more than they can: the kernel checks again on every request), limited to some
 * workspaces or not, expiring or not. Under the organization's lock, so the limit of live keys
 * holds for parallel creations. The key is answered this once; only its hash is kept.
 */
export async function createApiKey(
  ctx: AppContext,
  actor: Actor,
  input: ApiKeyCreate,
): Promise<ApiKeyCreated> {
  const now = ctx.clock.now();
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt <= now)
    throw fieldError(
      'expires_at',
      'Choose a time in the future, or none for a key that does not expire.',
    );
  const creatorRoles = { orgRole: actor.orgRole, workspaceRole: null };
  const beyond = input.permissions.filter((p) => !can(creatorRoles, p as Permission));
  if (beyond.length > 0)
    throw fieldError(
      'permissions',
      `You cannot give a key a permission you do not have: ${beyond.join(', ')}.`,
    );
  const organizationId = actor.organization.id;
  const workspaceIds = input.workspace_ids ? [...new Set(input.workspace_ids)] : null;
  const secret = newApiKey();
  const row = await ctx.db.transaction(async (tx) => {
    await lockTenant(tx, { organizationId });
    if (workspaceIds) {
      const strange = await strangeWorkspaces(tx, organizationId, workspaceIds);
      if (strange.length > 0)
        throw fieldError(
          'workspace_ids',
          `Not a workspace of this organization: ${strange.join(', ')}.`,
        );
    }
    const [held] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.organization_id, organizationId), live(now)));
    if ((held?.n ?? 0) >= MAX_API_KEYS_PER_ORGANIZATION)
      throw conflict(
        ErrorCode.API_KEY_LIMIT,
        `The organization already has ${MAX_API_KEYS_PER_ORGANIZATION} API keys. Revoke one you no longer use first.`,
      );
    const [created] = await tx
      .insert(apiKeys)
      .values({
        organization_id: organizationId,
        name: input.name,
        hint: secret.hint,
        key_hash: secret.hash,
        permissions: input.permissions,
        workspace_ids: workspaceIds,
        created_by: actor.userId,
        created_at: now,
        expires_at: expiresAt,
      })
      .returning();
    const key = created!;
    const data = { api_key_id: key.id, name: key.name, permissions: key.permissions };
    await recordActivity(tx, {
      userId: actor.userId,
      action: ActivityAction.CREATE_API_KEY,
      objectType: 'organization',
      objectId: organizationId,
      organizationId,
      data,
      at: now,
    });
    await recordEvent(tx, {
      organizationId,
      type: 'api_key.created',
      subject: `api_key:${key.id}`,
      data: { ...data, workspace_ids: key.workspace_ids, created_by: actor.userId },
      at: now,
    });
    return key;
  });
  return { ...toApiKey(row, actor.user), key: secret.key };
}

/** GET /v1/organizations/{orgId}/api-keys/: the keys not revoked, newest first, with their creators. */
export async function listApiKeys(ctx: AppContext, actor: Actor): Promise<{ results: ApiKey[] }> {
  const rows = await ctx.db
    .select({ key: apiKeys, creator: creatorFields })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.created_by))
    .where(and(eq(apiKeys.organization_id, actor.organization.id), isNull(apiKeys.revoked_at)))
    .orderBy(desc(apiKeys.created_at), desc(apiKeys.id));
  return { results: rows.map((r) => toApiKey(r.key, r.creator)) };
}

/**
 * DELETE /v1/organizations/{orgId}/api-keys/{keyId}/: the key stops at once here, and on every
 * other instance within KEY_TRUST_MS. A key of another organization, or one already revoked, 404.
 */
export async function revokeApiKey(ctx: AppContext, actor: Actor, keyId: string): Promise<void> {
  const now = ctx.clock.now();
  const organizationId = actor.organization.id;
  const revoked = await ctx.db.transaction(async (tx) => {
    await lockTenant(tx, { organizationId });
    const [key] = await tx
      .update(apiKeys)
      .set({ revoked_at: now, revoked_by: actor.userId })
      .where(
        and(
          eq(apiKeys.id, keyId),
          eq(apiKeys.organization_id, organizationId),
          isNull(apiKeys.revoked_at),
        ),
      )
      .returning();
    if (!key) throw notFound('No such API key in this organization, or it was already revoked.');
    const data = { api_key_id: key.id, name: key.name, permissions: key.permissions };
    await recordActivity(tx, {
      userId: actor.userId,
      action: ActivityAction.REVOKE_API_KEY,
      objectType: 'organization',
      objectId: organizationId,
      organizationId,
      data,
      at: now,
    });
    await recordEvent(tx, {
      organizationId,
      type: 'api_key.revoked',
      subject: `api_key:${key.id}`,
      data: { ...data, revoked_by: actor.userId },
      at: now,
    });
    return key;
  });
  ctx.apiKeys.forget(revoked.key_hash);
}
