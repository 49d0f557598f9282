import { z } from 'zod';
import { paginated } from './pagination.ts';

/** Notifications of the bell (spec §4 "Notifications", REFERENCE "Notifications and activities"). */

export const NOTIFICATION_TYPES = ['INVITATION', 'WARNING'] as const;
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

/** The data of every `notification` event: the caller's unseen count, as `new/` answers it. */
export const notificationCountSchema = z.object({ count: z.number().int().min(0) });
export type NotificationCount = z.infer<typeof notificationCountSchema>;

// ---- requests and answers ---------------------------------------------------------------------

/** GET /v1/user/notification/?page&limit: newest first, 10 a page unless asked, at most 100. */
export const notificationListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(NOTIFICATION_MAX_LIMIT).default(NOTIFICATION_PAGE_SIZE),
});
export type NotificationListQuery = z.infer<typeof notificationListQuerySchema>;

const namedRef = z.object({ id: z.uuid(), name: z.string() });

export const notificationSchema = z.object({
  id: z.uuid(),
  type: z.enum(NOTIFICATION_TYPES),
  status: z.enum(NOTIFICATION_STATUSES),
  is_seen: z.boolean(),
  extra_message: z.string().nullable(),
  created: z.iso.datetime({ offset: true }),
  /** INVITATION: `invitation_token` (while the invitation is open), `type` client or organization, `id`. */
  meta: z.record(z.string(), z.unknown()),
  /** Who caused it (the inviter); null for the system or a deleted account. */
  author: z
    .object({
      id: z.uuid(),
      email: z.string(),
      first_name: z.string(),
      last_name: z.string(),
      avatar: z.string().nullable(),
    })
    .nullable(),
  organization: namedRef.nullable(),
  client: namedRef.nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** `{count, next, previous, results}` like every list; the bell reads `results` and `count`. */
export const notificationPageSchema = paginated(notificationSchema);
export type NotificationPage = z.infer<typeof notificationPageSchema>;
