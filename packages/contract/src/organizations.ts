import { z } from 'zod';
import { MAX_PAGE_LIMIT, PAGE_SIZE } from './constants.ts';
import { clientSchema } from './clients.ts';
import { logoField, moduleStateSchema, nameField, roleRefSchema } from './tenant-fields.ts';
import { paginated } from './pagination.ts';
import { singleLine } from './text.ts';

/**
 * Organizations, workspaces ("clients" in the API), their modules and the caller's view of them
 * (spec §3, §4, §7 "Organizations" and "Clients"). Field names as the specification has them.
 */

export const pageQuery = (defaultLimit: number) =>
  z.strictObject({
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(defaultLimit),
  });

// ---- organizations -------------------------------------------------------------------------

export const organizationSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  logo: z.string().nullable(),
  /** The caller's membership is accepted (false while an invitation is pending). */
  has_access: z.boolean(),
  role: roleRefSchema.nullable(),
  created: z.iso.datetime({ offset: true }),
});
export type Organization = z.infer<typeof organizationSchema>;
export const organizationPageSchema = paginated(organizationSchema);

/** GET /v1/organizations/: the caller's organizations, by name. */
export const organizationListQuerySchema = pageQuery(PAGE_SIZE.orgList);

export const organizationCreateSchema = z.strictObject({
  name: nameField('organization'),
  logo: logoField,
});
export type OrganizationCreate = z.infer<typeof organizationCreateSchema>;
/**
 * PUT /v1/organizations/{id}/: the name is required; a logo left out stays as it is, null removes it.
 * @alias the same fields as creation
 */
export const organizationUpdateSchema = organizationCreateSchema;
export type OrganizationUpdate = z.infer<typeof organizationUpdateSchema>;

export const organizationParamsSchema = z.strictObject({ id: z.uuid('Not a valid id.') });

// ---- the caller's organizations and workspaces --------------------------------------------

/** A workspace as the caller sees it in their lists: their role in it (effective) and its modules. */
export const myClientSchema = clientSchema.omit({ organization: true, created: true });
export type MyClient = z.infer<typeof myClientSchema>;

export const myOrganizationEntrySchema = z.object({
  organization: organizationSchema.omit({ created: true }),
  clients: z.array(myClientSchema),
});
export type MyOrganizationEntry = z.infer<typeof myOrganizationEntrySchema>;
export const myOrganizationsPageSchema = paginated(myOrganizationEntrySchema);
/** GET /v1/me/organizations/and/clients/: page 1, 250 organizations by default (spec §7, §9). */
export const myOrganizationsQuerySchema = pageQuery(PAGE_SIZE.orgList);

/** GET /v1/user/clients/: the caller's workspaces, 500 by default (spec §7, §9). */
export const userClientsQuerySchema = pageQuery(PAGE_SIZE.userClients);
export const userClientsPageSchema = paginated(clientSchema);

/** The latest time a query may name: the end of year 9999, as ISO 8601 allows. */
const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const isoDateTime = z.iso.datetime({ offset: true });

/**
 * A time sent in a query: ISO 8601 with a zone (`2026-01-31T12:00:00Z`) or milliseconds since
 * 1970 (`Date.now()`); null when it is neither, or before 1970 or after 9999.
 */
export function parseQueryTime(value: string): Date | null {
  let ms: number;
  if (/^\d{1,16}$/.test(value)) ms = Number(value);
  else if (isoDateTime.safeParse(value).success) ms = Date.parse(value);
  else return null;
  if (!Number.isFinite(ms) || ms < 0 || ms > LATEST_MS) return null;
  return new Date(ms);
}

export const queryTimeField = singleLine()
  .max(64)
  .refine(
    (value) => parseQueryTime(value) !== null,
    'Give a time as ISO 8601 with a zone (2026-01-31T12:00:00Z) or milliseconds since 1970.',
  )
  .transform((value) => parseQueryTime(value)!);

/**
 * GET /v1/user/clients/all-settings-data/: 250 by default; with `timestamp` (the one the previous
 * answer gave), only workspaces whose data changed since.
 */
export const allSettingsQuerySchema = pageQuery(PAGE_SIZE.allSettings).extend({
  timestamp: queryTimeField.optional(),
});
export type AllSettingsQuery = z.infer<typeof allSettingsQuerySchema>;

/** A workspace with the time its data (itself, its modules, the caller's membership) last changed. */
export const allSettingsEntrySchema = clientSchema.extend({
  modified: z.iso.datetime({ offset: true }),
});
export type AllSettingsEntry = z.infer<typeof allSettingsEntrySchema>;
export const allSettingsPageSchema = paginated(allSettingsEntrySchema).extend({
  /**
   * Send this as `timestamp` next time to get only what changed in between. It lies a few seconds
   * before the server read the data, so a change committed late is never missed (a few workspaces
   * may come twice). Workspaces the caller no longer sees are not reported: reload the full list
   * (without `timestamp`) to drop them.
   */
  timestamp: z.iso.datetime({ offset: true }),
});

/** GET /v1/clients/{id}/users/{userId}/settings/ */
export const userClientSettingsParamsSchema = z.strictObject({
  id: z.uuid('Not a valid id.'),
  userId: z.uuid('Not a valid id.'),
});
export const userClientSettingsSchema = z.object({
  role: roleRefSchema.nullable(),
  client_modules: z.array(moduleStateSchema),
  client_information: z.object({ name: z.string() }),
});
export type UserClientSettings = z.infer<typeof userClientSettingsSchema>;
