import { z } from 'zod';
import { APP_PROFILE_NAMES, MAX_PAGE_LIMIT, MODULE_CODES, PAGE_SIZE } from './constants.ts';
import { paginated } from './pagination.ts';
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
  /** Only in answers to users of INTERNAL_EMAIL_DOMAINS (REFERENCE); omitted for everyone else. */
  account_manager: z.string().nullable().optional(),
  special_project_manager: z.string().nullable().optional(),
});
export type Client = z.infer<typeof clientSchema>;
export const clientPageSchema = paginated(clientSchema);

export const clientCreateSchema = z.strictObject({
  name: nameField('workspace'),
  logo: logoField,
});
export type ClientCreate = z.infer<typeof clientCreateSchema>;
/** POST /v1/clients/ names the organization in the body. */
export const clientCreateInOrganizationSchema = clientCreateSchema.extend({
  organization: z.uuid('Choose an organization.'),
});
/** An account manager or special project manager: a name or an address; '' or null clears it. */
export const MANAGER_MAX_LENGTH = 254;
const managerField = singleLine()
  .max(MANAGER_MAX_LENGTH, `Keep it under ${MANAGER_MAX_LENGTH + 1} characters.`)
  .nullable()
  .optional();

export const clientUpdateSchema = z.strictObject({
  name: nameField('workspace').optional(),
  logo: logoField,
  dashboard_button_color: colorField.optional(),
  /** Only users of INTERNAL_EMAIL_DOMAINS may send these (anyone else: 403). */
  account_manager: managerField,
  special_project_manager: managerField,
});
export type ClientUpdate = z.infer<typeof clientUpdateSchema>;
/** PUT /v1/organizations/{orgId}/clients/{clientId}/: the name is required, the rest optional. */
export const clientReplaceSchema = clientUpdateSchema.extend({ name: nameField('workspace') });
export type ClientReplace = z.infer<typeof clientReplaceSchema>;

export const CLIENT_STATUS_FILTERS = ['all', 'enabled', 'pending'] as const;
export const clientListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(PAGE_SIZE.orgList),
  status: z.enum(CLIENT_STATUS_FILTERS).default('all'),
  key: singleLine().max(NAME_MAX_LENGTH).optional(),
});
export type ClientListQuery = z.infer<typeof clientListQuerySchema>;

/** A module row of a workspace (GET /v1/clients/{id}/modules/). */
export const clientModuleSchema = z.object({
  id: z.uuid(),
  module: z.enum(MODULE_CODES),
  /** The module's label (MODULE_NAMES). */
  name: z.string(),
  enabled: z.boolean(),
});
export type ClientModule = z.infer<typeof clientModuleSchema>;

/** `{enabled}` sets the requested state: sending it twice leaves it as asked. */
export const moduleUpdateSchema = z.strictObject({ enabled: z.boolean() });
export type ModuleUpdate = z.infer<typeof moduleUpdateSchema>;

/**
 * The module of PATCH /v1/clients/{id}/modules/{moduleId}/: a module code (`TR`) or the id of the
 * workspace's module row. Anything of this shape that names no module of the workspace is a 404.
 */
export const moduleIdParam = singleLine().regex(
  /^[A-Za-z0-9-]{1,64}$/,
  'Use a module code such as TR, or the id of a module row.',
);

/** An application is an app profile (APP_PROFILES): GET/POST .../clients/{clientId}/apps/{appId}/. */
export const appIdParam = z.enum(APP_PROFILE_NAMES);

/**
 * One application of a workspace: the modules of that app profile and their states. `enabled`
 * is true when at least one of its modules is on (the application is usable).
 */
export const clientApplicationSchema = z.object({
  app: z.enum(APP_PROFILE_NAMES),
  modules: z.array(moduleStateSchema.extend({ name: z.string() })),
  enabled: z.boolean(),
});
export type ClientApplication = z.infer<typeof clientApplicationSchema>;
/**
 * `{enabled}` switches every module of the application on or off. Switching off is refused only
 * when it would leave the workspace without any enabled module (LAST_ENABLED_MODULE).
 */
export const clientApplicationUpdateSchema = z.strictObject({ enabled: z.boolean() });
