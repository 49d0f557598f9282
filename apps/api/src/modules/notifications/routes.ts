import {
  errorBodySchema,
  notificationCountSchema,
  notificationListQuerySchema,
  notificationPageSchema,
  notificationSchema,
} from '@portolan/contract';
import { z } from 'zod';
import type { App } from '../../context.ts';
import { ChangeCache } from '../../lib/change-cache.ts';
import { requireAuth } from '../access/index.ts';
import { NOTIFICATION_CHANNEL } from './create.ts';
import { countNewNotifications, listNotifications, markNotificationSeen } from './service.ts';

const tags = ['notifications'];
const security = [{ bearerAuth: [] }];

/**
 * The caller's own notifications (spec §7 "User"): no tenant in the path, so no access layer;
 * every query is scoped by the signed-in recipient, and another user's notification is 404.
 */
export async function notificationRoutes(app: App): Promise<void> {
  // Every open tab asks for its unseen count every minute: each user's is kept until a change of
  // their notifications is announced (the channel the bell's stream listens to; migration 0011's
  // trigger announces every change of a row to its recipient).
  const unseenCounts = new ChangeCache<{ count: number }>(app.ctx.database, {
    channel: NOTIFICATION_CHANNEL,
    tables: ['notifications'],
    keyOf: (recipientId) => recipientId,
    maxEntries: 50_000,
  });
  unseenCounts.start();
  app.addHook('onClose', async () => unseenCounts.stop());
  const { ctx } = app;

  app.get('/v1/user/notification/', {
    config: { access: { signedIn: 'the caller’s own notifications' } },
    schema: {
      tags,
      summary:
        'The caller’s notifications, newest first (page, limit: 10 unless asked, at most 100)',
      security,
      querystring: notificationListQuerySchema,
      response: { 200: notificationPageSchema, 400: errorBodySchema, 401: errorBodySchema },
    },
    handler: async (request) => listNotifications(ctx, requireAuth(request).userId, request.query),
  });

  app.get('/v1/user/notification/new/', {
    config: { access: { signedIn: 'the caller’s own notifications' } },
    schema: {
      tags,
      summary: 'How many of the caller’s notifications are unseen',
      security,
      response: { 200: notificationCountSchema, 401: errorBodySchema },
    },
    handler: async (request) => {
      const { userId } = requireAuth(request);
      return unseenCounts.get(userId, () => countNewNotifications(ctx, userId));
    },
  });

  app.put('/v1/user/notification/:id/is-seen/', {
    config: { access: { signedIn: 'the caller’s own notifications' } },
    schema: {
      tags,
      summary: 'Mark one of the caller’s notifications seen (again is harmless); answers it',
      security,
      params: z.strictObject({ id: z.uuid('Give the id of a notification.') }),
      response: {
        200: notificationSchema,
        400: errorBodySchema,
        401: errorBodySchema,
        404: errorBodySchema,
      },
    },
    handler: async (request) =>
      markNotificationSeen(ctx, requireAuth(request).userId, request.params.id),
  });
}
