// engine-parity: COPY and exports
import crypto from 'node:crypto';
import { PERMISSION_KEYS } from '@portolan/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createTenantScene, type TenantScene } from '../../../test/support/tenants.ts';
import type { Db } from '../../db/client.ts';
import {
  accessRulePermissions,
  accessRules,
  activities,
  customRoleRules,
  customRoles,
  invitations,
  memberCustomRoles,
  memberPermissionOverrides,
} from '../../db/schema/index.ts';
import { hours } from '../../lib/clock.ts';
import {
  addClientMember,
  addOrganizationMember,
  createClient,
  createInvoice,
  createPaymentMethod,
  createUser,
} from '../../seed/factories.ts';
import { adjustBalance } from '../billing/index.ts';
import { linkIn, openArchive, runJob } from './test-support.ts';

/** Everything one organization gets in the test; what its export must (or must never) show. */
async function furnish(db: Db, orgId: string, ownerId: string, tag: string) {
  const ws = await createClient(db, { organizationId: orgId, ownerId, name: `${tag} Desk` });
  const member = await createUser(db, {
    email: `only-in-${tag.toLowerCase()}.${crypto.randomUUID()}@example.com`,
  });
  await addOrganizationMember(db, { organizationId: orgId, userId: member.id, role: 'STAFF' });
  await addClientMember(db, { clientId: ws.id, userId: member.id, role: 'STAFF' });
  const [rule] = await db
    .insert(accessRules)
    .values({ organization_id: orgId, name: `${tag} rule`, description: `${tag} rule text` })
    .returning();
  await db
    .insert(accessRulePermissions)
    .values({ rule_id: rule!.id, permission: PERMISSION_KEYS[0], status: 'ALLOW' });
  const [role] = await db
    .insert(customRoles)
    .values({ organization_id: orgId, client_id: ws.id, name: `${tag} role` })
    .returning();
  await db.insert(customRoleRules).values({ role_id: role!.id, rule_id: rule!.id, priority: 1 });
  await db
    .insert(memberCustomRoles)
    .values({ client_id: ws.id, user_id: member.id, role_id: role!.id, priority: 1 });
  await db.insert(memberPermissionOverrides).values({
    client_id: ws.id,
    user_id: member.id,
    permission: PERMISSION_KEYS[0],
    status: 'DENY',
  });
  const invitee = await createUser(db, {
    email: `invitee-${tag.toLowerCase()}.${crypto.randomUUID()}@example.com`,
  });
  const invitationHash = crypto.randomBytes(32).toString('hex');
  await db.insert(invitations).values({
    kind: 'client',
    organization_id: orgId,
    client_id: ws.id,
    user_id: invitee.id,
    role: 'STAFF',
    token_hash: invitationHash,
    invited_by: ownerId,
    expires_at: new Date(Date.now() + hours(24 * 7)),
  });
  const card = await createPaymentMethod(db, {
    organizationId: orgId,
    last4: tag === 'Alpha' ? '4242' : '1881',
  });
  const invoice = await createInvoice(db, {
    organizationId: orgId,
    subscriptionId: null,
    amount: 4900,
    description: `${tag} invoice`,
  });
  const entry = await adjustBalance(db, orgId, 5000, `${tag} credit`);
  const [act] = await db
    .insert(activities)
    .values({
      user_id: ownerId,
      action: 'UPDATE_ORGANIZATION',
      organization_id: orgId,
      data: { tag },
    })
    .returning();
  return {
    ws,
    member,
    invitee,
    rule: rule!,
    role: role!,
    card,
    invoice,
    entry,
    act: act!,
    invitationHash,
  };
}

/**
 * An organization's data: the OWNER's export holds the organization, its workspaces, members,
 * roles and rules, billing and activities; never a row of another organization (two
 * organizations, each furnished alike), never a token hash, gateway reference or card number.
 * Runs on both engines.
 */
