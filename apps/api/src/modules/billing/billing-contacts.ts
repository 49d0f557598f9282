import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { organizationMembers, organizations, users } from '../../db/schema/index.ts';
import { enqueueMail } from '../../lib/mail/outbox.ts';
import type { MailContext } from '../../lib/mail/templates.ts';
import type { OutgoingMail } from '../../lib/mail/transport.ts';
import { createNotification } from '../notifications/index.ts';

/**
 * Who hears about the organization's money (issue 22): its OWNERs and ADMINs, the roles that
 * hold `organization.billing`, members in full standing with a live account.
 */

/** The web app's billing pages, where a notification or an e-mail sends the reader to act. */
export const billingPagePath = (
  organizationId: string,
  page: 'cards' | 'history' | 'fund-packages' | 'subscription',
) => `/ps/organization-settings/${organizationId}/billing/${page}`;

export interface BillingContact {
  userId: string;
  email: string;
  firstName: string;
  organization: string;
}

/** The OWNERs and ADMINs of the organization, in one statement. */
export async function billingContacts(tx: Tx, organizationId: string): Promise<BillingContact[]> {
  return tx
    .select({
      userId: users.id,
      email: users.email,
      firstName: users.first_name,
      organization: organizations.name,
    })
    .from(organizationMembers)
    .innerJoin(users, eq(users.id, organizationMembers.user_id))
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organization_id))
    .where(
      and(
        eq(organizationMembers.organization_id, organizationId),
        inArray(organizationMembers.role, ['OWNER', 'ADMIN']),
        eq(organizationMembers.status, 'MEMBER'),
        eq(users.enabled, true),
        isNull(users.deleted_at),
      ),
    );
}

/**
 * Tells every billing contact of the organization, in the caller's transaction (so a change
 * rolled back tells no one, and a change made once tells each of them once): a BILLING
 * notification in the bell, with `message` and where to act, and the e-mail `mail` writes.
 */
export async function tellBillingContacts(
  ctx: Pick<AppContext, 'clock'> & { mail: MailContext },
  tx: Tx,
  organizationId: string,
  notice: {
    kind: string;
    message: string;
    path: string;
    mail: (contact: BillingContact) => OutgoingMail;
  },
): Promise<void> {
  const at = ctx.clock.now();
  for (const contact of await billingContacts(tx, organizationId)) {
    await createNotification(tx, {
      type: 'BILLING',
      status: 'DONE',
      recipientId: contact.userId,
      organizationId,
      meta: { kind: notice.kind, path: notice.path },
      extraMessage: notice.message,
      at,
    });
    await enqueueMail(tx, ctx.clock, notice.mail(contact));
  }
}
