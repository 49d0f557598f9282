import {
  canManageShareLink,
  canShareModule,
  ErrorCode,
  isShareTokenShape,
  managesAllShareLinks,
  MODULE_NAMES,
  sharedModuleText,
  sharePath,
  shareLinkStatus,
  SHARE_LINK_MAX_DAYS,
  SHARE_LINK_MAX_LIVE,
  type ModuleCode,
  type Paginated,
  type SharedView,
  type ShareLink,
  type ShareLinkCreate,
  type ShareLinkCreated,
  type ShareLinkListQuery,
} from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { days } from '../../lib/clock.ts';
import { conflict, fieldError, notFound } from '../../lib/errors.ts';
import { pageFromRows } from '../../lib/pagination.ts';
import { lockTenant, type Actor } from '../access/index.ts';
import { ActivityAction, recordActivity } from '../activities/index.ts';
import {
  countLive,
  findOpenable,
  insertLink,
  lockLink,
  markRevoked,
  moduleEnabled,
  pageOfLinks,
  touchOpened,
  type CreatorFields,
  type ShareLinkRow,
} from './repo.ts';
import { hashShareToken, newShareToken } from './tokens.ts';

/**
 * The one answer for every link that opens nothing (unknown, of the wrong shape, revoked,
 * expired, its workspace or organization deleted, its module switched off): the same status and
 * body, so a visitor learns nothing about which.
 */
export const LINK_GONE_MESSAGE = 'This link is no longer valid.';
const linkGone = () => notFound(LINK_GONE_MESSAGE);

/** A link outside what the caller may see (another workspace's, or someone else's for a member). */
const noSuchLink = () => notFound('No such share link in this workspace.');

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toShareLinkDto(
  row: ShareLinkRow,
  creator: CreatorFields | null,
  now: Date,
): ShareLink {
  return {
    id: row.id,
    module: row.module as ModuleCode,
    module_name: MODULE_NAMES[row.module as ModuleCode] ?? row.module,
    created_by: creator && {
      id: creator.id,
      email: creator.email,
      first_name: creator.first_name,
      last_name: creator.last_name,
    },
    created_at: row.created_at.toISOString(),
    expires_at: iso(row.expires_at),
    revoked_at: iso(row.revoked_at),
    last_opened_at: iso(row.last_opened_at),
    status: shareLinkStatus(row, now),
  };
}

/** What the organization's log keeps of a link (no token, nor its hash). */
function activityData(ctx: AppContext, actor: Actor, row: ShareLinkRow) {
  return {
    app_profile: ctx.config.appProfile,
    client_id: actor.client!.id,
    client_name: actor.client!.name,
    module: row.module,
    share_link_id: row.id,
    expires_at: iso(row.expires_at),
  };
}

/** The expiry asked for, checked by the app's clock: in the future, at most a year ahead. */
function expiryOf(input: ShareLinkCreate, now: Date): Date | null {
  if (input.expires_at === undefined || input.expires_at === null) return null;
  const at = new Date(input.expires_at);
  if (Number.isNaN(at.getTime()))
    throw fieldError('expires_at', 'Give the expiry as an ISO 8601 date and time.');
  if (at.getTime() <= now.getTime())
    throw fieldError('expires_at', 'Choose an expiry in the future.');
  if (at.getTime() > now.getTime() + days(SHARE_LINK_MAX_DAYS))
    throw fieldError('expires_at', `A link can expire at most ${SHARE_LINK_MAX_DAYS} days ahead.`);
  return at;
}

/**
 * POST /v1/clients/{clientId}/share-links/: a member who may use the module shares its page.
 * One transaction under the workspace's row lock: the module is checked on, the live links are
 * counted against SHARE_LINK_MAX_LIVE, the link and the activity are written. The token is in
 * this answer only.
 */
