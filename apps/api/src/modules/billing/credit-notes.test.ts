// engine-parity: fifty refunds of one invoice at once
import { ErrorCode, type InvoiceKind } from '@portolan/contract';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  createTenantScene,
  ORG_PEOPLE,
  type Person,
  type TenantScene,
} from '../../../test/support/tenants.ts';
import {
  billingAccounts,
  creditNotes,
  events,
  fundPackages,
  invoices,
  ledgerEntries,
  mailOutbox,
  notifications,
} from '../../db/schema/index.ts';
import type { SandboxGateway } from '../../lib/payments/index.ts';
import {
  addOrganizationMember,
  createInvoice,
  createOrganization,
  createPaymentMethod,
  createUser,
} from '../../seed/factories.ts';
import { grantPlatformAdmin } from '../release-notes/index.ts';
import { recordInvoice } from './invoices.ts';
import { newKey } from './test-flow.ts';
import { adjustBalance } from './wallet-service.ts';

/**
 * Refunds of paid invoices by the platform's operators (issue 22 item 7): the money goes back
 * through the gateway once per Idempotency-Key, each refund issues the organization's next
 * credit note (CN-000001, gapless), never more than is left of the invoice, and a fund package's
 * refund takes its credit back from the balance in the same transaction, or refunds nothing.
 */
