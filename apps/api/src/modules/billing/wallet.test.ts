// engine-parity: twenty or more requests at once
import { ErrorCode } from '@portolan/contract';
import { eq, sql } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type Person, type TenantScene } from '../../../test/support/tenants.ts';
import {
  billingAccounts,
  checkouts,
  fundPackages,
  invoices,
  ledgerEntries,
} from '../../db/schema/index.ts';
import { createInvoice, createOrganization } from '../../seed/factories.ts';
import { adjustBalance } from './wallet-service.ts';
import { cardForm, newKey, submitCard } from './test-flow.ts';

/**
 * Billing II: fund packages and their checkout, the balance and its ledger, charges (once per
 * Idempotency-Key, never below zero, fifty at once), refunds, and invoices with their PDF.
 */
describe('the wallet', () => {
  let t: TestApp;
  let s: TenantScene;
  let packages: { id: string; name: string; price: number; credit: number }[];

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    packages = (await t.ctx.db.select().from(fundPackages)).sort(
      (a, b) => a.sort_order - b.sort_order,
    );
  });
  afterAll(() => t.close());

  const org = (orgId: string, rest = '') => `/v1/organizations/${orgId}${rest}`;
  const auth = (who: Person) => ({ authorization: `Bearer ${who.token}` });

  const topUpCheckout = (
    who: Person,
    orgId: string,
    body: unknown,
    key: string | null = newKey(),
  ) =>
    t.app.inject({
      method: 'POST',
      url: org(orgId, '/balance/checkout/'),
      headers: { ...auth(who), ...(key !== null && { 'idempotency-key': key }) },
      payload: body as object,
    });

  const charge = (who: Person, orgId: string, body: unknown, key: string | null = newKey()) =>
    t.app.inject({
      method: 'POST',
      url: org(orgId, '/balance/charges/'),
      headers: { ...auth(who), ...(key !== null && { 'idempotency-key': key }) },
      payload: body as object,
    });

  /** Buys a package through the sandbox's hosted page with `number`. */
  async function buy(who: Person, orgId: string, packageId: string, number = '4242424242424242') {
    const opened = await topUpCheckout(who, orgId, { fund_package_id: packageId });
    expect(opened.statusCode).toBe(201);
    const checkout = opened.json() as { id: string; url: string };
    const paid = await submitCard(t, checkout.url, cardForm(number));
    return { checkout, paid };
  }

  const balanceOf = async (orgId: string) =>
    (
      await t.ctx.db
        .select()
        .from(billingAccounts)
        .where(eq(billingAccounts.organization_id, orgId))
    )[0]?.available_balance ?? 0;
  const entriesOf = (orgId: string) =>
    t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.organization_id, orgId));
  const ledgerSum = async (orgId: string) =>
    (await entriesOf(orgId)).reduce((sum, e) => sum + e.amount, 0);

  // ---- fund packages and services ----------------------------------------------------------

  it('lists the fund packages to anyone signed in, in their order; 401 anonymous; 400 a bad limit', async () => {
    const res = await s.send('GET', '/v1/fund-packages/', s.people.CLIENT);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(4);
    expect(body.results.map((p: { name: string }) => p.name)).toEqual([
      'Starter',
      'Team',
      'Scale',
      'Enterprise',
    ]);
    expect(body.results[1]).toMatchObject({ price: 20000, credit: 21000, currency: 'usd' });
    const paged = await s.send('GET', '/v1/fund-packages/?limit=2&page=2', s.people.OWNER);
    expect(paged.json()).toMatchObject({ count: 4, next: null, previous: 1 });
    expect(paged.json().results.map((p: { name: string }) => p.name)).toEqual([
      'Scale',
      'Enterprise',
    ]);
    expect((await s.send('GET', '/v1/fund-packages/', 'anonymous')).statusCode).toBe(401);
    const bad = await s.send('GET', '/v1/fund-packages/?limit=0', s.people.OWNER);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe('limit');
  });

  it('lists the services that draw on the balance, and each plan names those it includes', async () => {
    const res = await s.send('GET', '/v1/plans/balance/config/transit/', s.people.STAFF);
    expect(res.statusCode).toBe(200);
    const services = res.json().results as {
      key: string;
      unit_price: number;
      included_in: string[];
    }[];
    expect(services.map((x) => x.key)).toEqual([
      'SHIPPING_LABEL',
      'CUSTOMS_DECLARATION',
      'ADDRESS_VALIDATION',
      'TRACKING_LOOKUP',
      'SMS_NOTIFICATION',
    ]);
    expect(services[0]).toMatchObject({ unit_price: 25, included_in: [] });
    const plans = (await s.send('GET', '/v1/plans/service/config/transit/', s.people.OWNER)).json();
    const professional = plans.results.find((p: { type: string }) => p.type === 'PROFESSIONAL');
    expect(professional.included_services).toEqual([
      { key: 'TRACKING_LOOKUP', name: 'Tracking lookup' },
    ]);
    expect((await s.send('GET', '/v1/plans/balance/config/transit/', 'anonymous')).statusCode).toBe(
      401,
    );
    expect((await s.send('GET', '/v1/plans/balance/config/nope/', s.people.OWNER)).statusCode).toBe(
      400,
    );
  });

  // ---- top-up ------------------------------------------------------------------------------

  it('a paid fund package adds its credit once, with a numbered invoice and a ledger entry', async () => {
    const orgId = (await createOrganization(t.ctx.db, { ownerId: s.people.OWNER.id })).id;
    const team = packages[1]!;
    const { checkout, paid } = await buy(s.people.OWNER, orgId, team.id);
    expect(paid.statusCode).toBe(303);
    const read = await s.send('GET', org(orgId, `/checkout/${checkout.id}/`), s.people.OWNER);
    expect(read.json()).toMatchObject({ status: 'COMPLETE', kind: 'TOP_UP' });

    const balance = await s.send('GET', org(orgId, '/balance/'), s.people.OWNER);
    expect(balance.json()).toEqual({ available_balance: team.credit, currency: 'usd' });
    const history = (await s.send('GET', org(orgId, '/balance/history'), s.people.OWNER)).json();
    expect(history.count).toBe(1);
    expect(history.results[0]).toMatchObject({
      type: 'top-up',
      amount: team.credit,
      balance_after: team.credit,
      source: 'payment',
      reference: 'INV-000001',
      user: { id: s.people.OWNER.id },
    });
    const list = (await s.send('GET', org(orgId, '/invoices/'), s.people.OWNER)).json();
    expect(list.count).toBe(1);
    expect(list.results[0]).toMatchObject({
      number: 'INV-000001',
      kind: 'TOP_UP',
      status: 'PAID',
      total: team.price,
      subtotal: team.price,
    });

    // The page paid once: posting it again only shows it paid.
    const again = await submitCard(t, checkout.url, cardForm('4242424242424242'));
    expect(again.statusCode).toBe(200);
    expect(await balanceOf(orgId)).toBe(team.credit);
    expect((await entriesOf(orgId)).length).toBe(1);
  });

  it('a declined card adds nothing and records no invoice', async () => {
    const orgId = (await createOrganization(t.ctx.db, { ownerId: s.people.OWNER.id })).id;
    const { checkout } = await buy(s.people.OWNER, orgId, packages[0]!.id, '4000000000000002');
    const read = await s.send('GET', org(orgId, `/checkout/${checkout.id}/`), s.people.OWNER);
    expect(read.json().status).toBe('FAILED');
    expect(await balanceOf(orgId)).toBe(0);
    expect(await entriesOf(orgId)).toEqual([]);
    expect(
      await t.ctx.db.select().from(invoices).where(eq(invoices.organization_id, orgId)),
    ).toEqual([]);
  });

  it('answers 400 naming the field for an unknown package or a missing key; nothing opened', async () => {
    const count = async () =>
      (await t.ctx.db.select().from(checkouts).where(eq(checkouts.organization_id, s.orgId)))
        .length;
    const before = await count();
    const unknown = await topUpCheckout(s.people.OWNER, s.orgId, {
      fund_package_id: crypto.randomUUID(),
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details[0].field).toBe('fund_package_id');
    const notUuid = await topUpCheckout(s.people.OWNER, s.orgId, { fund_package_id: 'x' });
    expect(notUuid.json().details[0].field).toBe('fund_package_id');
    const extra = await topUpCheckout(s.people.OWNER, s.orgId, {
      fund_package_id: packages[0]!.id,
      credit: 1,
    });
    expect(extra.statusCode).toBe(400);
    const noKey = await topUpCheckout(
      s.people.OWNER,
      s.orgId,
      { fund_package_id: packages[0]!.id },
      null,
    );
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().details[0].field).toBe('Idempotency-Key');
    expect(await count()).toBe(before);
  });

  it('keeps every billing read and the top-up to OWNER and ADMIN: 401, 403 STAFF and CLIENT, 404 a stranger', async () => {
    const [invoice] = await t.ctx.db.select().from(invoices).limit(1);
    const gets = [
      '/balance/',
      '/balance/history',
      '/balance/history/',
      '/invoices/',
      `/invoices/${invoice?.id ?? crypto.randomUUID()}/pdf/`,
    ];
    for (const path of gets) {
      expect((await s.send('GET', org(s.orgId, path), 'anonymous')).statusCode, path).toBe(401);
      expect((await s.send('GET', org(s.orgId, path), s.people.STAFF)).statusCode, path).toBe(403);
      expect((await s.send('GET', org(s.orgId, path), s.people.CLIENT)).statusCode, path).toBe(403);
      expect((await s.send('GET', org(s.orgId, path), s.people.STRANGER)).statusCode, path).toBe(
        404,
      );
    }
    for (const who of [s.people.OWNER, s.people.ADMIN]) {
      expect((await s.send('GET', org(s.orgId, '/balance/history'), who)).statusCode).toBe(200);
      expect((await s.send('GET', org(s.orgId, '/invoices/'), who)).statusCode).toBe(200);
    }
    const body = { fund_package_id: packages[0]!.id };
    expect((await topUpCheckout(s.people.STAFF, s.orgId, body)).statusCode).toBe(403);
    expect((await topUpCheckout(s.people.CLIENT, s.orgId, body)).statusCode).toBe(403);
    expect((await topUpCheckout(s.people.STRANGER, s.orgId, body)).statusCode).toBe(404);
    expect((await topUpCheckout(s.people.ADMIN, s.orgId, body)).statusCode).toBe(201);
  });

  // ---- charges -----------------------------------------------------------------------------

  it('charges a service × quantity once per key; a replay answers the same entry; another body is 409', async () => {
    const orgId = (
      await createOrganization(t.ctx.db, { ownerId: s.people.OWNER.id, plan: 'STANDARD' })
    ).id;
    await adjustBalance(t.ctx.db, orgId, 1000, 'Welcome credit');
    const key = newKey();
    const body = { service: 'SHIPPING_LABEL', quantity: 4, reference: 'Shipment 7781' };
    const first = await charge(s.people.OWNER, orgId, body, key);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      included: false,
      amount: 100,
      available_balance: 900,
      entry: {
        type: 'charge',
        amount: -100,
        balance_after: 900,
        reference: 'Shipment 7781',
        quantity: 4,
        service: { key: 'SHIPPING_LABEL', name: 'Shipping label' },
        source: 'member',
        user: { id: s.people.OWNER.id },
      },
    });
    const replay = await charge(s.people.OWNER, orgId, body, key);
    expect(replay.statusCode).toBe(200);
    expect(replay.json().entry).toEqual(first.json().entry);
    const other = await charge(s.people.OWNER, orgId, { ...body, quantity: 5 }, key);
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe(ErrorCode.IDEMPOTENCY_MISMATCH);
    expect(await balanceOf(orgId)).toBe(900);
    expect((await entriesOf(orgId)).length).toBe(2);
  });

  it('keeps Idempotency-Keys per caller: another member with the same key makes a charge of their own', async () => {
    const orgId = s.orgId;
    await adjustBalance(t.ctx.db, orgId, 1000, 'Credit for two callers');
    const before = await balanceOf(orgId);
    const key = newKey();
    const body = { service: 'SHIPPING_LABEL', quantity: 1, reference: 'Shared key' };
    const owners = await charge(s.people.OWNER, orgId, body, key);
    expect(owners.statusCode).toBe(201);
    const staffs = await charge(s.people.STAFF, orgId, body, key);
    expect(staffs.statusCode).toBe(201);
    expect(staffs.json().entry.id).not.toBe(owners.json().entry.id);
    expect(staffs.json().entry.user).toMatchObject({ id: s.people.STAFF.id });
    expect(JSON.stringify(staffs.json())).not.toContain(s.people.OWNER.email);
    // Each caller's replay answers their own first charge, and draws nothing more.
    const ownersAgain = await charge(s.people.OWNER, orgId, body, key);
    expect(ownersAgain.statusCode).toBe(200);
    expect(ownersAgain.json().entry).toEqual(owners.json().entry);
    const staffsAgain = await charge(s.people.STAFF, orgId, body, key);
    expect(staffsAgain.statusCode).toBe(200);
    expect(staffsAgain.json().entry).toEqual(staffs.json().entry);
    // Another body under the key is a 409 only for the caller who used it.
    const otherBody = { ...body, quantity: 2 };
    expect((await charge(s.people.STAFF, orgId, otherBody, key)).statusCode).toBe(409);
    expect((await charge(s.people.ADMIN, orgId, otherBody, key)).statusCode).toBe(201);
    expect(await balanceOf(orgId)).toBe(before - 25 - 25 - 50);
  });

  it('refuses a charge beyond the balance with 402 and changes nothing', async () => {
    const orgId = (
      await createOrganization(t.ctx.db, { ownerId: s.people.OWNER.id, plan: 'STANDARD' })
    ).id;
    await adjustBalance(t.ctx.db, orgId, 100, 'Welcome credit');
    const res = await charge(s.people.OWNER, orgId, {
      service: 'CUSTOMS_DECLARATION',
      quantity: 1,
    });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({
      code: ErrorCode.INSUFFICIENT_BALANCE,
      details: { available_balance: 100, amount: 150 },
    });
    expect(await balanceOf(orgId)).toBe(100);
    expect((await entriesOf(orgId)).length).toBe(1);
  });

  it('draws nothing for a service the active plan includes', async () => {
    const orgId = (
      await createOrganization(t.ctx.db, { ownerId: s.people.OWNER.id, plan: 'PROFESSIONAL' })
    ).id;
    const res = await charge(s.people.OWNER, orgId, { service: 'TRACKING_LOOKUP', quantity: 30 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      included: true,
      entry: null,
      amount: 0,
      available_balance: 0,
    });
    const drawn = await charge(s.people.OWNER, orgId, {
      service: 'ADDRESS_VALIDATION',
      quantity: 1,
    });
    expect(drawn.statusCode).toBe(402);
    expect(await entriesOf(orgId)).toEqual([]);
  });

  it('lets OWNER, ADMIN and STAFF charge; 403 CLIENT, 404 a stranger, 401 anonymous', async () => {
    await adjustBalance(t.ctx.db, s.orgId, 1000, 'Credit for the matrix');
    const body = { service: 'SMS_NOTIFICATION', quantity: 1 };
    for (const who of [s.people.OWNER, s.people.ADMIN, s.people.STAFF])
      expect((await charge(who, s.orgId, body)).statusCode).toBe(201);
    expect((await charge(s.people.CLIENT, s.orgId, body)).statusCode).toBe(403);
    expect((await charge(s.people.STRANGER, s.orgId, body)).statusCode).toBe(404);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: org(s.orgId, '/balance/charges/'),
      headers: { 'idempotency-key': newKey() },
      payload: body,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers 400 naming the field for bad charges; nothing drawn', async () => {
    const before = (await entriesOf(s.orgId)).length;
    const cases: [unknown, string][] = [
      [{ service: 'NOPE', quantity: 1 }, 'service'],
      [{ service: '', quantity: 1 }, 'service'],
      [{ service: 'SHIPPING_LABEL', quantity: 0 }, 'quantity'],
      [{ service: 'SHIPPING_LABEL', quantity: 1.5 }, 'quantity'],
      [{ service: 'SHIPPING_LABEL', quantity: 10_001 }, 'quantity'],
      [{ service: 'SHIPPING_LABEL', quantity: '2' }, 'quantity'],
      [{ service: 'SHIPPING_LABEL', quantity: 1, reference: 'a\nb' }, 'reference'],
    ];
    for (const [body, field] of cases) {
      const res = await charge(s.people.OWNER, s.orgId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().details[0].field, JSON.stringify(body)).toBe(field);
    }
    const noKey = await charge(
      s.people.OWNER,
      s.orgId,
      { service: 'SHIPPING_LABEL', quantity: 1 },
      null,
    );
    expect(noKey.statusCode).toBe(400);
    expect((await entriesOf(s.orgId)).length).toBe(before);
  });

  it('fifty charges at once against a balance that covers twenty: exactly twenty succeed', async () => {
    const orgId = (
      await createOrganization(t.ctx.db, { ownerId: s.people.OWNER.id, plan: 'STANDARD' })
    ).id;
    await adjustBalance(t.ctx.db, orgId, 20 * 150, 'Twenty declarations');
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        charge(s.people.OWNER, orgId, { service: 'CUSTOMS_DECLARATION', quantity: 1 }),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 201).length).toBe(20);
    expect(codes.filter((c) => c === 402).length).toBe(30);
    expect(await balanceOf(orgId)).toBe(0);
    expect(await ledgerSum(orgId)).toBe(0);
    expect((await entriesOf(orgId)).filter((e) => e.type === 'charge').length).toBe(20);
  });

  it('fifty replays of one key at once charge once', async () => {
    const orgId = (
      await createOrganization(t.ctx.db, { ownerId: s.people.OWNER.id, plan: 'STANDARD' })
    ).id;
    await adjustBalance(t.ctx.db, orgId, 1000, 'Credit');
    const key = newKey();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        charge(s.people.OWNER, orgId, { service: 'SHIPPING_LABEL', quantity: 2 }, key),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 201).length).toBe(1);
    expect(answers.filter((a) => a.statusCode === 200).length).toBe(49);
    expect(new Set(answers.map((a) => a.json().entry.id)).size).toBe(1);
    expect(await balanceOf(orgId)).toBe(950);
    expect(await ledgerSum(orgId)).toBe(950);
  });

  // ---- refunds and the ledger's guarantees -------------------------------------------------

  it('refunds a charge once (also when fifty race); a top-up or an adjustment is not refundable', async () => {
    const orgId = s.orgId;
    const credit = await adjustBalance(t.ctx.db, orgId, 500, 'Credit');
    const charged = (
      await charge(s.people.STAFF, orgId, { service: 'SHIPPING_LABEL', quantity: 8 })
    ).json();
    const afterCharge = await balanceOf(orgId);
    const url = org(orgId, `/balance/history/${charged.entry.id}/refund/`);
    expect((await s.send('POST', url, s.people.STAFF)).statusCode).toBe(403);
    expect((await s.send('POST', url, s.people.CLIENT)).statusCode).toBe(403);
    expect((await s.send('POST', url, s.people.STRANGER)).statusCode).toBe(404);
    expect((await s.send('POST', url, 'anonymous')).statusCode).toBe(401);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => s.send('POST', url, s.people.ADMIN)),
    );
    expect(answers.filter((a) => a.statusCode === 201).length).toBe(1);
    expect(answers.filter((a) => a.statusCode === 409).length).toBe(49);
    const refund = answers.find((a) => a.statusCode === 201)!.json();
    expect(refund).toMatchObject({
      type: 'refund',
      amount: 200,
      balance_after: afterCharge + 200,
      refund_of: charged.entry.id,
      user: { id: s.people.ADMIN.id },
    });
    const history = (
      await s.send('GET', org(orgId, '/balance/history?type=charge'), s.people.OWNER)
    ).json();
    expect(history.results.find((e: { id: string }) => e.id === charged.entry.id).refunded_by).toBe(
      refund.id,
    );
    const notCharge = await s.send(
      'POST',
      org(orgId, `/balance/history/${credit.id}/refund/`),
      s.people.OWNER,
    );
    expect(notCharge.statusCode).toBe(409);
    expect(notCharge.json().code).toBe(ErrorCode.NOT_REFUNDABLE);
    const otherOrg = await s.send(
      'POST',
      org(s.otherOrgId, `/balance/history/${charged.entry.id}/refund/`),
      s.people.STRANGER,
    );
    expect(otherOrg.statusCode).toBe(404);
    expect(await balanceOf(orgId)).toBe(afterCharge + 200);
    expect(await ledgerSum(orgId)).toBe(await balanceOf(orgId));
  });

  it('never changes a ledger entry, and never lets a balance go below zero, whatever writes', async () => {
    const [entry] = await entriesOf(s.orgId);
    await expect(
      t.ctx.db.execute(sql`update ledger_entries set amount = 1 where id = ${entry!.id}`),
    ).rejects.toThrow();
    await expect(
      t.ctx.db.execute(sql`update ledger_entries set created_by = null where id = ${entry!.id}`),
    ).resolves.toBeDefined();
    await expect(
      t.ctx.db.execute(
        sql`update ledger_entries set created_by = ${s.people.OWNER.id} where id = ${entry!.id}`,
      ),
    ).rejects.toThrow();
    await expect(
      t.ctx.db.execute(
        sql`update billing_accounts set available_balance = -1 where organization_id = ${s.orgId}`,
      ),
    ).rejects.toThrow();
  });

  it('keeps a top-up entry when what it refers to goes (its reference becomes null)', async () => {
    const orgId = (await createOrganization(t.ctx.db, { ownerId: s.people.OWNER.id })).id;
    const { checkout } = await buy(s.people.OWNER, orgId, packages[0]!.id);
    await t.ctx.db.delete(checkouts).where(eq(checkouts.id, checkout.id));
    const [entry] = await entriesOf(orgId);
    expect(entry).toMatchObject({ type: 'top-up', amount: packages[0]!.credit, checkout_id: null });
    expect(await ledgerSum(orgId)).toBe(await balanceOf(orgId));
  });

  // ---- history filters -----------------------------------------------------------------------

  it('answers 400 naming the field for bad history filters', async () => {
    const cases: [string, string][] = [
      ['from_date=2026-13-01', 'from_date'],
      ['to_date=yesterday', 'to_date'],
      ['from_date=2026-05-02&to_date=2026-05-01', 'to_date'],
      ['type=gift', 'type'],
      ['limit=1000', 'limit'],
    ];
    for (const [query, field] of cases) {
      const res = await s.send('GET', org(s.orgId, `/balance/history?${query}`), s.people.OWNER);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().details[0].field, query).toBe(field);
    }
  });

  // ---- invoices ------------------------------------------------------------------------------

  it('numbers fifty invoices recorded at once 1 to 50, without a gap or a repeat', async () => {
    const orgId = (await createOrganization(t.ctx.db, { ownerId: s.people.OWNER.id, plan: null }))
      .id;
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        createInvoice(t.ctx.db, {
          organizationId: orgId,
          subscriptionId: null,
          amount: 100 + i,
          description: `Payment ${i}`,
        }),
      ),
    );
    const rows = await t.ctx.db.select().from(invoices).where(eq(invoices.organization_id, orgId));
    expect(rows.map((r) => r.number).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    const [account] = await t.ctx.db
      .select()
      .from(billingAccounts)
      .where(eq(billingAccounts.organization_id, orgId));
    expect(account!.next_invoice_number).toBe(51);
  });

  it('numbers invoices per organization, lists them newest first, and renders each as a PDF', async () => {
    const orgId = (
      await createOrganization(t.ctx.db, { ownerId: s.people.OWNER.id, name: 'Zürich Spedition' })
    ).id;
    await buy(s.people.OWNER, orgId, packages[0]!.id);
    await buy(s.people.OWNER, orgId, packages[2]!.id);
    const list = (await s.send('GET', org(orgId, '/invoices/?limit=1'), s.people.OWNER)).json();
    expect(list).toMatchObject({ count: 2, next: 2, previous: null });
    const newest = list.results[0];
    expect(newest).toMatchObject({ number: 'INV-000002', total: packages[2]!.price });

    const pdf = await s.send('GET', org(orgId, `/invoices/${newest.id}/pdf/`), s.people.OWNER);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(
      'attachment; filename="invoice-INV-000002.pdf"',
    );
    const document = await getDocumentProxy(new Uint8Array(pdf.rawPayload));
    const { text } = await extractText(document, { mergePages: true });
    expect(text).toContain('INV-000002');
    expect(text).toContain('Zürich Spedition');
    expect(text).toContain(newest.lines[0].description);
    expect(text).toContain('$500.00');

    // Another organization's invoice is not found, even by its owner elsewhere.
    const elsewhere = await s.send(
      'GET',
      org(s.orgId, `/invoices/${newest.id}/pdf/`),
      s.people.OWNER,
    );
    expect(elsewhere.statusCode).toBe(404);
    const bad = await s.send('GET', org(orgId, '/invoices/nope/pdf/'), s.people.OWNER);
    expect(bad.statusCode).toBe(400);
  });
});
