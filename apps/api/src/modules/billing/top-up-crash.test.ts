// engine-parity: branches on the engine
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabaseCopy, testEngine } from '../../../test/support/database.ts';
import { startServerProcess, type ServerProcess } from '../../../test/support/server-process.ts';
import { openPostgres, type Database } from '../../db/client.ts';
import {
  billingAccounts,
  checkouts,
  fundPackages,
  gatewayEvents,
  invoices,
  ledgerEntries,
  paymentMethods,
} from '../../db/schema/index.ts';
import { systemClock } from '../../lib/clock.ts';
import { SandboxGateway } from '../../lib/payments/index.ts';
import { SANDBOX_SIGNATURE_HEADER } from '../../lib/payments/sandbox.ts';
import { createOrganization, createUser, FACTORY_PASSWORD } from '../../seed/factories.ts';

/**
 * A real server process is killed (SIGKILL) while it applies a paid top-up: after it recorded the
 * gateway's event and kept the card, before the invoice and the ledger entry (the test holds the
 * organization's billing account row, so the handler waits there). Nothing of the top-up may
 * remain: PostgreSQL rolls the open transaction back when the process dies. A new process then
 * gets the gateway's redelivery and applies it exactly once. PostgreSQL only (a process of its
 * own on a database of its own); the embedded database is one process, it cannot be half-killed.
 */
const runHere = testEngine === 'postgres';

describe.runIf(runHere)('a crash in the middle of a top-up', () => {
  let copy: Awaited<ReturnType<typeof createPostgresDatabaseCopy>>;
  let database: Database;
  let db: Database['db'];
  let server: ServerProcess | undefined;
  let dataDir: string;
  const jwtSecret = crypto.randomBytes(32).toString('hex');

  beforeAll(async () => {
    copy = await createPostgresDatabaseCopy();
    database = openPostgres(copy.url, { max: 2 });
    db = database.db;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portolan-crash-'));
  });
  afterAll(async () => {
    await server?.stop();
    await database.close();
    await copy.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async () => {
    const started = await startServerProcess({
      DATABASE_URL: copy.url,
      DATA_DIR: dataDir,
      JWT_SECRET: jwtSecret,
    });
    for (let i = 0; i < 200; i++) {
      const ok = await fetch(`${started.base}/v1/config`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return started;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the server did not start: ${started.output}`);
  };

  async function call(base: string, method: string, url: string, body?: string, headers = {}) {
    const res = await fetch(`${base}${url}`, { method, headers, body });
    return { status: res.status, body: await res.text() };
  }

  it('leaves no half-applied top-up, and the redelivered event applies it once', async () => {
    const owner = await createUser(db, {});
    const orgId = (await createOrganization(db, { ownerId: owner.id })).id;
    const [pkg] = await db.select().from(fundPackages).where(eq(fundPackages.name, 'Team'));
    server = await start();

    const login = await call(
      server.base,
      'POST',
      '/v1/rest-auth/app/login/',
      JSON.stringify({ email: owner.email, password: FACTORY_PASSWORD }),
      { 'content-type': 'application/json' },
    );
    const token = JSON.parse(login.body).token as string;
    const opened = await call(
      server.base,
      'POST',
      `/v1/organizations/${orgId}/balance/checkout/`,
      JSON.stringify({ fund_package_id: pkg!.id }),
      {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        'idempotency-key': 'crash-test-top-up',
      },
    );
    expect(opened.status).toBe(201);
    const checkoutId = JSON.parse(opened.body).id as string;
    const [row] = await db.select().from(checkouts).where(eq(checkouts.id, checkoutId));

    // What the gateway sends (and sends again until it is acknowledged).
    const event = JSON.stringify({
      id: `evt_sandbox_${crypto.randomBytes(12).toString('hex')}`,
      type: 'checkout.completed',
      checkoutRef: row!.gateway_ref,
      checkoutId,
      customerRef: null,
      paymentMethod: {
        ref: `pm_sandbox_ok_${crypto.randomBytes(12).toString('hex')}`,
        card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2039 },
      },
      chargeRef: `ch_sandbox_${crypto.randomBytes(12).toString('hex')}`,
      amount: pkg!.price,
      currency: pkg!.currency,
    });
    const gateway = new SandboxGateway(new TextEncoder().encode(jwtSecret), systemClock);
    const deliver = (base: string) =>
      call(base, 'POST', '/v1/billing/webhooks/sandbox/', event, {
        'content-type': 'application/json',
        [SANDBOX_SIGNATURE_HEADER]: gateway.sign(event),
      });

    // Hold the account row (made here, uncommitted): the handler waits on it mid-transaction.
    const holder = new pg.Client({ connectionString: copy.url });
    await holder.connect();
    await holder.query('begin');
    await holder.query('insert into billing_accounts (organization_id) values ($1)', [orgId]);
    const delivery = deliver(server.base).catch(() => null);
    let waiting: number[] = [];
    for (let i = 0; i < 200 && waiting.length === 0; i++) {
      const { rows } = await holder.query<{ pid: number }>(
        "select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
      );
      waiting = rows.map((r) => r.pid);
      if (waiting.length === 0) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(waiting.length).toBe(1);
    // The event and the card are written by then, in the transaction that is about to die.
    await server.crash();
    await holder.query('rollback');
    // The killed server's backend finds its client gone and ends, rolling its transaction back.
    for (let i = 0; i < 200; i++) {
      const { rows } = await holder.query('select 1 from pg_stat_activity where pid = any($1)', [
        waiting,
      ]);
      if (rows.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await holder.end();
    await delivery;

    const ofOrg = <T extends { organization_id: unknown }>(t: T) =>
      eq(t.organization_id as never, orgId);
    expect(await db.select().from(gatewayEvents)).toEqual([]);
    expect(await db.select().from(paymentMethods).where(ofOrg(paymentMethods))).toEqual([]);
    expect(await db.select().from(invoices).where(ofOrg(invoices))).toEqual([]);
    expect(await db.select().from(ledgerEntries).where(ofOrg(ledgerEntries))).toEqual([]);
    expect(await db.select().from(billingAccounts).where(ofOrg(billingAccounts))).toEqual([]);
    const [still] = await db.select().from(checkouts).where(eq(checkouts.id, checkoutId));
    expect(still!.status).toBe('OPEN');

    // Restarted, the redelivery applies it; a second redelivery changes nothing.
    server = await start();
    expect((await deliver(server.base)).status).toBe(200);
    expect((await deliver(server.base)).status).toBe(200);
    const entries = await db.select().from(ledgerEntries).where(ofOrg(ledgerEntries));
    expect(entries.map((e) => [e.type, e.amount])).toEqual([['top-up', pkg!.credit]]);
    const [account] = await db.select().from(billingAccounts).where(ofOrg(billingAccounts));
    expect(account!.available_balance).toBe(pkg!.credit);
    expect((await db.select().from(invoices).where(ofOrg(invoices))).length).toBe(1);
    const [done] = await db.select().from(checkouts).where(eq(checkouts.id, checkoutId));
    expect(done!.status).toBe('COMPLETE');
  });
});
