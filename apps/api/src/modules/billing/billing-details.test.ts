import { eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';
import { billingDetails, invoices } from '../../db/schema/index.ts';
import { createInvoice, createOrganization } from '../../seed/factories.ts';

/**
 * Billing details (issue 22 item 6): read and saved by the organization's OWNERs and ADMINs, the
 * tax ID checked in form for the country and stored normalized, and copied onto every invoice
 * written afterwards, whose PDF prints that copy whatever the details become.
 */
describe('billing details', () => {
  let t: TestApp;
  let s: TenantScene;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
  });
  afterAll(() => t.close());

  const url = (orgId: string) => `/v1/organizations/${orgId}/billing-details/`;
  const acme = {
    company_name: 'Acme Logistik GmbH',
    address: 'Hafenstraße 12\n  20457 Hamburg  \n',
    country: 'DE',
    tax_id: 'de 123.456-789',
  };

  async function pdfText(orgId: string, invoiceId: string) {
    const res = await s.send(
      'GET',
      `/v1/organizations/${orgId}/invoices/${invoiceId}/pdf/`,
      s.people.OWNER,
    );
    expect(res.statusCode).toBe(200);
    const pdf = await getDocumentProxy(new Uint8Array(res.rawPayload));
    return (await extractText(pdf, { mergePages: true })).text.replace(/\s+/g, ' ');
  }

  it('answers empty details before any are saved; OWNER and ADMIN read them, STAFF and CLIENT 403, another organization 404, anonymous 401', async () => {
    for (const who of [s.people.OWNER, s.people.ADMIN]) {
      const res = await s.send('GET', url(s.orgId), who);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        company_name: '',
        address: '',
        country: null,
        tax_id: null,
        updated: null,
      });
    }
    expect((await s.send('GET', url(s.orgId), s.people.STAFF)).statusCode).toBe(403);
    expect((await s.send('GET', url(s.orgId), s.people.CLIENT)).statusCode).toBe(403);
    expect((await s.send('GET', url(s.orgId), s.people.STRANGER)).statusCode).toBe(404);
    expect((await s.send('GET', url(s.orgId), 'anonymous')).statusCode).toBe(401);
    expect((await s.send('GET', url('nope'), s.people.OWNER)).statusCode).toBe(400);
  });

  it('saves them (OWNER and ADMIN), the tax ID normalized; STAFF and CLIENT 403, another organization 404, anonymous 401', async () => {
    for (const who of [s.people.STAFF, s.people.CLIENT])
      expect((await s.send('PUT', url(s.orgId), who, acme)).statusCode).toBe(403);
    expect((await s.send('PUT', url(s.orgId), s.people.STRANGER, acme)).statusCode).toBe(404);
    expect((await s.send('PUT', url(s.orgId), 'anonymous', acme)).statusCode).toBe(401);
    expect(
      await t.ctx.db
        .select()
        .from(billingDetails)
        .where(eq(billingDetails.organization_id, s.orgId)),
    ).toEqual([]);

    const saved = await s.send('PUT', url(s.orgId), s.people.OWNER, acme);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({
      company_name: 'Acme Logistik GmbH',
      address: 'Hafenstraße 12\n  20457 Hamburg',
      country: 'DE',
      tax_id: 'DE123456789',
      updated: t.clock.now().toISOString(),
    });
    expect((await s.send('GET', url(s.orgId), s.people.ADMIN)).json()).toEqual(saved.json());

    // Saving again replaces them whole; an empty tax ID is none.
    t.clock.advance(60_000);
    const again = await s.send('PUT', url(s.orgId), s.people.ADMIN, {
      ...acme,
      country: 'AT',
      tax_id: '',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ country: 'AT', tax_id: null });
    expect(again.json().updated).toBe(t.clock.now().toISOString());
    const rows = await t.ctx.db
      .select()
      .from(billingDetails)
      .where(eq(billingDetails.organization_id, s.orgId));
    expect(rows).toHaveLength(1);

    // Each save is in the organization's activity log, newest first, by whom.
    const log = await s.send(
      'GET',
      `/v1/organizations/${s.orgId}/activities/?action=UPDATE_BILLING_DETAILS`,
      s.people.OWNER,
    );
    expect(
      log.json().results.map((a: { user: { id: string }; data: object }) => [a.user.id, a.data]),
    ).toEqual([
      [s.people.ADMIN.id, { company_name: 'Acme Logistik GmbH', country: 'AT', tax_id: null }],
      [
        s.people.OWNER.id,
        { company_name: 'Acme Logistik GmbH', country: 'DE', tax_id: 'DE123456789' },
      ],
    ]);
  });

  it.each([
    ['tax_id', { tax_id: 'DE12345678' }, /VAT number.*DE123456789/],
    ['tax_id', { country: 'FR', tax_id: 'DE123456789' }, /VAT number/],
    ['country', { country: 'XX' }, /country/i],
    ['country', { country: 'de' }, /country/i],
    ['company_name', { company_name: '' }, /company name/],
    ['address', { address: '  ' }, /address/],
    ['address', { address: 'Street 1\u0000' }, /control characters/],
    ['tax_id', { tax_id: 'X'.repeat(41) }, /40 characters/],
  ])('answers 400 naming %s (%j), and saves nothing', async (field, change, message) => {
    const before = (await s.send('GET', url(s.orgId), s.people.OWNER)).json();
    const res = await s.send('PUT', url(s.orgId), s.people.OWNER, { ...acme, ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([
      expect.objectContaining({ field, message: expect.stringMatching(message) }),
    ]);
    expect((await s.send('GET', url(s.orgId), s.people.OWNER)).json()).toEqual(before);
  });

  it('copies the details onto each invoice written afterwards; an earlier invoice keeps what it had', async () => {
    const orgId = (
      await createOrganization(t.ctx.db, { ownerId: s.people.OWNER.id, name: 'Nordwind Cargo' })
    ).id;
    const pay = (description: string) =>
      createInvoice(t.ctx.db, {
        organizationId: orgId,
        subscriptionId: null,
        amount: 4900,
        description,
      });

    // Before any details: no copy, and the PDF names the organization as it always did.
    const first = await pay('Before the details');
    expect(first.billed_to).toBeNull();
    expect(await pdfText(orgId, first.id)).toMatch(/Billed to Nordwind Cargo/);

    expect((await s.send('PUT', url(orgId), s.people.OWNER, acme)).statusCode).toBe(200);
    const second = await pay('With the details');
    expect(second.billed_to).toEqual({
      company_name: 'Acme Logistik GmbH',
      address: 'Hafenstraße 12\n  20457 Hamburg',
      country: 'DE',
      tax_id: 'DE123456789',
    });
    const text = await pdfText(orgId, second.id);
    expect(text).toContain(
      'Billed to Acme Logistik GmbH Hafenstraße 12 20457 Hamburg Germany VAT number DE123456789',
    );

    // The details change: the invoices already written print what they had.
    const moved = {
      company_name: 'Acme Logistics Ltd',
      address: '1 Dock Road\nLondon E16 1AA',
      country: 'GB',
      tax_id: 'GB 123 4567 89',
    };
    expect((await s.send('PUT', url(orgId), s.people.OWNER, moved)).statusCode).toBe(200);
    const third = await pay('After the move');
    expect(await pdfText(orgId, second.id)).toBe(text);
    expect(await pdfText(orgId, first.id)).toMatch(/Billed to Nordwind Cargo/);
    const newest = await pdfText(orgId, third.id);
    expect(newest).toContain(
      'Billed to Acme Logistics Ltd 1 Dock Road London E16 1AA United Kingdom VAT number GB123456789',
    );
    expect(newest).not.toContain('Hamburg');
    const stored = await t.ctx.db.select().from(invoices).where(eq(invoices.id, second.id));
    expect(stored[0]!.billed_to?.company_name).toBe('Acme Logistik GmbH');
  });
});
