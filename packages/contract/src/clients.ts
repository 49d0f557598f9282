import { z } from 'zod';
import { MAX_PAGE_LIMIT, PAGE_SIZE } from './constants.ts';
import {
  logoField,
  moduleStateSchema,
  nameField,
  NAME_MAX_LENGTH,
  roleRefSchema,
} from './tenant-fields.ts';
import { singleLine } from './text.ts';

/**
 * Workspaces ("clients" in the data and the API), their modules and applications
 * (spec §3, §7 "Clients" and the workspace calls of "Organizations").
 */

export const DEFAULT_DASHBOARD_BUTTON_COLOR = '#1985ac';

const colorField = singleLine().regex(/^#[0-9a-fA-F]{6}$/, 'Use a colour like #1985ac.');

export const clientSchema = z.object({
  id: z.uuid(),
  organization: z.uuid(),
  name: z.string(),
  logo: z.string().nullable(),
  /** False while a workspace created by STAFF waits for approval. */
  active: z.boolean(),
  role: roleRefSchema.nullable(),
  modules: z.array(moduleStateSchema),
  dashboard_button_color: z.string(),
  created: z.iso.datetime({ offset: true }),
});
export type Client = z.infer<typeof clientSchema>;

export const clientCreateSchema = z.strictObject({
  name: nameField('workspace'),
  logo: logoField,
});
export type ClientCreate = z.infer<typeof clientCreateSchema>;
/** POST /v1/clients/ names the organization in the body. */
export const clientCreateInOrganizationSchema = clientCreateSchema.extend({
  organization: z.uuid('Choose an organization.'),
});
export const clientUpdateSchema = z.strictObject({
  name: nameField('workspace').optional(),
  logo: logoField,
  dashboard_button_color: colorField.optional(),
});
export type ClientUpdate = z.infer<typeof clientUpdateSchema>;

export const CLIENT_STATUS_FILTERS = ['all', 'enabled', 'pending'] as const;
export const clientListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(PAGE_SIZE.orgList),
  status: z.enum(CLIENT_STATUS_FILTERS).default('all'),
  key: singleLine().max(NAME_MAX_LENGTH).optional(),
});
export type ClientListQuery = z.infer<typeof clientListQuerySchema>;

export const moduleUpdateSchema = z.strictObject({ enabled: z.boolean() });

/** The applications of a workspace: each app profile with the states of its modules. */
export const clientApplicationSchema = z.object({
  app: z.string(),
  modules: z.array(moduleStateSchema.extend({ name: z.string() })),
  enabled: z.boolean(),
});
export const clientApplicationUpdateSchema = z.strictObject({ enabled: z.boolean() });
