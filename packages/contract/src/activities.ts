import { z } from 'zod';
import { MAX_PAGE_LIMIT, MODULE_CODES, MODULE_NAMES, type ModuleCode } from './constants.ts';
import { paginated } from './pagination.ts';
import { singleLine } from './text.ts';

/**
 * Activities: what people did, recorded by the server (sign-in, workspace and organization
 * changes, members) or reported by the web app (opening a workspace, downloading a report).
 * Spec §3 "Activity", §7 "Create activity" and GET /v1/organizations/{orgId}/activities/.
 */

/** Every action an activity can record. */
export const ACTIVITY_ACTIONS = [
  'SIGN_IN',
  'ACCESS_WORKSPACE',
  'ADD_MEMBER',
  'UPDATE_MEMBER',
  'DELETE_MEMBER',
  'CREATE_ORGANIZATION',
  'UPDATE_ORGANIZATION',
  'CREATE_WORKSPACE',
  'UPDATE_WORKSPACE',
  'APPROVE_WORKSPACE',
  'DELETE_WORKSPACE',
  'UPDATE_WORKSPACE_MODULES',
  'DOWNLOAD_REPORT',
  /** An invitee declined an invitation (recorded for the organization's log). */
  'DECLINE_INVITATION',
  /** A member shared a module page of a workspace as a public link, or revoked one. */
  'CREATE_SHARE_LINK',
  'REVOKE_SHARE_LINK',
  /** Billing (data: plan, amount, currency): a paid subscription began, its plan changed, the
   * subscriber cancelled it, funds were added to the balance (data: fund_package, credit). */
  'SUBSCRIBE',
  'CHANGE_PLAN',
  'UNSUBSCRIBE',
  'TOP_UP_BALANCE',
  /** The OWNER changed the organization's security policy (data: require_mfa, grace_days). */
  'UPDATE_SECURITY_POLICY',
  /** An OWNER or ADMIN created or revoked an API key (data: api_key_id, name, permissions). */
  'CREATE_API_KEY',
  'REVOKE_API_KEY',
  /** An OWNER or ADMIN added or deleted a webhook endpoint (data: webhook_id, url, events). */
  'CREATE_WEBHOOK',
  'DELETE_WEBHOOK',
  /**
   * Money settings (issue 22), by an OWNER or ADMIN, each with the value before (data: currency
   * and what changed): auto top-up (enabled, threshold, fund_package_id), a spend cap (scope
   * organization or client, monthly_limit; a workspace's names client_id and client_name), the
   * low-balance alert thresholds, the billing details (company_name, country, tax_id).
   */
  'UPDATE_AUTO_TOP_UP',
  'UPDATE_SPEND_CAP',
  'UPDATE_BALANCE_ALERTS',
  'UPDATE_BILLING_DETAILS',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];
/** The actions by name, for code that records one: `ActivityAction.SIGN_IN`. */
export const ActivityAction = Object.fromEntries(ACTIVITY_ACTIONS.map((a) => [a, a])) as {
  readonly [K in ActivityAction]: K;
};

/**
 * What the web app may report through POST /v1/activities/. Everything else is recorded by the
 * server as it happens, so nobody can forge a sign-in or an approval in the log.
 */
export const REPORTED_ACTIVITY_ACTIONS = [
  'ACCESS_WORKSPACE',
  'DOWNLOAD_REPORT',
] as const satisfies readonly ActivityAction[];

/** What an activity is about. */
export const ACTIVITY_OBJECT_TYPES = ['organization', 'client', 'user'] as const;
export type ActivityObjectType = (typeof ACTIVITY_OBJECT_TYPES)[number];

/** POST /v1/activities/: an action on a workspace, as the web app reports it. */
export const activityCreateSchema = z.strictObject({
  action: z.enum(REPORTED_ACTIVITY_ACTIONS),
  object_id: z.uuid('Give the id of the workspace.'),
  object_type: z.literal('client', 'The web app reports activities on workspaces (client).'),
  data: z
    .strictObject({
      /** The server writes its own app profile here whatever is sent. */
      app_profile: singleLine().max(64).optional(),
      module: z.enum(MODULE_CODES).optional(),
      /** The report downloaded (DOWNLOAD_REPORT). */
      report: singleLine().min(1).max(200).optional(),
    })
    .default({}),
});
export type ActivityCreate = z.infer<typeof activityCreateSchema>;

export const activityUserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
});

export const activitySchema = z.object({
  id: z.uuid(),
  /** Who did it (null once the account is gone). */
  user: activityUserSchema.nullable(),
  action: z.string(),
  object_id: z.uuid().nullable(),
  object_type: z.string().nullable(),
  /** For workspaces: app_profile, client_id, client_name, and module where one is concerned. */
  data: z.record(z.string(), z.unknown()),
  created: z.iso.datetime({ offset: true }),
});
export type Activity = z.infer<typeof activitySchema>;
export const activityPageSchema = paginated(activitySchema);

export const ACTIVITY_PAGE_SIZE = 10;
export const activityListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(ACTIVITY_PAGE_SIZE),
  action: z.enum(ACTIVITY_ACTIONS).optional(),
  /** Searches the user's names and e-mail, and the label of the module concerned. */
  key: singleLine().max(200).optional(),
});
export type ActivityListQuery = z.infer<typeof activityListQuerySchema>;

/** How an organization's activities download: CSV, or JSON Lines (one JSON object per line). */
export const ACTIVITY_EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ActivityExportFormat = (typeof ACTIVITY_EXPORT_FORMATS)[number];

/** The columns of the CSV export, in order (JSON Lines objects have the same keys). */
export const ACTIVITY_EXPORT_COLUMNS = [
  'id',
  'created',
  'action',
  'user_email',
  'user_name',
  'object_type',
  'object_id',
  'workspace',
  'module',
  'data',
] as const;

/** A calendar day, YYYY-MM-DD (UTC). */
const exportDay = z.iso.date('Give a date as YYYY-MM-DD.');

/**
 * GET /v1/organizations/{orgId}/activities/export/: the log's filters (action, key) and a date
 * range (days, UTC, both included), streamed whole, newest first.
 */
export const activityExportQuerySchema = z
  .strictObject({
    format: z.enum(ACTIVITY_EXPORT_FORMATS).default('csv'),
    from_date: exportDay.optional(),
    to_date: exportDay.optional(),
    action: z.enum(ACTIVITY_ACTIONS).optional(),
    key: singleLine().max(200).optional(),
  })
  .refine((q) => !q.from_date || !q.to_date || q.from_date <= q.to_date, {
    path: ['to_date'],
    message: 'The end date must be on or after the start date.',
  });
export type ActivityExportQuery = z.infer<typeof activityExportQuerySchema>;

/** Module codes whose label (MODULE_NAMES) or code contains the search key, case-insensitively. */
export function modulesMatching(key: string): ModuleCode[] {
  const needle = key.trim().toLowerCase();
  if (!needle) return [];
  return MODULE_CODES.filter(
    (code) =>
      MODULE_NAMES[code].toLowerCase().includes(needle) || code.toLowerCase().includes(needle),
  );
}