describe('an organization data export', () => {
  let t: TestApp;
  let s: TenantScene;
  let a: Awaited<ReturnType<typeof furnish>>;
  let b: Awaited<ReturnType<typeof furnish>>;
  let zip: ReturnType<typeof openArchive>;

  beforeAll(async () => {
    t = await createTestApp();
    s = await createTenantScene(t);
    a = await furnish(t.ctx.db, s.orgId, s.people.OWNER.id, 'Alpha');
    b = await furnish(t.ctx.db, s.otherOrgId, s.people.STRANGER.id, 'Bravo');
    // A charge of A's with its Idempotency-Key and fingerprint, which stay out of the export.
    await t.ctx.db.execute(sql`
      insert into ledger_entries (organization_id, type, amount, balance_after, description, source,
                                  idempotency_key, request_fingerprint)
      values (${s.orgId}, 'charge', -25, 4975, 'Shipping label', 'member', 'idem-secret-key-1',
              'fingerprint-secret-1')`);
    expect(
      (await s.send('POST', `/v1/organizations/${s.orgId}/data-exports/`, s.people.OWNER))
        .statusCode,
    ).toBe(202);
    expect(
      (await s.send('POST', `/v1/organizations/${s.otherOrgId}/data-exports/`, s.people.STRANGER))
        .statusCode,
    ).toBe(202);
    expect(await runJob(t)).toBe(2);
    const mail = await t.mailTo(s.people.OWNER.email);
    zip = openArchive(await s.send('GET', linkIn(mail.text), 'anonymous'));
  });
  afterAll(() => t.close());

  it('holds the organization’s files, described in README.txt', () => {
    expect(zip.names).toEqual(
      [
        'README.txt',
        'activities.jsonl',
        'billing/account.json',
        'billing/auto-top-ups.json',
        'billing/cards.json',
        'billing/credit-notes.json',
        'billing/details.json',
        'billing/invoices.json',
        'billing/ledger.jsonl',
        'billing/subscriptions.json',
        'billing/workspace-spend-caps.json',
        'members.json',
        'organization.json',
        'roles-and-rules.json',
        'workspaces.json',
      ].sort(),
    );
    for (const name of zip.names.filter((n) => n !== 'README.txt'))
      expect(zip.text('README.txt')).toContain(name);
    expect(zip.json('organization.json')).toMatchObject({
      id: s.orgId,
      owner_id: s.people.OWNER.id,
    });
  });

  it('holds its workspaces, members, invitations, roles and rules', () => {
    const ws = zip.json<{ id: string; name: string; modules: object[] }[]>('workspaces.json');
    expect(ws.map((w) => w.name)).toEqual(['Alpha Desk']);
    expect(ws[0]!.modules.length).toBeGreaterThan(0);
    const members = zip.json<{
      organization: { user: { email: string }; role: string }[];
      workspaces: { workspace_id: string; user: { email: string } }[];
      invitations: { user: { email: string }; status: string }[];
    }>('members.json');
    expect(members.organization.map((m) => m.user.email)).toEqual(
      expect.arrayContaining([
        s.people.OWNER.email,
        s.people.ADMIN.email,
        s.people.CLIENT.email,
        a.member.email,
      ]),
    );
    expect(members.workspaces.map((m) => m.user.email).sort()).toEqual(
      [a.member.email, s.people.OWNER.email].sort(),
    );
    expect(members.invitations).toEqual([
      expect.objectContaining({ user: expect.objectContaining({ email: a.invitee.email }) }),
    ]);
    const rr = zip.json<{
      access_rules: { name: string; permissions: object[] }[];
      custom_roles: { name: string; rules: object[] }[];
      member_custom_roles: object[];
      member_permission_overrides: object[];
    }>('roles-and-rules.json');
    expect(rr.access_rules).toEqual([
      expect.objectContaining({
        name: 'Alpha rule',
        permissions: [{ permission: PERMISSION_KEYS[0], status: 'ALLOW' }],
      }),
    ]);
    expect(rr.custom_roles).toEqual([
      expect.objectContaining({ name: 'Alpha role', rules: [{ rule_id: a.rule.id, priority: 1 }] }),
    ]);
    expect(rr.member_custom_roles).toHaveLength(1);
    expect(rr.member_permission_overrides).toEqual([expect.objectContaining({ status: 'DENY' })]);
  });

  it('holds its billing records, cards with brand, last 4 and expiry only', () => {
    expect(zip.json('billing/cards.json')).toEqual([
      {
        id: a.card.id,
        brand: 'visa',
        last4: '4242',
        exp_month: a.card.exp_month,
        exp_year: a.card.exp_year,
        added_at: a.card.created_at.toISOString(),
        removed_at: null,
      },
    ]);
    expect(zip.json('billing/invoices.json')).toEqual([
      expect.objectContaining({ id: a.invoice.id, number: 'INV-000001', amount: 4900 }),
    ]);
    const ledger = zip.lines<{ id: string; amount: number }>('billing/ledger.jsonl');
    expect(ledger.map((e) => e.amount)).toEqual([5000, -25]);
    expect(ledger[0]!.id).toBe(a.entry.id);
    expect(zip.json('billing/account.json')).toEqual({
      available_balance: 5000,
      currency: 'usd',
      spend_cap: null,
      low_balance_thresholds: [],
      auto_top_up: {
        enabled: false,
        threshold: null,
        fund_package_id: null,
        consecutive_failures: 0,
      },
    });
    expect(zip.json<object[]>('billing/subscriptions.json')).toHaveLength(1);
    expect(zip.lines<{ id: string }>('activities.jsonl').map((x) => x.id)).toContain(a.act.id);
  });

  it('holds no row, name or e-mail of the other organization', () => {
    const text = zip.all();
    for (const [what, value] of Object.entries({
      'organization id': s.otherOrgId,
      'workspace id': b.ws.id,
      'workspace name': 'Bravo',
      'member e-mail': b.member.email,
      'invitee e-mail': b.invitee.email,
      'owner e-mail': s.people.STRANGER.email,
      'owner id': s.people.STRANGER.id,
      'rule id': b.rule.id,
      'role id': b.role.id,
      'card id': b.card.id,
      'invoice id': b.invoice.id,
      'ledger entry id': b.entry.id,
      'activity id': b.act.id,
    })) {
      expect(text, what).not.toContain(value);
    }
    // Four digits alone turn up inside ids by chance ("…-18817d07…"): the card's field is looked
    // for, and found with the organization's own card, so the form looked for is the real one.
    expect(text).toMatch(/"last4":\s*"4242"/);
    expect(text, 'card last 4').not.toMatch(/"last4":\s*"1881"/);
  });

  it('holds no token hash, gateway reference, idempotency key or card number', () => {
    const text = zip.all();
    for (const secret of [
      a.invitationHash,
      a.card.gateway_ref,
      'pm_sandbox',
      'ch_sandbox',
      'idem-secret-key-1',
      'fingerprint-secret-1',
      'token_hash',
      'gateway',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/(?<![\d-])\d{13,19}(?![\d-])/);
  });

  it('gives the other organization its own export, with none of the first', async () => {
    const mail = await t.mailTo(s.people.STRANGER.email);
    const other = openArchive(await s.send('GET', linkIn(mail.text), 'anonymous')).all();
    expect(other).toContain(b.ws.id);
    for (const value of [s.orgId, a.ws.id, a.member.email, s.people.OWNER.email, a.invoice.id])
      expect(other).not.toContain(value);
  });
});
