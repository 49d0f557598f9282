import crypto from 'node:crypto';
import { USAGE_MAX_DAYS } from '@portolan/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { observeStatements } from '../../../test/support/statements.ts';
import { createTenantScene, type Person, type TenantScene } from '../../../test/support/tenants.ts';
import { ledgerEntries, users } from '../../db/schema/index.ts';
import { createClient, FACTORY_PASSWORD } from '../../seed/factories.ts';
import { adjustBalance } from './wallet-service.ts';

/**
 * GET …/balance/usage/ (issue 22 item 4): the charges of a window of whole days, net of refunds,
 * per service, workspace and member, per day, and as CSV. The charges are made through the
 * charge route, today; the defaults follow the injected clock.
 */
describe('the usage report', () => {
  let t: TestApp;
  let s: TenantScene;
  let acme: { id: string; name: string };
  let beta: { id: string; name: string };
  let formerMemberId: string;
  /** The window of the tests: yesterday to tomorrow (UTC) of the clock, which the charges hold. */
  let yesterday: string;
  let today: string;
  let tomorrow: string;
  let window: string;

  const usage = (query = '', who: Person | 'anonymous' = s.people.OWNER, orgId = s.orgId) =>
    s.send('GET', `/v1/organizations/${orgId}/balance/usage/${query}`, who);

  /** A charge through the route. */
  async function charge(
    who: Person,
    body: { service: string; quantity: number; client_id?: string },
  ): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/organizations/${s.orgId}/balance/charges/`,
      headers: { authorization: `Bearer ${who.token}`, 'idempotency-key': crypto.randomUUID() },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().entry.id as string;
  }

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    today = dayOf(t.clock.now(), 0);
    yesterday = dayOf(t.clock.now(), -1);
    tomorrow = dayOf(t.clock.now(), 1);
    window = `?from=${yesterday}&to=${tomorrow}`;
    // A name a spreadsheet would run, and one with a comma and quotes.
    beta = await createClient(t.ctx.db, { organizationId: s.orgId, name: '=HYPERLINK("x")' });
    acme = await createClient(t.ctx.db, { organizationId: s.orgId, name: 'Acme, "North"' });
    await adjustBalance(t.ctx.db, s.orgId, 100_000, 'Credit for the usage report');
    const { OWNER, ADMIN, STAFF } = s.people;
    await charge(OWNER, { service: 'SHIPPING_LABEL', quantity: 4, client_id: acme.id });
    await charge(ADMIN, { service: 'CUSTOMS_DECLARATION', quantity: 2, client_id: beta.id });
    await charge(STAFF, { service: 'SHIPPING_LABEL', quantity: 2 });
    const refunded = await charge(OWNER, {
      service: 'CUSTOMS_DECLARATION',
      quantity: 1,
      client_id: acme.id,
    });
    // The ADMIN gives the OWNER's charge back: it nets out of the OWNER's total.
    const refund = await s.send(
      'POST',
      `/v1/organizations/${s.orgId}/balance/history/${refunded}/refund/`,
      ADMIN,
    );
    expect(refund.statusCode).toBe(201);
    // A member who charged and whose account is gone since.
    const former = await s.member('STAFF');
    formerMemberId = former.id;
    await charge(former, { service: 'SHIPPING_LABEL', quantity: 1 });
    await t.ctx.db.delete(users).where(eq(users.id, former.id));
  });
  afterAll(() => t.close());

  it('answers OWNER and ADMIN; 401 anonymous, 403 STAFF and CLIENT, 404 another organization', async () => {
    for (const who of ['OWNER', 'ADMIN'] as const)
      expect((await usage(window, s.people[who])).statusCode).toBe(200);
    for (const who of ['STAFF', 'CLIENT'] as const)
      expect((await usage(window, s.people[who])).statusCode).toBe(403);
    expect((await usage(window, 'anonymous')).statusCode).toBe(401);
    expect((await usage(window, s.people.STRANGER)).statusCode).toBe(404);
    // The stranger's own organization answers them, with nothing of this one's.
    const own = await usage(window, s.people.STRANGER, s.otherOrgId);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ total: 0, groups: [] });
  });

  it('refuses a bad window or grouping with 400 naming the field', async () => {
    const firstOfMonth = `${today.slice(0, 8)}01`;
    const cases: [string, string][] = [
      [`?from=${tomorrow}&to=${yesterday}`, 'to'],
      ['?group_by=team', 'group_by'],
      ['?format=xlsx', 'format'],
      ['?from=2031-02-30', 'from'],
      ['?to=yesterday', 'to'],
      [`?from=${dayOf(t.clock.now(), -USAGE_MAX_DAYS)}&to=${today}`, 'to'],
      // A defaulted end: from up to today, and from the first day of this month.
      [`?from=${dayOf(t.clock.now(), -USAGE_MAX_DAYS)}`, 'from'],
      [`?from=${tomorrow}`, 'from'],
      [`?to=${dayOf(new Date(`${firstOfMonth}T00:00:00Z`), -1)}`, 'to'],
      ['?page=2', 'page'],
    ];
    for (const [query, field] of cases) {
      const res = await usage(query);
      expect(res.statusCode, query).toBe(400);
      expect(
        res.json().details.map((d: { field: string }) => d.field),
        query,
      ).toContain(field);
    }
    // The longest window allowed answers, with a day each.
    const longest = await usage(`?from=${dayOf(t.clock.now(), 1 - USAGE_MAX_DAYS)}&to=${today}`);
    expect(longest.statusCode).toBe(200);
    expect(longest.json().days).toHaveLength(USAGE_MAX_DAYS);
    expect(longest.json().total).toBe(475);
  });

  it('totals per service, net of refunds, largest first, with every day of the window', async () => {
    const res = await usage(`${window}&group_by=service`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      from: yesterday,
      to: tomorrow,
      group_by: 'service',
      currency: 'usd',
      total: 475,
    });
    expect(body.groups).toEqual([
      {
        key: 'CUSTOMS_DECLARATION',
        label: 'Customs declaration',
        amount: 300,
        quantity: 2,
        charges: 2,
      },
      { key: 'SHIPPING_LABEL', label: 'Shipping label', amount: 175, quantity: 7, charges: 3 },
    ]);
    // Each day of the window, the empty ones too, with what the ledger holds for it (UTC).
    const perDay = new Map<string, number>();
    for (const e of await t.ctx.db
      .select()
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.organization_id, s.orgId),
          inArray(ledgerEntries.type, ['charge', 'refund']),
        ),
      )) {
      const date = e.created_at.toISOString().slice(0, 10);
      perDay.set(date, (perDay.get(date) ?? 0) - e.amount);
    }
    expect(body.days).toEqual(
      [yesterday, today, tomorrow].map((date) => ({ date, amount: perDay.get(date) ?? 0 })),
    );
  });

  it('totals per workspace: a charge naming none is “No workspace”', async () => {
    const res = await usage(`${window}&group_by=client`);
    expect(res.json().groups).toEqual([
      { key: beta.id, label: beta.name, amount: 300, quantity: 2, charges: 1 },
      { key: acme.id, label: acme.name, amount: 100, quantity: 4, charges: 2 },
      { key: null, label: 'No workspace', amount: 75, quantity: 3, charges: 2 },
    ]);
    expect(res.json().total).toBe(475);
  });

  it('totals per member: a refund counts for whoever made the charge; a deleted account is “Former member”', async () => {
    const res = await usage(`${window}&group_by=user`);
    const { OWNER, ADMIN, STAFF } = s.people;
    expect(res.json().groups).toEqual([
      { key: ADMIN.id, label: 'Admin User', amount: 300, quantity: 2, charges: 1 },
      { key: OWNER.id, label: 'Olive Owner', amount: 100, quantity: 4, charges: 2 },
      { key: STAFF.id, label: 'Staff User', amount: 50, quantity: 2, charges: 1 },
      { key: null, label: 'Former member', amount: 25, quantity: 1, charges: 1 },
    ]);
    expect(res.json().groups.map((g: { key: string }) => g.key)).not.toContain(formerMemberId);
  });

  it('answers a CSV download: major units, quoted fields, no formulas', async () => {
    const res = await usage(`${window}&group_by=client&format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="usage-${yesterday}-${tomorrow}-by-client.csv"`,
    );
    expect(res.body).toBe(
      [
        'group,key,label,amount,currency,quantity,charges',
        `client,${beta.id},"'=HYPERLINK(""x"")",3.00,usd,2,1`,
        `client,${acme.id},"Acme, ""North""",1.00,usd,4,2`,
        'client,,No workspace,0.75,usd,3,2',
        '',
      ].join('\r\n'),
    );
    const empty = await usage('?from=2031-05-01&to=2031-05-31&format=csv');
    expect(empty.body).toBe('group,key,label,amount,currency,quantity,charges\r\n');
    expect(empty.headers['content-disposition']).toBe(
      'attachment; filename="usage-2031-05-01-2031-05-31-by-service.csv"',
    );
  });

  it('defaults to the current month to today, by the injected clock', async () => {
    const realNow = t.clock.now();
    const res = await usage();
    expect(res.json()).toMatchObject({ from: `${today.slice(0, 8)}01`, to: today, total: 475 });
    try {
      // A token lives 12 hours by the clock: sign in again at the clock's time.
      t.clock.set(new Date('2031-05-17T12:00:00.000Z'));
      const owner = await signedInNow(s.people.OWNER);
      const may = await usage('', owner);
      expect(may.statusCode).toBe(200);
      expect(may.json()).toMatchObject({
        from: '2031-05-01',
        to: '2031-05-17',
        group_by: 'service',
        total: 0,
        groups: [],
      });
      expect(may.json().days).toHaveLength(17);
      expect(may.json().days.at(-1)).toEqual({ date: '2031-05-17', amount: 0 });
      // The first day of a month is a window of one day.
      t.clock.set(new Date('2031-06-01T00:00:00.000Z'));
      expect((await usage('', await signedInNow(s.people.OWNER))).json()).toMatchObject({
        from: '2031-06-01',
        to: '2031-06-01',
        days: [{ date: '2031-06-01', amount: 0 }],
      });
    } finally {
      t.clock.set(realNow);
    }
  });

  it('reads in two statements whatever the grouping, the window and the number of groups', async () => {
    const log = observeStatements(t.ctx.database);
    try {
      // The balance reads in one: the usage report costs one more, on the same access path.
      await s.send('GET', `/v1/organizations/${s.orgId}/balance/`, s.people.OWNER);
      log.reset();
      await s.send('GET', `/v1/organizations/${s.orgId}/balance/`, s.people.OWNER);
      const balance = log.statements.length;
      for (const query of [
        `${window}&group_by=service`,
        `${window}&group_by=client`,
        `${window}&group_by=user&format=csv`,
        `?from=${dayOf(t.clock.now(), 1 - USAGE_MAX_DAYS)}&group_by=user`,
      ]) {
        log.reset();
        expect((await usage(query)).statusCode).toBe(200);
        expect(log.statements.length, query).toBe(balance + 1);
      }
    } finally {
      log.restore();
    }
  });

  /** The person signed in at the clock's time (from an address of this file's own). */
  async function signedInNow(who: Person): Promise<Person> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/rest-auth/app/login/',
      payload: { email: who.email, password: FACTORY_PASSWORD },
      remoteAddress: '10.78.0.1',
    });
    expect(res.statusCode, res.body).toBe(200);
    return { ...who, token: res.json().token as string };
  }
});

/** The day `n` days after `at`'s (UTC), as YYYY-MM-DD. */
function dayOf(at: Date, n: number): string {
  return new Date(at.getTime() + n * 86_400_000).toISOString().slice(0, 10);
}