describe('refunds and credit notes', () => {
  let t: TestApp;
  let s: TenantScene;
  let admin: Person;
  let sandbox: SandboxGateway;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    admin = await s.person({ first_name: 'Pat', last_name: 'Platform' });
    await grantPlatformAdmin(t.ctx.db, admin.email);
    sandbox = t.ctx.payments as SandboxGateway;
  });
  afterAll(() => t.close());

  const refund = (
    who: Person | 'anonymous',
    invoiceId: string,
    body: object,
    key: string | null = newKey(),
  ) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/admin/invoices/${invoiceId}/refunds/`,
      headers: {
        ...(who !== 'anonymous' && { authorization: `Bearer ${who.token}` }),
        ...(key !== null && { 'idempotency-key': key }),
      },
      payload: body,
    });

  const newOrg = async () =>
    (await createOrganization(t.ctx.db, { ownerId: s.people.OWNER.id })).id;

  /** A paid invoice of a real sandbox charge (what a renewal or a checkout records). */
  async function paidInvoice(orgId: string, amount: number, kind: InvoiceKind = 'SUBSCRIPTION') {
    const charged = await t.ctx.payments.charge({
      customerRef: null,
      paymentMethodRef: 'pm_sandbox_ok_00',
      amount,
      currency: 'usd',
      description: 'Professional plan',
      idempotencyKey: newKey(),
    });
    if (!charged.ok) throw new Error(charged.message);
    const row = await t.ctx.db.transaction((tx) =>
      recordInvoice(tx, {
        organizationId: orgId,
        subscriptionId: null,
        kind,
        status: 'PAID',
        amount,
        currency: 'usd',
        description: 'Professional plan',
        lines: [{ description: 'Professional plan', amount }],
        gatewayRef: charged.chargeRef,
        at: t.clock.now(),
      }),
    );
    return row!;
  }

  /** A fund package bought with a saved card: its invoice. */
  async function topUp(orgId: string, packageName: string) {
    const [pkg] = await t.ctx.db
      .select()
      .from(fundPackages)
      .where(eq(fundPackages.name, packageName));
    const card = await createPaymentMethod(t.ctx.db, { organizationId: orgId });
    const paid = await t.app.inject({
      method: 'POST',
      url: `/v1/organizations/${orgId}/balance/top-ups/`,
      headers: { authorization: `Bearer ${s.people.OWNER.token}`, 'idempotency-key': newKey() },
      payload: { fund_package_id: pkg!.id, payment_method_id: card.id },
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const [invoice] = await t.ctx.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.organization_id, orgId), eq(invoices.kind, 'TOP_UP')));
    return { invoice: invoice!, price: pkg!.price, credit: pkg!.credit };
  }

  const notesOf = (orgId: string) =>
    t.ctx.db.select().from(creditNotes).where(eq(creditNotes.organization_id, orgId));
  const accountOf = async (orgId: string) =>
    (
      await t.ctx.db
        .select()
        .from(billingAccounts)
        .where(eq(billingAccounts.organization_id, orgId))
    )[0]!;
  const ledgerOf = (orgId: string) =>
    t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.organization_id, orgId));
  /** The organization's invoice.refunded events, in the order they were recorded. */
  const refundEventsOf = async (orgId: string): Promise<Record<string, unknown>[]> =>
    (
      await t.ctx.db
        .select()
        .from(events)
        .where(and(eq(events.organization_id, orgId), eq(events.type, 'invoice.refunded')))
        .orderBy(asc(events.seq))
    ).map((e) => ({ subject: e.subject, ...e.data }));

  it('only platform administrators refund: 401 anonymous, 403 to everyone else (the OWNER too), before anything is read', async () => {
    const invoice = await paidInvoice(s.orgId, 1000);
    expect((await refund('anonymous', invoice.id, { reason: 'x' })).statusCode).toBe(401);
    for (const role of ORG_PEOPLE) {
      const res = await refund(s.people[role], invoice.id, { reason: 'Goodwill' });
      expect(res.statusCode, role).toBe(403);
      expect(res.json().code).toBe(ErrorCode.PERMISSION_DENIED);
    }
    // Not even a malformed request tells a non-administrator more.
    expect((await refund(s.people.OWNER, 'nope', {}, null)).statusCode).toBe(403);
    expect(await notesOf(s.orgId)).toEqual([]);
  });

  it('answers 400 naming the field, 404 for an unknown invoice, and refunds nothing', async () => {
    const orgId = await newOrg();
    const invoice = await paidInvoice(orgId, 5000);
    const field = async (res: Awaited<ReturnType<typeof refund>>) => {
      expect(res.statusCode, res.body).toBe(400);
      return res.json().details[0].field as string;
    };
    expect(await field(await refund(admin, invoice.id, { reason: 'x' }, null))).toBe(
      'Idempotency-Key',
    );
    expect(await field(await refund(admin, 'nope', { reason: 'x' }))).toBe('invoiceId');
    expect(await field(await refund(admin, invoice.id, {}))).toBe('reason');
    expect(await field(await refund(admin, invoice.id, { reason: 'x', amount: 0 }))).toBe('amount');
    expect(await field(await refund(admin, invoice.id, { reason: 'x', amount: 1.5 }))).toBe(
      'amount',
    );
    const over = await refund(admin, invoice.id, { reason: 'x', amount: 5001 });
    expect(await field(over)).toBe('amount');
    expect(over.json().details[0].message).toContain('$50.00');
    const unknown = await refund(admin, crypto.randomUUID(), { reason: 'x' });
    expect(unknown.statusCode).toBe(404);
    expect(await notesOf(orgId)).toEqual([]);
  });

  it('refunds in part, then the rest, then answers NOT_REFUNDABLE; numbers CN-000001, CN-000002; once per Idempotency-Key', async () => {
    const orgId = await newOrg();
    const invoice = await paidInvoice(orgId, 7900);
    const number = `INV-${String(invoice.number).padStart(6, '0')}`;
    const key = newKey();
    const first = await refund(admin, invoice.id, { amount: 2900, reason: 'Outage in May' }, key);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toEqual({
      id: expect.any(String),
      number: 'CN-000001',
      invoice_id: invoice.id,
      invoice_number: number,
      amount: 2900,
      currency: 'usd',
      reason: 'Outage in May',
      lines: [{ description: `Refund of ${number}: Outage in May`, amount: 2900 }],
      created: t.clock.now().toISOString(),
    });
    // The same request again: the first answer, no second refund.
    const replay = await refund(admin, invoice.id, { amount: 2900, reason: 'Outage in May' }, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.json()).toEqual(first.json());
    expect(await notesOf(orgId)).toHaveLength(1);

    // No amount: all that is left.
    const rest = await refund(admin, invoice.id, { reason: 'Cancelled' });
    expect(rest.statusCode, rest.body).toBe(201);
    expect(rest.json()).toMatchObject({ number: 'CN-000002', amount: 5000 });
    const done = await refund(admin, invoice.id, { reason: 'Again' });
    expect(done.statusCode).toBe(409);
    expect(done.json().code).toBe(ErrorCode.NOT_REFUNDABLE);

    const notes = await notesOf(orgId);
    expect(notes.map((n) => [n.number, n.amount, n.created_by])).toEqual([
      [1, 2900, admin.id],
      [2, 5000, admin.id],
    ]);
    expect(new Set(notes.map((n) => n.gateway_ref)).size).toBe(2);
    expect((await accountOf(orgId)).next_credit_note_number).toBe(3);
    // One invoice.refunded a credit note (none for the replay), ordered with the invoice's events.
    expect(await refundEventsOf(orgId)).toEqual(
      notes.map((n, i) => ({
        subject: `invoice:${invoice.id}`,
        invoice_id: invoice.id,
        number,
        credit_note_id: n.id,
        credit_note_number: `CN-00000${i + 1}`,
        reason: ['Outage in May', 'Cancelled'][i],
        credit_taken_back: 0,
        amount: n.amount,
        currency: 'usd',
      })),
    );
    // The sandbox took both and has nothing left to give back.
    const more = await sandbox.refund({
      chargeRef: invoice.gateway_ref!,
      amount: 1,
      currency: 'usd',
      idempotencyKey: newKey(),
    });
    expect(more.ok).toBe(false);

    // Numbers are the organization's own: another starts again at CN-000001.
    const other = await newOrg();
    const elsewhere = await refund(admin, (await paidInvoice(other, 100)).id, { reason: 'x' });
    expect(elsewhere.json().number).toBe('CN-000001');
  });

  it('tells the OWNERs and ADMINs of each credit note, in the bell and by e-mail; STAFF not, a replay not again', async () => {
    const owner = s.people.OWNER;
    const admin2 = await createUser(t.ctx.db, { first_name: 'Ada' });
    const staff = await createUser(t.ctx.db, { first_name: 'Sam' });
    const org = await createOrganization(t.ctx.db, { ownerId: owner.id, name: 'Tidewater Ltd' });
    await addOrganizationMember(t.ctx.db, {
      organizationId: org.id,
      userId: admin2.id,
      role: 'ADMIN',
    });
    await addOrganizationMember(t.ctx.db, {
      organizationId: org.id,
      userId: staff.id,
      role: 'STAFF',
    });
    const { invoice, price } = await topUp(org.id, 'Team');
    const number = `INV-${String(invoice.number).padStart(6, '0')}`;
    const key = newKey();
    for (let i = 0; i < 2; i++)
      expect(
        (await refund(admin, invoice.id, { amount: 5000, reason: 'Unused funds' }, key)).statusCode,
      ).toBe(201);

    const historyPath = `/ps/organization-settings/${org.id}/billing/history`;
    for (const person of [owner, admin2]) {
      const bell = await t.ctx.db
        .select()
        .from(notifications)
        .where(
          and(
            eq(notifications.recipient_id, person.id),
            eq(notifications.organization_id, org.id),
            eq(notifications.type, 'BILLING'),
          ),
        );
      expect(bell.map((n) => [n.organization_id, n.meta, n.extra_message])).toEqual([
        [
          org.id,
          { kind: 'credit_note', path: historyPath },
          `${number} was refunded: $50.00 back to the card. $52.50 of credit was taken back from the balance. Credit note CN-000001 is in the billing history.`,
        ],
      ]);
      // The OWNER owns other organizations of this file: their mails are not this one's.
      const mails = (
        await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to_address, person.email))
      ).filter((m) => m.subject.includes('Tidewater Ltd'));
      expect(mails.map((m) => m.subject)).toEqual([
        `Credit note CN-000001: ${number} of Tidewater Ltd refunded`,
      ]);
      expect(mails[0]!.text_body).toContain(`$50.00 of invoice ${number} went back to the card`);
      expect(mails[0]!.text_body).toContain('their credit of $52.50 was taken back');
      expect(mails[0]!.text_body).toContain(`Open the billing history: http`);
      expect(mails[0]!.text_body).toContain(historyPath);
    }
    expect(price).toBe(20000);
    expect(
      await t.ctx.db.select().from(notifications).where(eq(notifications.recipient_id, staff.id)),
    ).toEqual([]);
    expect(
      await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to_address, staff.email)),
    ).toEqual([]);
  });

  it('two refunds of the rest at once: one credit note, the other NOT_REFUNDABLE', async () => {
    const orgId = await newOrg();
    const invoice = await paidInvoice(orgId, 3000);
    const answers = await Promise.all([
      refund(admin, invoice.id, { reason: 'a' }),
      refund(admin, invoice.id, { reason: 'b' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect(await notesOf(orgId)).toHaveLength(1);
  });

  it('fifty partial refunds at once never pass the invoice; the numbers stay gapless', async () => {
    const orgId = await newOrg();
    const invoice = await paidInvoice(orgId, 3000);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        refund(admin, invoice.id, { amount: 100, reason: `r${i}` }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(30);
    expect(answers.filter((a) => a.statusCode !== 201).map((a) => a.json().code)).toEqual(
      Array(20).fill(ErrorCode.NOT_REFUNDABLE),
    );
    const notes = await notesOf(orgId);
    expect(notes.reduce((sum, n) => sum + n.amount, 0)).toBe(3000);
    expect(notes.map((n) => n.number).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    expect(await refundEventsOf(orgId), 'one event a credit note').toHaveLength(30);
  });

  it('refuses an invoice without a card payment (409), and writes nothing when the gateway refuses (402) or does not answer (503)', async () => {
    const orgId = await newOrg();
    const failed = await t.ctx.db.transaction((tx) =>
      recordInvoice(tx, {
        organizationId: orgId,
        subscriptionId: null,
        kind: 'RENEWAL',
        status: 'FAILED',
        amount: 4900,
        currency: 'usd',
        description: 'Renewal',
        lines: [{ description: 'Renewal', amount: 4900 }],
        gatewayRef: null,
        at: t.clock.now(),
      }),
    );
    const notPaid = await refund(admin, failed!.id, { reason: 'x' });
    expect(notPaid.statusCode).toBe(409);
    expect(notPaid.json().code).toBe(ErrorCode.NOT_REFUNDABLE);

    // A charge the gateway does not know (made elsewhere): declined, nothing written.
    const foreign = await createInvoice(t.ctx.db, {
      organizationId: orgId,
      subscriptionId: null,
      amount: 4900,
      description: 'Imported',
    });
    const declined = await refund(admin, foreign.id, { reason: 'x' });
    expect(declined.statusCode).toBe(402);
    expect(declined.json().code).toBe(ErrorCode.PAYMENT_FAILED);

    const invoice = await paidInvoice(orgId, 4900);
    const key = newKey();
    sandbox.failRefunds('unknown');
    let unsure;
    try {
      unsure = await refund(admin, invoice.id, { reason: 'x' }, key);
    } finally {
      sandbox.failRefunds(null);
    }
    expect(unsure.statusCode).toBe(503);
    expect(unsure.json().code).toBe(ErrorCode.SERVICE_UNAVAILABLE);
    expect(await notesOf(orgId)).toEqual([]);
    expect(await refundEventsOf(orgId)).toEqual([]);
    expect((await accountOf(orgId)).next_credit_note_number).toBe(1);
    // Asked again with the same key, it refunds (once).
    const retried = await refund(admin, invoice.id, { reason: 'x' }, key);
    expect(retried.statusCode).toBe(201);
    expect(retried.json()).toMatchObject({ number: 'CN-000001', amount: 4900 });
  });

  it('a fund package refunded in parts takes back exactly its credit; the ledger sums to the balance', async () => {
    const orgId = await newOrg();
    const { invoice, price, credit } = await topUp(orgId, 'Team');
    expect([price, credit]).toEqual([20000, 21000]);
    const parts = [5000, 3333];
    for (const amount of parts)
      expect((await refund(admin, invoice.id, { amount, reason: 'Unused' })).statusCode).toBe(201);
    const last = await refund(admin, invoice.id, { reason: 'Closing the account' });
    expect(last.json()).toMatchObject({ number: 'CN-000003', amount: 20000 - 5000 - 3333 });

    const entries = await ledgerOf(orgId);
    const takenBack = entries.filter((e) => e.type === 'adjustment');
    // credit × refunded ÷ price, rounded down, on the running total.
    expect(takenBack.map((e) => e.amount)).toEqual([-5250, -3499, -12251]);
    expect(takenBack.map((e) => e.reference)).toEqual(['CN-000001', 'CN-000002', 'CN-000003']);
    expect((await refundEventsOf(orgId)).map((e) => e.credit_taken_back)).toEqual([
      5250, 3499, 12251,
    ]);
    expect(takenBack.every((e) => e.invoice_id === invoice.id && e.source === 'system')).toBe(true);
    const balance = (await accountOf(orgId)).available_balance;
    expect(balance).toBe(0);
    expect(entries.reduce((sum, e) => sum + e.amount, 0)).toBe(balance);
  });

  it('a fund package whose credit was spent is not refunded (402 INSUFFICIENT_BALANCE), money and all', async () => {
    const orgId = await newOrg();
    const { invoice } = await topUp(orgId, 'Team');
    await adjustBalance(t.ctx.db, orgId, -20000, 'Spent on labels');
    const refused = await refund(admin, invoice.id, { reason: 'x' });
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({
      code: ErrorCode.INSUFFICIENT_BALANCE,
      details: { available_balance: 1000, amount: 21000 },
    });
    expect(await notesOf(orgId)).toEqual([]);
    expect((await accountOf(orgId)).available_balance).toBe(1000);

    // What the balance still covers can be refunded.
    const part = await refund(admin, invoice.id, { amount: 900, reason: 'x' });
    expect(part.statusCode).toBe(201);
    expect((await accountOf(orgId)).available_balance).toBe(1000 - 945);
    // The gateway gave back only those 900: the rest of the charge is still there.
    const rest = await sandbox.refund({
      chargeRef: invoice.gateway_ref!,
      amount: 20000 - 900,
      currency: 'usd',
      idempotencyKey: newKey(),
    });
    expect(rest.ok).toBe(true);
  });
});
