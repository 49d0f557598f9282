import { RENEWAL_RETRY_DAYS } from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { renewalFailedMail, subscriptionExpiredMail } from '../../lib/mail/templates.ts';
import { billingPagePath, tellBillingContacts } from './billing-contacts.ts';

/**
 * Dunning (issue 22 item 5): each definite failure of a renewal's payment tells the OWNERs and
 * ADMINs, by e-mail and in the bell, why it failed and when the next attempt comes; the last
 * failure tells them the subscription expired. Written in the renewal's transaction: an attempt
 * rolled back or skipped tells no one, and an attempt is made once, so it is told once.
 */

/** Every attempt of a renewal: the one at the period's end and its retries. */
const RENEWAL_ATTEMPTS = RENEWAL_RETRY_DAYS.length + 1;

/** "04/01/2031 at 12:00 UTC". */
const when = (at: Date) => {
  const mm = String(at.getUTCMonth() + 1).padStart(2, '0');
  const dd = String(at.getUTCDate()).padStart(2, '0');
  return `${mm}/${dd}/${at.getUTCFullYear()} at ${at.toISOString().slice(11, 16)} UTC`;
};

export interface FailedRenewal {
  organizationId: string;
  plan: string;
  /** The gateway's message (what the buyer reads), or why nothing was charged. */
  reason: string;
  /** 1 for the attempt at the period's end, then 2, 3, 4. */
  attempt: number;
  /** When the next attempt comes; null: this was the last, and the subscription expired. */
  nextAttemptAt: Date | null;
  /** The renewal's instant (the job's clock). */
  now: Date;
}

export async function tellRenewalFailed(
  ctx: Pick<AppContext, 'mail'>,
  tx: Tx,
  failed: FailedRenewal,
): Promise<void> {
  const { organizationId, plan, attempt, nextAttemptAt } = failed;
  // A sentence either way: the adapters' messages end with a full stop, a double's may not.
  const reason = /[.!?]$/.test(failed.reason) ? failed.reason : `${failed.reason}.`;
  const cardsPath = billingPagePath(organizationId, 'cards');
  const tell = { mail: ctx.mail, clock: { now: () => failed.now } };
  if (!nextAttemptAt) {
    await tellBillingContacts(tell, tx, organizationId, {
      kind: 'subscription_expired',
      message: `The ${plan} plan expired after ${attempt} failed renewal attempts. The last payment failed: ${reason} Update the card and choose a plan again.`,
      path: billingPagePath(organizationId, 'subscription'),
      mail: (contact) =>
        subscriptionExpiredMail(ctx.mail, contact.email, contact.firstName, {
          organization: contact.organization,
          plan,
          reason,
          attempts: attempt,
          subscriptionPath: billingPagePath(organizationId, 'subscription'),
          cardsPath,
        }),
    });
    return;
  }
  await tellBillingContacts(tell, tx, organizationId, {
    kind: 'renewal_failed',
    message: `The renewal of the ${plan} plan failed (attempt ${attempt} of ${RENEWAL_ATTEMPTS}): ${reason} Next attempt on ${when(nextAttemptAt)}. Update the card before then.`,
    path: cardsPath,
    mail: (contact) =>
      renewalFailedMail(ctx.mail, contact.email, contact.firstName, {
        organization: contact.organization,
        plan,
        reason,
        attempt,
        attempts: RENEWAL_ATTEMPTS,
        nextAttempt: when(nextAttemptAt),
        cardsPath,
      }),
  });
}
