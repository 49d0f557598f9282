import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type Person, type TenantScene } from '../../../test/support/tenants.ts';
import { createOrganization } from '../../seed/factories.ts';
import { grantPlatformAdmin } from '../release-notes/index.ts';
import { recordInvoice } from './invoices.ts';
import { newKey } from './test-flow.ts';

/**
 * What an organization sees of its credit notes (issue 22 item 7): the list, newest first with
 * the invoice each credits, and each as a PDF; and the acceptance line of the issue: the invoice
 * and credit-note PDFs carry the billing details (their text is read back).
 */
describe('credit notes: the list and the PDF', () => {
  let t: TestApp;
  let s: TenantScene;
  let admin: Person;
  /** s.orgId's invoice, refunded twice. */
  let invoice: { id: string; number: string };
  let notes: { id: string; number: string }[];

  const org = (orgId: string, rest: string) => `/v1/organizations/${orgId}${rest}`;

  async function paidInvoice(orgId: string, amount: number) {
    const charged = await t.ctx.payments.charge({
      customerRef: null,
      paymentMethodRef: 'pm_sandbox_ok_00',
      amount,
      currency: 'usd',
      description: 'Professional plan, monthly',
      idempotencyKey: newKey(),
    });
    if (!charged.ok) throw new Error(charged.message);
    const row = await t.ctx.db.transaction((tx) =>
      recordInvoice(tx, {
        organizationId: orgId,
        subscriptionId: null,
        kind: 'SUBSCRIPTION',
        status: 'PAID',
        amount,
        currency: 'usd',
        description: 'Professional plan, monthly',
        lines: [{ description: 'Professional plan, monthly', amount }],
        gatewayRef: charged.chargeRef,
        at: t.clock.now(),
      }),
    );
    return { id: row!.id, number: `INV-${String(row!.number).padStart(6, '0')}` };
  }

  async function refund(invoiceId: string, body: object) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/admin/invoices/${invoiceId}/refunds/`,
      headers: { authorization: `Bearer ${admin.token}`, 'idempotency-key': newKey() },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; number: string };
  }

  async function pdfText(url: string, who: Person = s.people.OWNER) {
    const res = await s.send('GET', url, who);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = await getDocumentProxy(new Uint8Array(res.rawPayload));
    return (await extractText(pdf, { mergePages: true })).text.replace(/\s+/g, ' ');
  }

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    admin = await s.person({ first_name: 'Pat', last_name: 'Platform' });
    await grantPlatformAdmin(t.ctx.db, admin.email);
    invoice = await paidInvoice(s.orgId, 7900);
    notes = [
      await refund(invoice.id, { amount: 1000, reason: 'Outage' }),
      await refund(invoice.id, { amount: 500, reason: 'Goodwill' }),
    ];
  });
  afterAll(() => t.close());

  it('lists them newest first with their invoice (OWNER, ADMIN); STAFF and CLIENT 403, another organization 404, anonymous 401', async () => {
    for (const who of [s.people.OWNER, s.people.ADMIN]) {
      const res = await s.send('GET', org(s.orgId, '/credit-notes/'), who);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ count: 2, next: null, previous: null });
      expect(res.json().results).toEqual([
        expect.objectContaining({
          id: notes[1]!.id,
          number: 'CN-000002',
          invoice_id: invoice.id,
          invoice_number: invoice.number,
          amount: 500,
          reason: 'Goodwill',
        }),
        expect.objectContaining({ number: 'CN-000001', amount: 1000 }),
      ]);
    }
    const paged = await s.send(
      'GET',
      org(s.orgId, '/credit-notes/?limit=1&page=2'),
      s.people.OWNER,
    );
    expect(paged.json()).toMatchObject({ count: 2, next: null, previous: 1 });
    expect(paged.json().results.map((n: { number: string }) => n.number)).toEqual(['CN-000001']);
    for (const who of [s.people.STAFF, s.people.CLIENT])
      expect((await s.send('GET', org(s.orgId, '/credit-notes/'), who)).statusCode).toBe(403);
    expect(
      (await s.send('GET', org(s.orgId, '/credit-notes/'), s.people.STRANGER)).statusCode,
    ).toBe(404);
    expect((await s.send('GET', org(s.orgId, '/credit-notes/'), 'anonymous')).statusCode).toBe(401);
    // The stranger's own organization has none.
    const theirs = await s.send('GET', org(s.otherOrgId, '/credit-notes/'), s.people.STRANGER);
    expect(theirs.json()).toEqual({ count: 0, next: null, previous: null, results: [] });
    const bad = await s.send('GET', org(s.orgId, '/credit-notes/?limit=0'), s.people.OWNER);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe('limit');
  });

  it('renders one as a PDF (OWNER, ADMIN); STAFF and CLIENT 403, another organization 404, anonymous 401, a bad id 400', async () => {
    const url = org(s.orgId, `/credit-notes/${notes[0]!.id}/pdf/`);
    const res = await s.send('GET', url, s.people.ADMIN);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="credit-note-CN-000001.pdf"',
    );
    const text = await pdfText(url);
    expect(text).toContain('Credit note CN-000001');
    expect(text).toContain(`Credits invoice ${invoice.number}`);
    expect(text).toContain(`Refund of ${invoice.number}: Outage`);
    expect(text).toMatch(/Total \$10\.00/);
    for (const who of [s.people.STAFF, s.people.CLIENT])
      expect((await s.send('GET', url, who)).statusCode).toBe(403);
    expect((await s.send('GET', url, s.people.STRANGER)).statusCode).toBe(404);
    expect((await s.send('GET', url, 'anonymous')).statusCode).toBe(401);
    // Another organization's credit note is not found through one's own.
    const elsewhere = org(s.otherOrgId, `/credit-notes/${notes[0]!.id}/pdf/`);
    expect((await s.send('GET', elsewhere, s.people.STRANGER)).statusCode).toBe(404);
    const bad = await s.send('GET', org(s.orgId, '/credit-notes/nope/pdf/'), s.people.OWNER);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe('creditNoteId');
  });

  it('prints the billing details on the invoice and the credit note (the acceptance line); an earlier invoice keeps the name alone', async () => {
    const orgId = (
      await createOrganization(t.ctx.db, { ownerId: s.people.OWNER.id, name: 'Seewind Freight' })
    ).id;
    const before = await paidInvoice(orgId, 4900);
    const saved = await s.send('PUT', org(orgId, '/billing-details/'), s.people.OWNER, {
      company_name: 'Seewind Freight GmbH',
      address: 'Am Sandtorkai 5\n20457 Hamburg',
      country: 'DE',
      tax_id: 'DE 987 654 321',
    });
    expect(saved.statusCode).toBe(200);
    const after = await paidInvoice(orgId, 12000);
    const note = await refund(after.id, { reason: 'Double payment' });
    const earlier = await refund(before.id, { amount: 900, reason: 'Outage' });

    const details = [
      'Seewind Freight GmbH',
      'Am Sandtorkai 5',
      '20457 Hamburg',
      'Germany',
      'VAT number DE987654321',
    ];
    const invoiceText = await pdfText(org(orgId, `/invoices/${after.id}/pdf/`));
    const noteText = await pdfText(org(orgId, `/credit-notes/${note.id}/pdf/`));
    for (const text of [invoiceText, noteText]) {
      expect(text).toContain(`Billed to ${details.join(' ')}`);
    }
    expect(noteText).toContain(`Credit note ${note.number}`);
    expect(noteText).toContain(`Credits invoice ${after.number}`);
    expect(noteText).toMatch(/Total \$120\.00/);

    // The invoice written before the details names the organization; its credit note, written
    // after, prints the details of its own day.
    const beforeText = await pdfText(org(orgId, `/invoices/${before.id}/pdf/`));
    expect(beforeText).toContain('Billed to Seewind Freight ');
    expect(beforeText).not.toContain('Germany');
    expect(await pdfText(org(orgId, `/credit-notes/${earlier.id}/pdf/`))).toContain(
      'VAT number DE987654321',
    );
  });
});