export async function createShareLink(
  ctx: AppContext,
  actor: Actor,
  input: ShareLinkCreate,
): Promise<ShareLinkCreated> {
  const client = actor.client!;
  const now = ctx.clock.now();
  const expiresAt = expiryOf(input, now);
  const { token, hash } = newShareToken();
  const notUsable = () =>
    fieldError(
      'module',
      `${MODULE_NAMES[input.module]} is not switched on in this workspace, so it cannot be shared.`,
    );
  const row = await ctx.db.transaction(async (tx: Tx) => {
    if (!(await lockTenant(tx, { organizationId: client.organization_id, clientId: client.id })))
      throw notFound('Not found, or you are not a member of it.');
    const enabled = await moduleEnabled(tx, client.id, input.module);
    if (!canShareModule(actor, [{ module: input.module, enabled }], input.module))
      throw notUsable();
    if ((await countLive(tx, client.id, now)) >= SHARE_LINK_MAX_LIVE) {
      throw conflict(
        ErrorCode.SHARE_LINK_LIMIT,
        `This workspace already has ${SHARE_LINK_MAX_LIVE} live share links. Revoke one before making another.`,
        { limit: SHARE_LINK_MAX_LIVE },
      );
    }
    const created = await insertLink(tx, {
      clientId: client.id,
      module: input.module,
      tokenHash: hash,
      createdBy: actor.userId,
      expiresAt,
      now,
    });
    await recordActivity(tx, {
      userId: actor.userId,
      action: ActivityAction.CREATE_SHARE_LINK,
      objectType: 'client',
      objectId: client.id,
      organizationId: actor.organization.id,
      data: activityData(ctx, actor, created),
      at: now,
    });
    return created;
  });
  const user = actor.user;
  return {
    ...toShareLinkDto(
      row,
      { id: user.id, email: user.email, first_name: user.first_name, last_name: user.last_name },
      now,
    ),
    token,
    url: `${ctx.config.publicUrl}${sharePath(token)}`,
  };
}

/**
 * GET /v1/clients/{clientId}/share-links/: newest first. The workspace's OWNERs and ADMINs see
 * every link; other members see the links they made (canManageShareLink: one sees what one may
 * revoke). Never a token.
 */
export async function listShareLinks(
  ctx: AppContext,
  actor: Actor,
  query: ShareLinkListQuery,
): Promise<Paginated<ShareLink>> {
  const now = ctx.clock.now();
  const onlyBy = managesAllShareLinks(actor) ? null : actor.userId;
  const { rows, countAll } = await pageOfLinks(ctx.db, actor.client!.id, onlyBy, query);
  return pageFromRows(query, rows, (r) => toShareLinkDto(r.link, r.creator, now), countAll);
}

/**
 * DELETE /v1/clients/{clientId}/share-links/{linkId}/: the link stops opening at once. Its
 * creator or a workspace OWNER or ADMIN; for anyone else the link is not there (404, as in the
 * list). Revoking a revoked link answers 204 again and changes nothing (the first revocation's
 * time and activity stay).
 */
export async function revokeShareLink(
  ctx: AppContext,
  actor: Actor,
  linkId: string,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx: Tx) => {
    // The lock order of tenant writes: the organization, the workspace, then the link.
    await lockTenant(tx, { organizationId: actor.organization.id, clientId: actor.client!.id });
    const row = await lockLink(tx, actor.client!.id, linkId);
    if (!row || !canManageShareLink(actor, row)) throw noSuchLink();
    if (row.revoked_at !== null) return;
    await markRevoked(tx, row.id, now);
    await recordActivity(tx, {
      userId: actor.userId,
      action: ActivityAction.REVOKE_SHARE_LINK,
      objectType: 'client',
      objectId: actor.client!.id,
      organizationId: actor.organization.id,
      data: activityData(ctx, actor, { ...row, revoked_at: now }),
      at: now,
    });
  });
}

/**
 * GET /v1/share/{token}/: the read-only view a live link opens, found by the hash of the token.
 * Anything else answers the one 404 of linkGone.
 */
export async function openSharedView(ctx: AppContext, token: string): Promise<SharedView> {
  if (!isShareTokenShape(token)) throw linkGone();
  const now = ctx.clock.now();
  const row = await findOpenable(ctx.db, hashShareToken(token), now);
  if (!row) throw linkGone();
  await touchOpened(ctx.db, row.id, now);
  const module = row.module as ModuleCode;
  const name = row.creator ? `${row.creator.first_name} ${row.creator.last_name}`.trim() : '';
  return {
    module,
    ...sharedModuleText(module),
    workspace: { name: row.workspace.name, logo: row.workspace.logo },
    shared_by: name ? { name } : null,
    shared_at: row.created_at.toISOString(),
    expires_at: iso(row.expires_at),
  };
}
