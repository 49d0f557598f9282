import { INVITATION_TTL_MS, ROLE_NAMES, type Role } from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { days } from '../../lib/clock.ts';
import { enqueueMail } from '../../lib/mail/outbox.ts';
import { invitationMail, type MembershipOffer } from '../../lib/mail/templates.ts';
import { createNotification } from '../notifications/index.ts';
import type { UserRow } from '../users/index.ts';
import type { InvitationRow, Target } from './repo.ts';

/** How mails and the bell name a person: their name, else their e-mail. */
export const displayName = (user: Pick<UserRow, 'first_name' | 'last_name' | 'email'>) =>
  `${user.first_name} ${user.last_name}`.trim() || user.email;

/** What the mails say an invitation or an addition is to. */
export const offerOf = (target: Target, inviter: UserRow, role: Role): MembershipOffer => ({
  kind: target.kind,
  target: target.client?.name ?? target.organization.name,
  inviter: displayName(inviter),
  role: ROLE_NAMES[role],
});

/**
 * Tells the invitee, in the invitation's transaction: an INVITATION notification for the bell
 * (its meta carries the token, as the web app accepts from there) and the e-mail with the link.
 */
export async function announceInvitation(
  tx: Tx,
  ctx: AppContext,
  sent: {
    target: Target;
    invitation: InvitationRow;
    token: string;
    invitee: UserRow;
    inviter: UserRow;
  },
): Promise<void> {
  const { target, invitation, token, invitee, inviter } = sent;
  const offer = offerOf(target, inviter, invitation.role);
  await createNotification(tx, {
    type: 'INVITATION',
    recipientId: invitee.id,
    authorId: inviter.id,
    organizationId: target.organization.id,
    clientId: target.client?.id ?? null,
    invitationId: invitation.id,
    meta: {
      invitation_token: token,
      type: target.kind,
      id: target.client?.id ?? target.organization.id,
      organization: target.organization,
      ...(target.client && { client: target.client }),
      role: invitation.role,
    },
    // The bell words the offer from the author and the meta: no extra message to repeat it.
    at: ctx.clock.now(),
  });
  await enqueueMail(
    tx,
    ctx.clock,
    invitationMail(ctx.mail, invitee.email, invitee.first_name, {
      ...offer,
      token,
      validDays: Math.round(INVITATION_TTL_MS / days(1)),
    }),
  );
}
