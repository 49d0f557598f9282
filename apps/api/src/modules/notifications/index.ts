// The notifications module's face: what other modules may use of it.
import type { App } from '../../context.ts';
import { notificationRoutes } from './routes.ts';
import { sendRoutes } from './send-routes.ts';
import { streamRoutes } from './stream-routes.ts';

export { announceTo, createNotification, NOTIFICATION_CHANNEL } from './create.ts';
export { findOwnNotification } from './repo.ts';
export { settleInvitationNotifications, settleRevokedInvitationNotifications } from './service.ts';

/**
 * The bell: /v1/user/notification/ (list, unseen count, mark seen) and its event stream; and
 * what a module's back end sends members through it.
 */
export async function notificationsModule(app: App): Promise<void> {
  await app.register(notificationRoutes);
  await app.register(streamRoutes);
  await app.register(sendRoutes);
}
export { notificationsExporter } from './data-export.ts';
