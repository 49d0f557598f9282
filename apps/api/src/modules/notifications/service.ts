import type { Notification, NotificationListQuery, NotificationPage } from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { announceTo } from './create.ts';
import {
  countUnseen,
  findOwnNotification,
  listNotificationsOf,
  markSeen,
  settleInvitationRows,
} from './repo.ts';

/** GET /v1/user/notification/: the caller's own notifications, newest first. */
export async function listNotifications(
  ctx: AppContext,
  userId: string,
  query: NotificationListQuery,
): Promise<NotificationPage> {
  const { count, results } = await listNotificationsOf(ctx.db, userId, query);
  return {
    count,
    next: query.page * query.limit < count ? query.page + 1 : null,
    previous: query.page > 1 ? query.page - 1 : null,
    results,
  };
}

/** GET /v1/user/notification/new/ */
export async function countNewNotifications(ctx: AppContext, userId: string) {
  return { count: await countUnseen(ctx.db, userId) };
}

/**
 * PUT /v1/user/notification/{id}/is-seen/: only the recipient may (anyone else gets 404, as for
 * an id that does not exist). Marking twice changes nothing; a change is announced at commit, so
 * the caller's other bells (any tab, any instance) lower their count.
 */
export async function markNotificationSeen(
  ctx: AppContext,
  userId: string,
  id: string,
): Promise<Notification> {
  return ctx.db.transaction(async (tx) => {
    if (await markSeen(tx, userId, id, ctx.clock.now())) await announceTo(tx, userId);
    const found = await findOwnNotification(tx, userId, id);
    if (!found) throw notFound('No such notification.');
    return found.notification;
  });
}

/**
 * For the invitations module, in the transaction that accepts or declines an invitation: its
 * notifications become DONE and seen and lose the token, and their recipients' bells are told.
 */
export async function settleInvitationNotifications(tx: Tx, invitationId: string): Promise<void> {
  for (const recipient of await settleInvitationRows(tx, [invitationId])) {
    await announceTo(tx, recipient);
  }
}

/**
 * The same for several invitations at once (revoked together, at `at`), in one statement; the
 * caller announces the change to whom it concerns.
 */
export async function settleRevokedInvitationNotifications(
  tx: Tx,
  invitationIds: readonly string[],
  at: Date,
): Promise<void> {
  await settleInvitationRows(tx, invitationIds, at);
}
