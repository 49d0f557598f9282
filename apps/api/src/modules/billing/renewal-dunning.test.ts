import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  addCard,
  ChargeRecorder,
  replaceSubscription,
} from '../../../test/support/charge-recorder.ts';
import { mailOutbox, notifications, users } from '../../db/schema/index.ts';
import { days } from '../../lib/clock.ts';
import type { ChargeRequest, ChargeResult } from '../../lib/payments/gateway.ts';
import { addOrganizationMember, createOrganization, createUser } from '../../seed/factories.ts';
import { runRenewals } from './renewal.ts';

/** The recorder, which can also leave a charge's outcome unknown (no answer, a 5xx). */
class UnsureGateway extends ChargeRecorder {
  unsure = false;
  override async charge(request: ChargeRequest): Promise<ChargeResult> {
    if (!this.unsure) return super.charge(request);
    this.calls.push(request);
    return { ok: false, reason: 'error', message: 'No answer.', unknown: true };
  }
}

/**
 * Dunning (issue 22 item 5): each failed attempt of a renewal (at the period's end, then +1, +3
 * and +7 days) e-mails every OWNER and ADMIN once and shows in their bell; the last says the
 * subscription expired. Nothing for other roles, for a run that finds nothing due, or for an
 * attempt whose outcome is unknown.
 */
