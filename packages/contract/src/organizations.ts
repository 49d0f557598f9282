import { z } from 'zod';
import { MAX_PAGE_LIMIT } from './constants.ts';
import { clientSchema } from './clients.ts';
import { logoField, moduleStateSchema, nameField, roleRefSchema } from './tenant-fields.ts';
import { paginated } from './pagination.ts';

/**
 * Organizations, workspaces ("clients" in the API), their modules and the caller's view of them
 * (spec §3, §4, §7 "Organizations" and "Clients"). Field names as the specification has them.
 */

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

export const organizationCreateSchema = z.strictObject({
  name: nameField('organization'),
  logo: logoField,
});
export type OrganizationCreate = z.infer<typeof organizationCreateSchema>;
export const organizationUpdateSchema = organizationCreateSchema;
export type OrganizationUpdate = z.infer<typeof organizationUpdateSchema>;

// ---- the caller's organizations and workspaces --------------------------------------------

export const myOrganizationEntrySchema = z.object({
  organization: organizationSchema.omit({ created: true }),
  clients: z.array(clientSchema.omit({ organization: true, created: true })),
});
export type MyOrganizationEntry = z.infer<typeof myOrganizationEntrySchema>;
export const myOrganizationsPageSchema = paginated(myOrganizationEntrySchema);

export const pageQuery = (defaultLimit: number) =>
  z.strictObject({
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(defaultLimit),
  });

/** GET /v1/clients/{id}/users/{userId}/settings/ */
export const userClientSettingsSchema = z.object({
  role: roleRefSchema.nullable(),
  client_modules: z.array(moduleStateSchema),
  client_information: z.object({ name: z.string() }),
});
