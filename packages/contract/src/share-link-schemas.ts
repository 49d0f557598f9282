import { z } from 'zod';
import { MAX_PAGE_LIMIT, MODULE_CODES } from './constants.ts';
import { pageQuerySchema, paginated } from './pagination.ts';
import { SHARE_LINK_PAGE_SIZE, SHARE_LINK_STATUSES } from './share-links.ts';

/**
 * The share-link calls: a workspace's links (create, list, revoke) and the public read-only view
 * a link opens. Their zod-free constants and rules are in share-links.ts.
 */

const isoTime = z.iso.datetime({ offset: true });

/** The calendar day of an ISO date-time exists (no 30 February, which Date would roll over). */
const isRealDay = (value: string): boolean => {
  const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDate() === d;
};
const id = () => z.uuid('Not a valid id.');

export const shareLinkClientParamsSchema = z.strictObject({ clientId: id() });
export const shareLinkParamsSchema = z.strictObject({ clientId: id(), linkId: id() });
/**
 * GET /v1/share/{token}/: any text is taken, so that a token of the wrong shape answers the same
 * 404 as an unknown one (no 400 telling a prober which shapes are tokens).
 */
export const sharedViewParamsSchema = z.strictObject({ token: z.string() });

/** POST /v1/clients/{clientId}/share-links/: the module to share and an optional expiry. */
export const shareLinkCreateSchema = z.strictObject({
  module: z.enum(MODULE_CODES, `Choose a module: ${MODULE_CODES.join(', ')}.`),
  /**
   * In the future and at most SHARE_LINK_MAX_DAYS ahead (the server checks both by its clock);
   * null or left out: the link never expires.
   */
  expires_at: z.iso
    .datetime({
      offset: true,
      error: 'Give the expiry as an ISO 8601 date and time, such as 2030-01-31T12:00:00Z.',
    })
    .refine(isRealDay, 'That day does not exist.')
    .nullable()
    .optional(),
});
export type ShareLinkCreate = z.infer<typeof shareLinkCreateSchema>;

export const shareLinkListQuerySchema = pageQuerySchema(SHARE_LINK_PAGE_SIZE, MAX_PAGE_LIMIT);
export type ShareLinkListQuery = z.infer<typeof shareLinkListQuerySchema>;

/** Who made a link, as the workspace's list shows it (null once the account is gone). */
export const shareLinkCreatorSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
});

/** A link as the list shows it: never its token, which only the creation answer carries. */
export const shareLinkSchema = z.object({
  id: z.uuid(),
  module: z.enum(MODULE_CODES),
  module_name: z.string(),
  created_by: shareLinkCreatorSchema.nullable(),
  created_at: isoTime,
  expires_at: isoTime.nullable(),
  revoked_at: isoTime.nullable(),
  last_opened_at: isoTime.nullable(),
  status: z.enum(SHARE_LINK_STATUSES),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;
export const shareLinkPageSchema = paginated(shareLinkSchema);

/** The creation answer: the link with its token and full URL, shown this once. */
export const shareLinkCreatedSchema = shareLinkSchema.extend({
  token: z.string(),
  url: z.string(),
});
export type ShareLinkCreated = z.infer<typeof shareLinkCreatedSchema>;

/**
 * GET /v1/share/{token}/: the read-only view, and nothing else of the workspace: the module's
 * name and overview, the workspace's name and logo, the first name and last name of who shared
 * it (no e-mail, no ids) and when, and when it expires.
 */
export const sharedViewSchema = z.object({
  module: z.enum(MODULE_CODES),
  module_name: z.string(),
  overview: z.string(),
  workspace: z.object({ name: z.string(), logo: z.string().nullable() }),
  shared_by: z.object({ name: z.string() }).nullable(),
  shared_at: isoTime,
  expires_at: isoTime.nullable(),
});
export type SharedView = z.infer<typeof sharedViewSchema>;
