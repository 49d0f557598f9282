import {
  ErrorCode,
  errorBodySchema,
  notificationSchema,
  type Notification,
} from '@portolan/contract';
import { z } from 'zod';
import type { App, AppContext } from '../../context.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { lockTenant, requireAuth } from '../access/index.ts';
import { ActivityAction } from '../activities/index.ts';
import { recordActivityWithEvents } from '../events/index.ts';
import { findOwnNotification, settleInvitationNotifications } from '../notifications/index.ts';
import { assertOpen } from './accept-service.ts';
import { withdrawPendingMemberships } from '../members/index.ts';
import { decideInvitation, lockInvitation, placeOf, tenantOfInvitation } from './repo.ts';

const notOpen = () =>
  conflict(
    ErrorCode.NOT_AN_OPEN_INVITATION,
    'This notification offers no pending invitation to decline.',
  );

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
  const found = await findOwnNotification(ctx.db, userId, notificationId);
  if (!found) throw notFound('No such notification.');
  const { invitationId } = found;
  if (!invitationId) throw notOpen();
  await ctx.db.transaction(async (tx) => {
    // The lock order of tenant writes: the organization, the workspace, then the invitation
    // (one of a deleted workspace may still be declined: nothing else writes there).
    const tenant = await tenantOfInvitation(tx, invitationId);
    if (tenant) await lockTenant(tx, tenant);
    const invitation = await lockInvitation(tx, invitationId);
    if (!invitation || invitation.status === 'REVOKED') throw notOpen();
    // Accepted or declined already: the same answers as accepting would give. Expired: may go.
    if (invitation.status !== 'PENDING') assertOpen(invitation, ctx.clock.now());
    await decideInvitation(tx, invitation.id, 'DECLINED', ctx.clock.now());
    await withdrawPendingMemberships(tx, invitation);
    await settleInvitationNotifications(tx, invitation.id);
    const { role } = invitation;
    await recordActivityWithEvents(
      tx,
      {
        userId,
        action: ActivityAction.DECLINE_INVITATION,
        objectType: invitation.client_id ? 'client' : 'organization',
        objectId: invitation.client_id ?? invitation.organization_id,
        organizationId: invitation.organization_id,
        data: { kind: invitation.kind, role, invited_by: invitation.invited_by },
        at: ctx.clock.now(),
      },
      [
        {
          type: 'invitation.declined',
          data: {
            ...placeOf(invitation),
            invitation_id: invitation.id,
            user_id: invitation.user_id,
            role,
          },
        },
      ],
    );
  });
  return (await findOwnNotification(ctx.db, userId, notificationId))!.notification;
}

/** PUT /v1/user/notification/{id}/is-seen/decline/ (spec §7), for the signed-in recipient. */
export async function declineRoutes(app: App): Promise<void> {
  app.put('/v1/user/notification/:id/is-seen/decline/', {
    config: { access: { signedIn: 'the recipient of the notification declines it' } },
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
