import { invoiceNumberText, RENEWAL_RETRY_DAYS } from '@portolan/contract';
import { asc, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type Person, type TenantScene } from '../../../test/support/tenants.ts';
import {
  billingAccounts,
  fundPackages,
  invoices,
  ledgerEntries,
  subscriptions,
} from '../../db/schema/index.ts';
import { days } from '../../lib/clock.ts';
import { createOrganization, createSubscription } from '../../seed/factories.ts';
import { renewalJob } from '../billing/index.ts';
import { recordedBy } from './test-events.ts';

/**
 * Issue 21 item 3: billing records its events in the transaction of the change, through the
 * real routes and the sandbox gateway's hosted page: subscription.changed (subscribed, plan
 * changed, unsubscribed, ended), invoice.paid, balance.topped_up, balance.charged. A payment
 * refused records none. (balance.low: billing/spending.test.ts.)
 */
describe('billing events', () => {
  let t: TestApp;
  let s: TenantScene;
  let owner: Person;
  let orgId: string;
  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    owner = s.people.OWNER;
    orgId = (await createOrganization(t.ctx.db, { ownerId: owner.id, plan: null })).id;
  });
  afterAll(() => t.close());

  const url = (rest: string) => `/v1/organizations/${orgId}/${rest}`;
  let keys = 0;
  const post = (rest: string, body: object, key = `events-key-${keys++}`) =>
    t.app.inject({
      method: 'POST',
      url: url(rest),
      headers: { authorization: `Bearer ${owner.token}`, 'idempotency-key': key },
      payload: body,
    });
  /** Opens a hosted checkout and pays it with a card the sandbox accepts. */
  async function payAtHostedPage(rest: string, body: object) {
    const opened = await post(rest, body);
    expect(opened.statusCode, opened.body).toBe(201);
    const form = new URLSearchParams({
      number: '4242424242424242',
      expiry: '12/39',
      cvc: '123',
      name: 'Olive Owner',
      action: 'pay',
    }).toString();
    const paid = await t.app.inject({
      method: 'POST',
      url: opened.json().url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form,
    });
    expect(paid.statusCode, paid.body).toBeLessThan(400);
  }
  const newestInvoice = async () =>
    (
      await t.ctx.db
        .select()
        .from(invoices)
        .where(eq(invoices.organization_id, orgId))
        .orderBy(desc(invoices.number))
        .limit(1)
    )[0]!;
  const invoicePaid = async () => {
    const invoice = await newestInvoice();
    return {
      type: 'invoice.paid',
      subject: `invoice:${invoice.id}`,
      data: {
        invoice_id: invoice.id,
        number: invoiceNumberText(invoice.number),
        kind: invoice.kind,
        amount: invoice.amount,
        currency: invoice.currency,
      },
    };
  };
  const subscription = async () =>
    (
      await t.ctx.db.select().from(subscriptions).where(eq(subscriptions.organization_id, orgId))
    )[0]!;
  const subject = () => `subscription:${orgId}`;
  /** subscription.changed of a running subscription, its period as the table now has it. */
  const running = async (change: string, plan: string, previous_plan: string | null) => ({
    type: 'subscription.changed',
    subject: subject(),
    data: {
      change,
      plan,
      previous_plan,
      status: 'ACTIVE',
      period_end: (await subscription()).expired_in!.toISOString(),
    },
  });

  it('subscribing at the hosted page: invoice.paid and subscription.changed (subscribed)', async () => {
    const recorded = await recordedBy(t, orgId, () =>
      payAtHostedPage('checkout/', { plan: 'STANDARD' }),
    );
    expect(recorded).toEqual([await invoicePaid(), await running('subscribed', 'STANDARD', null)]);
    expect(recorded[0]!.data.kind).toBe('SUBSCRIPTION');
  });

  it('a plan change charged to the card: invoice.paid and subscription.changed (plan_changed)', async () => {
    const recorded = await recordedBy(t, orgId, async () => {
      const res = await post('grade-changes/checkout/', { plan: 'PROFESSIONAL' });
      expect(res.statusCode, res.body).toBe(200);
    });
    expect(recorded).toEqual([
      await invoicePaid(),
      await running('plan_changed', 'PROFESSIONAL', 'STANDARD'),
    ]);
    expect(recorded[0]!.data.kind).toBe('UPGRADE');
  });

  it('funds added, then charged; a charge beyond the balance records nothing', async () => {
    const [pkg] = await t.ctx.db.select().from(fundPackages).orderBy(asc(fundPackages.sort_order));
    const toppedUp = await recordedBy(t, orgId, () =>
      payAtHostedPage('balance/checkout/', { fund_package_id: pkg!.id }),
    );
    const entries = () =>
      t.ctx.db
        .select()
        .from(ledgerEntries)
        .where(eq(ledgerEntries.organization_id, orgId))
        .orderBy(desc(ledgerEntries.created_at), desc(ledgerEntries.id));
    const [credit] = await entries();
    const invoice = await newestInvoice();
    const balance = `balance:${orgId}`;
    expect(toppedUp).toEqual([
      await invoicePaid(),
      {
        type: 'balance.topped_up',
        subject: balance,
        data: {
          entry_id: credit!.id,
          invoice_id: invoice.id,
          amount: pkg!.credit,
          currency: credit!.currency,
          available_balance: pkg!.credit,
        },
      },
    ]);
    expect(invoice.kind).toBe('TOP_UP');

    const charged = await recordedBy(t, orgId, async () => {
      const res = await post('balance/charges/', { service: 'ADDRESS_VALIDATION', quantity: 2 });
      expect(res.statusCode, res.body).toBe(201);
    });
    const [charge] = await entries();
    const [account] = await t.ctx.db
      .select()
      .from(billingAccounts)
      .where(eq(billingAccounts.organization_id, orgId));
    expect(charged).toEqual([
      {
        type: 'balance.charged',
        subject: balance,
        data: {
          entry_id: charge!.id,
          service: 'ADDRESS_VALIDATION',
          quantity: 2,
          amount: -charge!.amount,
          currency: charge!.currency,
          available_balance: account!.available_balance,
        },
      },
    ]);
    expect(account!.available_balance).toBe(pkg!.credit + charge!.amount);

    const refused = await recordedBy(t, orgId, async () => {
      const res = await post('balance/charges/', {
        service: 'ADDRESS_VALIDATION',
        quantity: 10_000,
      });
      expect(res.statusCode, res.body).toBe(402);
    });
    expect(refused).toEqual([]);
  });

  it('unsubscribing, then the period’s end: subscription.changed (unsubscribed, then ended)', async () => {
    const periodEnd = (await subscription()).expired_in!;
    const unsubscribed = await recordedBy(t, orgId, async () => {
      const res = await s.send('GET', url('unsubscription/'), owner);
      expect(res.statusCode, res.body).toBe(200);
    });
    const data = { plan: 'PROFESSIONAL', previous_plan: null, period_end: periodEnd.toISOString() };
    expect(unsubscribed).toEqual([
      {
        type: 'subscription.changed',
        subject: subject(),
        data: { change: 'unsubscribed', status: 'ACTIVE', ...data },
      },
    ]);
    // A second time is refused: nothing recorded.
    const again = await recordedBy(t, orgId, async () => {
      expect((await s.send('GET', url('unsubscription/'), owner)).statusCode).toBe(409);
    });
    expect(again).toEqual([]);

    t.clock.set(new Date(periodEnd.getTime() + 60_000));
    const ended = await recordedBy(t, orgId, () =>
      renewalJob(t.ctx).run(new AbortController().signal),
    );
    expect(ended).toEqual([
      {
        type: 'subscription.changed',
        subject: subject(),
        data: { change: 'ended', status: 'CANCELED', ...data },
      },
    ]);
  });

  it('a subscription expiring after its last failed renewal: subscription.changed (ended), no invoice.paid', async () => {
    const other = (await createOrganization(t.ctx.db, { ownerId: owner.id, plan: null })).id;
    const periodEnd = new Date(t.clock.now().getTime() - days(10));
    const sub = await createSubscription(t.ctx.db, {
      organizationId: other,
      plan: 'STANDARD',
      status: 'PAST_DUE',
      expiresIn: periodEnd,
      subscriberId: owner.id,
    });
    // Its retries are spent: the next failure (no card) ends it.
    await t.ctx.db
      .update(subscriptions)
      .set({ retry_count: RENEWAL_RETRY_DAYS.length, next_retry_at: periodEnd })
      .where(eq(subscriptions.id, sub.id));
    const ended = await recordedBy(t, other, () =>
      renewalJob(t.ctx).run(new AbortController().signal),
    );
    expect(ended).toEqual([
      {
        type: 'subscription.changed',
        subject: `subscription:${other}`,
        data: {
          change: 'ended',
          plan: 'STANDARD',
          previous_plan: null,
          status: 'EXPIRED',
          period_end: periodEnd.toISOString(),
        },
      },
    ]);
  });
});
