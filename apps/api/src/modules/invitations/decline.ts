import {
  ErrorCode,
  errorBodySchema,
  notificationSchema,
  type Notification,
} from '@portolan/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { App, AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { clients, notifications, organizations, users } from '../../db/schema/index.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { ActivityAction, recordActivity } from '../activities/index.ts';
import { requireAuth } from '../auth/index.ts';
import { settleInvitationNotifications } from '../notifications/index.ts';
import { assertOpen } from './accept-service.ts';
import { decideInvitation, lockInvitation, withdrawPendingMemberships } from './repo.ts';

const notOpen = () =>
  conflict(
    ErrorCode.NOT_AN_OPEN_INVITATION,
    'This notification offers no pending invitation to decline.',
  );

/**
 * One of the recipient's notifications as the bell shows it (with its author, organization and
 * workspace), or undefined when it is not theirs. (A query on the notifications module's tables,
 * until its face offers one.)
 */
async function readNotification(db: Db, recipientId: string, id: string) {
  const [row] = await db
    .select({
      n: notifications,
      author: {
        id: users.id,
        email: users.email,
        first_name: users.first_name,
        last_name: users.last_name,
        avatar: users.avatar,
      },
      organization: { id: organizations.id, name: organizations.name },
      client: { id: clients.id, name: clients.name },
    })
    .from(notifications)
    .leftJoin(users, and(eq(users.id, notifications.author_id), isNull(users.deleted_at)))
    .leftJoin(organizations, eq(organizations.id, notifications.organization_id))
    .leftJoin(clients, eq(clients.id, notifications.client_id))
    .where(
      and(
        eq(notifications.id, id),
        eq(notifications.recipient_id, recipientId),
        isNull(notifications.deleted_at),
      ),
    )
    .limit(1);
  if (!row) return undefined;
  const { n } = row;
  const dto: Notification = {
    id: n.id,
    type: n.type,
    status: n.status,
    is_seen: n.is_seen,
    extra_message: n.extra_message,
    created: n.created_at.toISOString(),
    meta: n.meta,
    author: row.author,
    organization: row.organization,
    client: row.client,
  };
  return { dto, invitationId: n.type === 'INVITATION' ? n.invitation_id : null };
}

/**
 * Declines the invitation a notification offers (REFERENCE: declining goes through the
 * notification). Only its recipient may (anyone else: 404, as for an id that does not exist). In
 * one transaction under the invitation's row lock: DECLINED, the pending membership(s) taken back
 * (so a later invitation works), the notification DONE and seen, and DECLINE_INVITATION in the
 * organization's log. A notification with no pending invitation is a 409 (already accepted or
 * declined say so). Answers the notification as the bell shows it.
 */
export async function declineInvitation(
  ctx: AppContext,
  userId: string,
  notificationId: string,
): Promise<Notification> {
  const found = await readNotification(ctx.db, userId, notificationId);
  if (!found) throw notFound('No such notification.');
  const { invitationId } = found;
  if (!invitationId) throw notOpen();
  await ctx.db.transaction(async (tx) => {
    const invitation = await lockInvitation(tx, invitationId);
    if (!invitation || invitation.status === 'REVOKED') throw notOpen();
    // Accepted or declined already: the same answers as accepting would give. Expired: may go.
    if (invitation.status !== 'PENDING') assertOpen(invitation, ctx.clock.now());
    await decideInvitation(tx, invitation.id, 'DECLINED', ctx.clock.now());
    await withdrawPendingMemberships(tx, invitation);
    await settleInvitationNotifications(tx, invitation.id);
    await recordActivity(tx, {
      userId,
      action: ActivityAction.DECLINE_INVITATION,
      objectType: invitation.client_id ? 'client' : 'organization',
      objectId: invitation.client_id ?? invitation.organization_id,
      organizationId: invitation.organization_id,
      data: { kind: invitation.kind, role: invitation.role, invited_by: invitation.invited_by },
      at: ctx.clock.now(),
    });
  });
  return (await readNotification(ctx.db, userId, notificationId))!.dto;
}

/** PUT /v1/user/notification/{id}/is-seen/decline/ (spec §7), for the signed-in recipient. */
export async function declineRoutes(app: App): Promise<void> {
  app.put('/v1/user/notification/:id/is-seen/decline/', {
    onRequest: app.authenticate,
    schema: {
      tags: ['invitations'],
      summary:
        'Decline the invitation a notification offers: the pending membership goes, the notification is done and seen',
      security: [{ bearerAuth: [] }],
      params: z.strictObject({ id: z.uuid() }),
      response: {
        200: notificationSchema,
        400: errorBodySchema,
        401: errorBodySchema,
        404: errorBodySchema,
        409: errorBodySchema,
      },
    },
    handler: async (request) =>
      declineInvitation(app.ctx, requireAuth(request).userId, request.params.id),
  });
}
