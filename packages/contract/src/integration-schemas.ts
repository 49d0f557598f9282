import { z } from 'zod';
import {
  API_KEY_NAME_MAX_LENGTH,
  API_KEY_PERMISSIONS,
  MAX_API_KEY_WORKSPACES,
} from './integrations.ts';
import { MODULE_CODES } from './constants.ts';
import { memberUserSchema } from './members.ts';
import { singleLine } from './text.ts';

/** The integration platform's calls (issue 21): zod, for the API; the web app imports their types. */

const datetime = () => z.iso.datetime({ offset: true });

// ---- API keys (item 1) -------------------------------------------------------------------------

/** POST /v1/organizations/{orgId}/api-keys/ */
export const apiKeyCreateSchema = z.strictObject({
  name: singleLine()
    .min(1, 'Enter a name for the key.')
    .max(API_KEY_NAME_MAX_LENGTH, `Keep the name under ${API_KEY_NAME_MAX_LENGTH + 1} characters.`),
  permissions: z
    .array(z.enum(API_KEY_PERMISSIONS as [string, ...string[]]))
    .min(1, 'Choose at least one permission.')
    .max(API_KEY_PERMISSIONS.length)
    .refine((list) => new Set(list).size === list.length, 'List each permission once.'),
  /** Limits the key to these workspaces of the organization; absent or null: all of them. */
  workspace_ids: z
    .array(z.uuid())
    .min(1, 'Choose at least one workspace, or leave the key for all of them.')
    .max(MAX_API_KEY_WORKSPACES)
    .nullable()
    .optional(),
  /** When the key stops working; absent or null: never (until revoked). */
  expires_at: datetime().nullable().optional(),
});
export type ApiKeyCreate = z.infer<typeof apiKeyCreateSchema>;

/** An API key as lists show it: never the key itself. */
export const apiKeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The key's first characters (`ptl_` and four more), to tell keys apart. */
  hint: z.string(),
  permissions: z.array(z.string()),
  workspace_ids: z.array(z.uuid()).nullable(),
  created_by: memberUserSchema.nullable(),
  created: datetime(),
  expires_at: datetime().nullable(),
  last_used_at: datetime().nullable(),
  last_used_ip: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The answer of the creation: the key, shown this once (only its hash is kept). */
export const apiKeyCreatedSchema = apiKeySchema.extend({ key: z.string() });
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;

export const apiKeyListSchema = z.object({ results: z.array(apiKeySchema) });
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

export const apiKeyParamsSchema = z.strictObject({ orgId: z.uuid(), keyId: z.uuid() });

// ---- access check for module back ends (item 5) -------------------------------------------------

/** POST /v1/access/check/: may this member do this in this workspace? */
export const accessCheckRequestSchema = z.strictObject({
  user_id: z.uuid(),
  client_id: z.uuid(),
  permission: singleLine().min(1, 'Name the permission to check.').max(200),
});
export type AccessCheckRequest = z.infer<typeof accessCheckRequestSchema>;

// ---- modules post back (item 6) ----------------------------------------------------------------

/** Members one call may notify at most. */
export const MAX_NOTIFIED_MEMBERS = 100;

/** POST /v1/organizations/{orgId}/notifications/: a message to named members (bell and stream). */
export const organizationNotificationCreateSchema = z.strictObject({
  user_ids: z
    .array(z.uuid())
    .min(1, 'Name at least one member.')
    .max(MAX_NOTIFIED_MEMBERS, `Notify at most ${MAX_NOTIFIED_MEMBERS} members at once.`),
  message: singleLine().min(1, 'Write the message.').max(1000),
  /** The module it comes from, shown with it. */
  module: z.enum(MODULE_CODES).optional(),
  /** The workspace it is about, a live one of the organization. */
  client_id: z.uuid().optional(),
});
export type OrganizationNotificationCreate = z.infer<typeof organizationNotificationCreateSchema>;

export const organizationNotificationResultSchema = z.object({ notified: z.number().int() });
