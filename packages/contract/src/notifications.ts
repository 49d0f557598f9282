/**
 * Notifications of the bell (spec §4 "Notifications", REFERENCE "Notifications and activities"):
 * the zod-free constants, which the web app imports; the schemas are in notification-schemas.ts.
 */

/**
 * INVITATION offers Accept and Decline while OPEN; the others only tell (status DONE, Read):
 * WORKSPACE_APPROVAL (to each OWNER and ADMIN: a STAFF member's workspace waits for approval;
 * meta `client_id`), ROLE_CHANGED (to the member: meta `type` organization or client, `from`, `to`).
 */
export const NOTIFICATION_TYPES = [
  'INVITATION',
  'WARNING',
  'WORKSPACE_APPROVAL',
  'ROLE_CHANGED',
  /** A module's back end told named members something (issue 21 item 6): its extra message. */
  'MODULE',
  /**
   * Money matters, to each OWNER and ADMIN (issue 22): a low balance, an automatic top-up
   * declined or switched off, a renewal declined or the subscription expired. The extra message
   * says what happened; meta `kind` which, and `path` where to act in the app.
   */
  'BILLING',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** An INVITATION is OPEN until it is accepted or declined, then DONE. */
export const NOTIFICATION_STATUSES = ['OPEN', 'DONE'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** Spec §9: the bell shows 10, Load more adds 10; it polls every 60000 ms. */
export const NOTIFICATION_PAGE_SIZE = 10;
export const NOTIFICATION_POLL_MS = 60_000;
/** The most one page of GET /v1/user/notification/ may hold. */
export const NOTIFICATION_MAX_LIMIT = 100;

// ---- the real-time stream (GET /v1/user/notification/stream/) ---------------------------------

/** The name of the event that carries the unseen count: `event: notification`. */
export const NOTIFICATION_STREAM_EVENT = 'notification';
/** A comment line (`: heartbeat`) this often keeps proxies from closing an idle stream. */
export const NOTIFICATION_HEARTBEAT_MS = 25_000;
/** Open streams one user may hold on one server instance; one more answers 429 RATE_LIMITED. */
export const NOTIFICATION_STREAMS_PER_USER = 10;
