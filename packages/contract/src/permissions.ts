/**
 * Permissions, access rules and custom roles (REFERENCE "Custom roles, access rules and
 * permissions"). Zod-free: the web app imports it.
 */

/** The status an access rule or an override gives a permission; INHERIT defers to the next. */
export const PERMISSION_STATUSES = ['ALLOW', 'DENY', 'INHERIT'] as const;
export type PermissionStatus = (typeof PERMISSION_STATUSES)[number];