describe('renewal dunning', () => {
  let t: TestApp;
  let gateway: UnsureGateway;

  beforeAll(async () => {
    t = await createTestApp();
    gateway = new UnsureGateway();
    t.ctx.payments = gateway;
  });
  afterAll(() => t.close());

  const periodEnd = new Date('2031-03-31T12:00:00.000Z');
  const at = (offsetMs: number) => new Date(periodEnd.getTime() + offsetMs);

  /** An organization on STANDARD with a card, its OWNER, ADMIN, STAFF and CLIENT, and a disabled ADMIN. */
  async function organization({ card = true } = {}) {
    const owner = await createUser(t.ctx.db, { first_name: 'Olive' });
    const org = await createOrganization(t.ctx.db, {
      ownerId: owner.id,
      plan: null,
      name: 'Harbour & Co',
    });
    const member = async (role: 'ADMIN' | 'STAFF' | 'CLIENT') => {
      const user = await createUser(t.ctx.db, { first_name: role });
      await addOrganizationMember(t.ctx.db, { organizationId: org.id, userId: user.id, role });
      return user;
    };
    const people = {
      OWNER: owner,
      ADMIN: await member('ADMIN'),
      STAFF: await member('STAFF'),
      CLIENT: await member('CLIENT'),
      DISABLED_ADMIN: await member('ADMIN'),
    };
    await t.ctx.db
      .update(users)
      .set({ enabled: false })
      .where(eq(users.id, people.DISABLED_ADMIN.id));
    const saved = card ? await addCard(t, org.id) : null;
    const sub = await replaceSubscription(t, {
      organizationId: org.id,
      plan: 'STANDARD',
      status: 'ACTIVE',
      periodStart: new Date('2031-02-28T12:00:00.000Z'),
      expiresIn: periodEnd,
      subscriberId: owner.id,
      defaultPaymentMethodId: saved?.id ?? null,
    });
    return { org, people, sub };
  }

  const mailsTo = (userIds: string[]) =>
    t.ctx.db
      .select({
        to: mailOutbox.to_address,
        subject: mailOutbox.subject,
        text: mailOutbox.text_body,
      })
      .from(mailOutbox)
      .innerJoin(users, eq(users.email, mailOutbox.to_address))
      .where(inArray(users.id, userIds))
      .orderBy(asc(mailOutbox.created_at));
  const bellOf = (userId: string) =>
    t.ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipient_id, userId), eq(notifications.type, 'BILLING')))
      .orderBy(asc(notifications.created_at));

  it('tells each OWNER and ADMIN of every failed attempt once, and that it expired after the last', async () => {
    const { org, people, sub } = await organization();
    const everyone = Object.values(people).map((p) => p.id);
    const cards = `http://localhost:3000/ps/organization-settings/${org.id}/billing/cards`;
    gateway.failWith = 'insufficient_funds';
    try {
      // The period's end and the three retries; each instant is run twice: the second finds
      // nothing due and tells no one.
      const attempts = [0, days(1), days(3), days(7)];
      for (const [i, offset] of attempts.entries()) {
        await runRenewals(t.ctx, at(offset));
        await runRenewals(t.ctx, at(offset));
        const mails = await mailsTo(everyone);
        expect(mails.map((m) => m.to).sort()).toEqual(
          Array.from({ length: i + 1 }, () => [people.OWNER.email, people.ADMIN.email])
            .flat()
            .sort(),
        );
      }
      expect(gateway.callsFor(sub.id)).toHaveLength(4);

      for (const who of [people.OWNER, people.ADMIN]) {
        const mails = (await mailsTo([who.id])).map((m) => ({ subject: m.subject, text: m.text }));
        expect(mails.map((m) => m.subject)).toEqual([
          'The Standard plan of Harbour & Co could not be renewed',
          'The Standard plan of Harbour & Co could not be renewed',
          'The Standard plan of Harbour & Co could not be renewed',
          'The Standard plan of Harbour & Co has expired',
        ]);
        const [first, second, third, last] = mails.map((m) => m.text);
        expect(first).toContain(`Hello ${who.first_name},`);
        expect(first).toContain(
          'We could not charge the card of Harbour & Co for the renewal of its Standard plan (attempt 1 of 4).',
        );
        // The gateway's reason, and when the next attempt comes.
        expect(first).toContain('The payment failed: insufficient_funds.');
        expect(first).toContain('We will try again on 04/01/2031 at 12:00 UTC.');
        expect(first).toContain(`Update the card: ${cards}`);
        expect(second).toContain('(attempt 2 of 4)');
        expect(second).toContain('We will try again on 04/03/2031 at 12:00 UTC.');
        expect(third).toContain('(attempt 3 of 4)');
        expect(third).toContain('We will try again on 04/07/2031 at 12:00 UTC.');
        expect(last).toContain(
          'The renewal of the Standard plan of Harbour & Co failed 4 times, so the subscription has expired.',
        );
        expect(last).toContain(`Update the card: ${cards}`);
        expect(last).toContain(
          `Choose a plan: http://localhost:3000/ps/organization-settings/${org.id}/billing/subscription`,
        );

        const bell = await bellOf(who.id);
        expect(bell.map((n) => [n.meta, n.organization_id, n.created_at])).toEqual([
          [{ kind: 'renewal_failed', path: new URL(cards).pathname }, org.id, at(0)],
          [{ kind: 'renewal_failed', path: new URL(cards).pathname }, org.id, at(days(1))],
          [{ kind: 'renewal_failed', path: new URL(cards).pathname }, org.id, at(days(3))],
          [
            {
              kind: 'subscription_expired',
              path: `/ps/organization-settings/${org.id}/billing/subscription`,
            },
            org.id,
            at(days(7)),
          ],
        ]);
        expect(bell[0]!.extra_message).toBe(
          'The renewal of the Standard plan failed (attempt 1 of 4): insufficient_funds. Next attempt on 04/01/2031 at 12:00 UTC. Update the card before then.',
        );
        expect(bell[3]!.extra_message).toBe(
          'The Standard plan expired after 4 failed renewal attempts. The last payment failed: insufficient_funds. Update the card and choose a plan again.',
        );
      }
      for (const who of [people.STAFF, people.CLIENT, people.DISABLED_ADMIN]) {
        expect(await mailsTo([who.id])).toEqual([]);
        expect(await bellOf(who.id)).toEqual([]);
      }

      // Expired: later runs tell no one anything more.
      await runRenewals(t.ctx, at(days(30)));
      expect(await mailsTo(everyone)).toHaveLength(8);
    } finally {
      gateway.failWith = null;
    }
  });

  it('tells no one of an attempt whose outcome is unknown, and once when it then fails', async () => {
    const { people, sub } = await organization();
    const contacts = [people.OWNER.id, people.ADMIN.id];
    gateway.unsure = true;
    try {
      await runRenewals(t.ctx, at(0));
      expect(gateway.callsFor(sub.id)).toHaveLength(1);
      expect(await mailsTo(contacts)).toEqual([]);
      expect(await bellOf(people.OWNER.id)).toEqual([]);
    } finally {
      gateway.unsure = false;
    }
    // Asked again an hour later, the gateway now answers a definite decline: told once.
    gateway.failWith = 'declined';
    try {
      await runRenewals(t.ctx, at(days(1) / 24));
      await runRenewals(t.ctx, at(days(1) / 24));
    } finally {
      gateway.failWith = null;
    }
    expect(gateway.callsFor(sub.id)).toHaveLength(2);
    const mails = await mailsTo(contacts);
    expect(mails).toHaveLength(2);
    expect(mails[0]!.text).toContain('(attempt 1 of 4)');
    expect(await bellOf(people.ADMIN.id)).toHaveLength(1);
  });

  it('tells them when there is no card to charge', async () => {
    const { people, sub } = await organization({ card: false });
    await runRenewals(t.ctx, at(0));
    expect(gateway.callsFor(sub.id)).toHaveLength(0);
    const [mail] = await mailsTo([people.OWNER.id]);
    expect(mail!.text).toContain(
      'The payment failed: The organization has no card to charge. Add one.',
    );
  });
});
