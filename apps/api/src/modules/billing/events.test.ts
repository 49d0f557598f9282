import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type Person, type TenantScene } from '../../../test/support/tenants.ts';
import {
  billingAccounts,
  checkouts,
  fundPackages,
  gatewayEvents,
  invoices,
  ledgerEntries,
  paymentMethods,
  subscriptions,
} from '../../db/schema/index.ts';
import type { GatewayEvent } from '../../lib/payments/gateway.ts';
import type { SandboxGateway } from '../../lib/payments/sandbox.ts';
import { passesLuhn } from '../../lib/payments/sandbox.ts';
import { MISMATCH_MESSAGE } from './events.ts';
import {
  cardForm,
  newKey,
  payWith,
  postCheckout,
  submitCard,
  unsubscribedOrganization,
} from './test-flow.ts';

/**
 * The gateway's events through POST /v1/billing/webhooks/sandbox/: signatures, redeliveries and
 * order; the sandbox page's form; and no card number anywhere after all of it.
 */
describe('gateway events and the sandbox page', () => {
  let t: TestApp;
  let s: TenantScene;
  let owner: Person;
  const lines: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'debug' }, { logStream: { write: (l) => lines.push(l) } });
    s = await createTenantScene(t);
    owner = s.people.OWNER;
  });
  afterAll(() => t.close());

  const sandbox = () => t.ctx.payments as SandboxGateway;
  const deliver = (raw: string, signature: string | undefined) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/billing/webhooks/sandbox/',
      headers: {
        'content-type': 'application/json',
        ...(signature && { 'portolan-signature': signature }),
      },
      payload: raw,
    });

  async function openCheckout(orgId: string) {
    const body = (await postCheckout(t, owner, orgId, 'BUSINESS')).json() as {
      id: string;
      url: string;
    };
    const ref = body.url.split('/').at(-2)!;
    return { id: body.id, ref, url: body.url };
  }
  const completed = (
    c: { id: string; ref: string },
    id: string,
    paid: { amount: number; currency: string } = { amount: 19900, currency: 'usd' },
  ): GatewayEvent => ({
    id,
    type: 'checkout.completed',
    checkoutRef: c.ref,
    checkoutId: c.id,
    customerRef: null,
    paymentMethod: {
      ref: `pm_sandbox_ok_${id}`,
      card: { brand: 'mastercard', last4: '4444', exp_month: 1, exp_year: 2040 },
    },
    chargeRef: `ch_sandbox_${id}`,
    ...paid,
  });
  const failed = (c: { id: string; ref: string }, id: string): GatewayEvent => ({
    id,
    type: 'checkout.failed',
    checkoutRef: c.ref,
    checkoutId: c.id,
    reason: 'declined',
    message: 'Your card was declined. Try another card.',
  });
  const countOf = async (orgId: string) => ({
    subscriptions: (
      await t.ctx.db.select().from(subscriptions).where(eq(subscriptions.organization_id, orgId))
    ).length,
    invoices: (await t.ctx.db.select().from(invoices).where(eq(invoices.organization_id, orgId)))
      .length,
    cards: (
      await t.ctx.db.select().from(paymentMethods).where(eq(paymentMethods.organization_id, orgId))
    ).length,
  });

  it('applies an event once however often it comes, and ignores a failure after the payment', async () => {
    const orgId = await unsubscribedOrganization(t, owner);
    const checkout = await openCheckout(orgId);
    const raw = JSON.stringify(completed(checkout, `evt_a_${checkout.id}`));
    for (let i = 0; i < 2; i++) {
      const res = await deliver(raw, sandbox().sign(raw));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ received: true });
    }
    // Another delivery of the same payment under a new event id changes nothing either.
    const other = JSON.stringify(completed(checkout, `evt_b_${checkout.id}`));
    expect((await deliver(other, sandbox().sign(other))).statusCode).toBe(200);
    const late = JSON.stringify(failed(checkout, `evt_c_${checkout.id}`));
    expect((await deliver(late, sandbox().sign(late))).statusCode).toBe(200);
    expect(await countOf(orgId)).toEqual({ subscriptions: 1, invoices: 1, cards: 1 });
    const [row] = await t.ctx.db.select().from(checkouts).where(eq(checkouts.id, checkout.id));
    expect(row).toMatchObject({ status: 'COMPLETE', failure_message: null });
    const [sub] = await t.ctx.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.organization_id, orgId));
    expect(sub).toMatchObject({ status: 'ACTIVE', amount: 19900 });
  });

  it('applies nothing for a signed payment of another amount or currency: recorded and logged', async () => {
    // BUSINESS costs 19900 usd; the top-up below costs its package's price.
    const cases = [
      { amount: 100, currency: 'usd' },
      { amount: 19901, currency: 'usd' },
      { amount: 19900, currency: 'eur' },
    ];
    for (const paid of cases) {
      const orgId = await unsubscribedOrganization(t, owner);
      const checkout = await openCheckout(orgId);
      const eventId = `evt_m_${checkout.id}`;
      const raw = JSON.stringify(completed(checkout, eventId, paid));
      const res = await deliver(raw, sandbox().sign(raw));
      expect(res.statusCode, JSON.stringify(paid)).toBe(200);
      expect(await countOf(orgId), JSON.stringify(paid)).toEqual({
        subscriptions: 0,
        invoices: 0,
        cards: 0,
      });
      const [row] = await t.ctx.db.select().from(checkouts).where(eq(checkouts.id, checkout.id));
      expect(row).toMatchObject({ status: 'FAILED', failure_message: MISMATCH_MESSAGE });
      const [event] = await t.ctx.db
        .select()
        .from(gatewayEvents)
        .where(eq(gatewayEvents.id, eventId));
      expect(event).toMatchObject({
        outcome: 'amount_mismatch',
        reason: `expected 19900 usd, received ${paid.amount} ${paid.currency}`,
      });
      const logged = lines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.eventId === eventId);
      expect(logged).toMatchObject({
        level: 50,
        expected: { amount: 19900, currency: 'usd' },
        received: paid,
      });
      // The right payment arriving afterwards does not revive the failed checkout.
      const right = JSON.stringify(completed(checkout, `evt_r_${checkout.id}`));
      expect((await deliver(right, sandbox().sign(right))).statusCode).toBe(200);
      expect((await countOf(orgId)).subscriptions).toBe(0);
    }

    // A fund package paid short credits nothing.
    const orgId = await unsubscribedOrganization(t, owner);
    const [pkg] = await t.ctx.db.select().from(fundPackages).limit(1);
    const opened = await t.app.inject({
      method: 'POST',
      url: `/v1/organizations/${orgId}/balance/checkout/`,
      headers: { authorization: `Bearer ${owner.token}`, 'idempotency-key': newKey() },
      payload: { fund_package_id: pkg!.id },
    });
    expect(opened.statusCode).toBe(201);
    const topUp = { id: opened.json().id as string, ref: opened.json().url.split('/').at(-2) };
    const raw = JSON.stringify(
      completed(topUp, `evt_t_${topUp.id}`, { amount: pkg!.price - 1, currency: pkg!.currency }),
    );
    expect((await deliver(raw, sandbox().sign(raw))).statusCode).toBe(200);
    expect(
      await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.organization_id, orgId)),
    ).toEqual([]);
    const [account] = await t.ctx.db
      .select()
      .from(billingAccounts)
      .where(eq(billingAccounts.organization_id, orgId));
    expect(account?.available_balance ?? 0).toBe(0);
    expect(await countOf(orgId)).toEqual({ subscriptions: 0, invoices: 0, cards: 0 });
  });

  it('applies parallel deliveries of one event once', async () => {
    const orgId = await unsubscribedOrganization(t, owner);
    const checkout = await openCheckout(orgId);
    const raw = JSON.stringify(completed(checkout, `evt_p_${checkout.id}`));
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => deliver(raw, sandbox().sign(raw))),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(await countOf(orgId)).toEqual({ subscriptions: 1, invoices: 1, cards: 1 });
  });

  it('refuses a wrong, missing or stale signature with 400 and changes nothing', async () => {
    const orgId = await unsubscribedOrganization(t, owner);
    const checkout = await openCheckout(orgId);
    const raw = JSON.stringify(completed(checkout, `evt_s_${checkout.id}`));
    const good = sandbox().sign(raw);
    const stale = sandbox().sign(raw, new Date(t.clock.now().getTime() - 301_000));
    // One hex digit of the MAC changed (to another digit: replacing it with '0' left a MAC that
    // began with 0 intact, and the test failed once in sixteen runs).
    const tampered = good.replace(/v1=(.)/, (_, c: string) => `v1=${c === '0' ? '1' : '0'}`);
    expect(tampered).not.toBe(good);
    for (const signature of [undefined, 'garbage', tampered, stale]) {
      const res = await deliver(raw, signature);
      expect(res.statusCode, String(signature)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'BAD_REQUEST', message: expect.any(String) });
    }
    expect((await deliver(`${raw} `, good)).statusCode).toBe(400);
    expect(await countOf(orgId)).toEqual({ subscriptions: 0, invoices: 0, cards: 0 });
    // Signed garbage is refused too; an event type the portal does not handle is acknowledged.
    expect((await deliver('{"nope":1}', sandbox().sign('{"nope":1}'))).statusCode).toBe(400);
    const other = '{"id":"evt_x","type":"customer.updated"}';
    expect((await deliver(other, sandbox().sign(other))).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: '/v1/billing/webhooks/stripe/', payload: {} }))
        .statusCode,
    ).toBe(404);
    const text = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/webhooks/sandbox/',
      headers: { 'content-type': 'text/plain' },
      payload: 'x',
    });
    expect(text.statusCode).toBe(415);
  });

  it('adds a card through a setup checkout: the first becomes the default, nothing charged', async () => {
    const orgId = await unsubscribedOrganization(t, owner);
    await payWith(t, owner, orgId, '4242424242424242');
    const opened = await t.app.inject({
      method: 'POST',
      url: `/v1/organizations/${orgId}/payment-methods/checkout/`,
      headers: { authorization: `Bearer ${owner.token}`, 'idempotency-key': `card-${orgId}` },
    });
    expect(opened.statusCode).toBe(201);
    expect(opened.json()).toMatchObject({ kind: 'PAYMENT_METHOD', status: 'OPEN' });
    const page = await t.app.inject({ method: 'GET', url: opened.json().url });
    expect(page.body).toContain('Nothing is charged now');
    // A card that is kept fine but declined when charged later.
    const saved = await submitCard(t, opened.json().url, cardForm('4000000000000341'));
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toContain(`/billing/cards?checkout=${opened.json().id}`);
    const cards = await t.ctx.db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.organization_id, orgId));
    expect(cards).toHaveLength(2);
    const kept = cards.find((c) => c.last4 === '0341')!;
    expect(kept.gateway_ref).toMatch(/^pm_sandbox_declined_/);
    expect(
      await t.ctx.db.select().from(invoices).where(eq(invoices.organization_id, orgId)),
    ).toHaveLength(1);
    const charge = await sandbox().charge({
      customerRef: null,
      paymentMethodRef: kept.gateway_ref,
      amount: 100,
      currency: 'usd',
      description: 'test',
      idempotencyKey: 'k',
    });
    expect(charge).toMatchObject({ ok: false, reason: 'declined' });
  });

  it('serves an accessible page and re-renders it (400) for a bad card, never echoing the number', async () => {
    const orgId = await unsubscribedOrganization(t, owner);
    const checkout = await openCheckout(orgId);
    const page = await t.app.inject({ method: 'GET', url: checkout.url });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("form-action 'self'");
    expect(page.body.match(/<h1>/g)).toHaveLength(1);
    expect(page.body).toContain('$199.00');
    expect(page.body).toContain('Business plan, monthly');
    for (const id of ['number', 'expiry', 'cvc', 'name'])
      expect(page.body).toContain(`<label for="${id}">`);
    expect(page.body).not.toMatch(/<script/i);
    const cases: [Record<string, string>, string][] = [
      [{ number: '4242424242424241' }, 'number'],
      [{ number: 'abcd' }, 'number'],
      [{ expiry: '13/30' }, 'expiry'],
      [{ expiry: '01/20' }, 'expiry'],
      [{ cvc: '12' }, 'cvc'],
      [{ name: ' ' }, 'name'],
    ];
    for (const [change, field] of cases) {
      const res = await submitCard(
        t,
        checkout.url,
        cardForm(change.number ?? '4242424242424242', change),
      );
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.body).toContain(`id="${field}-error"`);
      expect(res.body).not.toContain('424242424242');
    }
    expect((await submitCard(t, checkout.url, 'number=1&number=2')).statusCode).toBe(400);
    const cancel = await submitCard(t, checkout.url, 'action=cancel');
    expect(cancel.statusCode).toBe(303);
    expect(cancel.headers.location).toContain(`/billing/plans?checkout=${checkout.id}`);
    expect(await countOf(orgId)).toEqual({ subscriptions: 0, invoices: 0, cards: 0 });
    const [row] = await t.ctx.db.select().from(checkouts).where(eq(checkouts.id, checkout.id));
    expect(row!.status).toBe('OPEN');
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/v1/billing/sandbox/checkout/cs_sandbox_000000000000000000000000/',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('NOT_FOUND');
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/billing/sandbox/checkout/x/' })).statusCode,
    ).toBe(400);
  });

  it('keeps no card number in any text or JSON column, nor in the log', async () => {
    const columns = (await t.ctx.db.execute(sql`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' and data_type in ('text', 'jsonb', 'json', 'character varying')`)) as unknown as
      | { rows: { table_name: string; column_name: string }[] }
      | { table_name: string; column_name: string }[];
    const list = Array.isArray(columns) ? columns : columns.rows;
    expect(list.length).toBeGreaterThan(10);
    const found: string[] = [];
    const scan = (where: string, text: string) => {
      // The sandbox's random hex tokens are not numbers anyone typed.
      const plain = text.replace(/\b(cs|pm|ch|evt)_sandbox_[a-z_]*[0-9a-f]+/g, '');
      // A card number as someone would write it: 13 to 19 digits, maybe in groups split by
      // spaces, standing on its own. Digits inside a longer token (a hex hash, a UUID's group)
      // are not a number anyone typed: a SHA-256 fingerprint once held a Luhn-valid run.
      for (const match of plain.match(/(?<![0-9A-Za-z])\d(?: ?\d){12,18}(?![0-9A-Za-z])/g) ?? []) {
        const run = match.replace(/ /g, '');
        if (passesLuhn(run) && !/^0+$/.test(run)) found.push(`${where}: ${run}`);
      }
    };
    for (const { table_name, column_name } of list) {
      const result = (await t.ctx.db.execute(
        sql`select ${sql.identifier(column_name)}::text as v from ${sql.identifier(table_name)}`,
      )) as unknown as { rows: { v: string | null }[] } | { v: string | null }[];
      for (const row of Array.isArray(result) ? result : result.rows)
        scan(`${table_name}.${column_name}`, row.v ?? '');
    }
    expect(lines.length).toBeGreaterThan(10);
    // Every log line but its own timestamp (13 digits of milliseconds).
    for (const line of lines) scan('log', line.replace(/"time":\d+/, ''));
    expect(found).toEqual([]);
  });
});
