import { z } from 'zod';
import {
  NOTIFICATION_MAX_LIMIT,
  NOTIFICATION_PAGE_SIZE,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TYPES,
} from './notifications.ts';
import { pageQuerySchema, paginated } from './pagination.ts';

/** The notification calls' schemas (zod: the API's; the web app imports only their types). */

/** The data of every `notification` event: the caller's unseen count, as `new/` answers it. */
export const notificationCountSchema = z.object({ count: z.number().int().min(0) });
export type NotificationCount = z.infer<typeof notificationCountSchema>;

// ---- requests and answers ---------------------------------------------------------------------

/** GET /v1/user/notification/?page&limit: newest first, 10 a page unless asked, at most 100. */
export const notificationListQuerySchema = pageQuerySchema(
  NOTIFICATION_PAGE_SIZE,
  NOTIFICATION_MAX_LIMIT,
);
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
