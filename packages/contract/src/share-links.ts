/**
 * Public share links (spec §2 "Any path containing /share/ is public and needs no login"): a
 * member shares a read-only view of one module page of a workspace as `/share/<token>`. The token
 * is 32 random bytes (base64url, 43 characters); only its SHA-256 is stored. Zod-free: the web
 * app's share modal and public page use the same constants and rules as the server.
 */
import { can, type ActorRoles } from './access.ts';
import { MODULE_CODES, MODULE_NAMES, type ModuleCode } from './constants.ts';

/** Random bytes of a token; base64url without padding makes 43 characters of [A-Za-z0-9_-]. */
export const SHARE_TOKEN_BYTES = 32;
export const SHARE_TOKEN_LENGTH = 43;
/** The shape of a token. Anything else is not a link (the public route answers 404 to it). */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const isShareTokenShape = (value: string): boolean => SHARE_TOKEN_PATTERN.test(value);

/** The path of a share link in the web app: it contains /share/, so it is public (spec §2). */
export const sharePath = (token: string): string => `/share/${token}`;

/**
 * At most this many live links (not revoked, not expired) per workspace; creating one more
 * answers 409 SHARE_LINK_LIMIT. Checked under the workspace's row lock, so races cannot pass it.
 */
export const SHARE_LINK_MAX_LIVE = 50;
/** An expiry is at most this many days ahead (and always in the future); none means no expiry. */
export const SHARE_LINK_MAX_DAYS = 365;
/** The workspace's links are listed this many a page (newest first). */
export const SHARE_LINK_PAGE_SIZE = 10;

/** A link is ACTIVE until revoked (REVOKED wins) or past its expiry (EXPIRED). */
export const SHARE_LINK_STATUSES = ['ACTIVE', 'EXPIRED', 'REVOKED'] as const;
export type ShareLinkStatus = (typeof SHARE_LINK_STATUSES)[number];

export const SHARE_LINK_STATUS_LABELS: Record<ShareLinkStatus, string> = {
  ACTIVE: 'Active',
  EXPIRED: 'Expired',
  REVOKED: 'Revoked',
};

/** The status of a link at `now`; times as ISO strings or dates. */
export function shareLinkStatus(
  link: { expires_at: string | Date | null; revoked_at: string | Date | null },
  now: Date,
): ShareLinkStatus {
  if (link.revoked_at !== null) return 'REVOKED';
  if (link.expires_at !== null && new Date(link.expires_at).getTime() <= now.getTime())
    return 'EXPIRED';
  return 'ACTIVE';
}

/**
 * Who may share a module page: any member who may open the workspace and its modules
 * (`client.read`: OWNER, ADMIN, MANAGER, STAFF and the external CLIENT), for a module enabled in
 * the workspace (spec §6 "A module is usable only if enabled"). The shared view holds nothing a
 * CLIENT member does not already see (the workspace's and the module's names).
 */
export function canShareModule(
  actor: ActorRoles,
  modules: readonly { module: string; enabled: boolean }[],
  module: string,
): boolean {
  return can(actor, 'client.read') && modules.some((m) => m.module === module && m.enabled);
}

/** Sees and revokes every link of the workspace: `client.shareLinks.manage` of the catalogue. */
export function managesAllShareLinks(actor: ActorRoles): boolean {
  return can(actor, 'client.shareLinks.manage');
}

/**
 * Who may see a link in the list and revoke it: its creator, and the workspace's OWNERs and
 * ADMINs. Everyone else does not see it at all (the list leaves it out, revoking answers 404):
 * the list names the creators, and members below ADMIN (the external CLIENT among them) are not
 * shown who else is in the workspace.
 */
export function canManageShareLink(
  actor: ActorRoles & { userId: string },
  link: { created_by: string | null },
): boolean {
  return (
    managesAllShareLinks(actor) || (link.created_by !== null && link.created_by === actor.userId)
  );
}

/**
 * What the public view says of each module: its overview, in the words of the module home. The
 * module's own tools live outside Portolan and are never part of a shared view.
 */
export const MODULE_OVERVIEWS: Record<ModuleCode, string> = {
  MAP: 'MAP Watcher watches marketplace listings for minimum advertised price violations and reports who broke them and when.',
  ROG: 'Rogue Watcher finds unauthorized sellers of the workspace’s products and follows them over time.',
  RA: 'Reporting Application gathers the workspace’s sales and channel figures into scheduled reports.',
  DS: 'Data Sources connects the marketplaces and feeds the other modules read from.',
  MT: 'Matrix compares products, prices and sellers across channels in one grid.',
  DC: 'Data Central keeps the workspace’s product and order data in one place, ready to export.',
  PF: 'Precise Financial reconciles marketplace payouts, fees and refunds with the books.',
  TR: '2D Transit follows the workspace’s shipments in transit: carriers, legs, dates and where each one is now.',
  SKUF: 'SKUFlex manages product codes and their variants across marketplaces.',
};

/** The module's label and overview for a shared view. */
export const sharedModuleText = (module: ModuleCode) => ({
  module_name: MODULE_NAMES[module],
  overview: MODULE_OVERVIEWS[module],
});

export const isShareableModule = (value: string): value is ModuleCode =>
  (MODULE_CODES as readonly string[]).includes(value);

/** The expiry choices of the share modal: no expiry, a number of days from now, or a date. */
export const SHARE_EXPIRY_CHOICES = [
  { value: 'none', label: 'Never' },
  { value: '1', label: '1 day' },
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: 'date', label: 'On a date' },
] as const;
export type ShareExpiryChoice = (typeof SHARE_EXPIRY_CHOICES)[number]['value'];
