import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { createClient, createInvoice, createOrganization, createUser } from './factories.ts';

/**
 * The data of `npm run bench:scale` (issue 12: the cost of a list grows with its page, not with
 * the table). A world of `organizations` organizations with everything in them (see PER_*), in
 * which one user, SCALE_USER, sees the same amounts whatever the scale: `depth` organizations
 * (OWNER of every fourth, ADMIN, STAFF or CLIENT of the others), and in the first of them, which
 * they own ("Scale Bench HQ"), `depth` workspaces, members, rules, roles, invoices, and so on.
 *
 * One row of each kind is made by the test factories (the user, the organization with its
 * subscription, the workspace with its modules, an invoice); the rest is copied from those rows,
 * or written, by the database itself with `insert … select … from generate_series`: a million
 * activities in seconds rather than hours. Everything happens in one transaction, so a database
 * is either fully seeded or not at all.
 */

export const SCALE_USER = {
  email: 'bench-scale@example.com',
  password: 'Bench scale passphrase 1',
};
export const SCALE_ORGANIZATION = 'Scale Bench HQ';
export const SCALE_WORKSPACE = 'Workspace 000';

/** What each organization holds (the measured one holds `depth` of each instead, if more). */
export const PER_ORGANIZATION = {
  users: 10,
  workspaces: 5,
  activities: 100,
  invitations: 2,
  invoices: 12,
  ledgerEntries: 20,
  accessRules: 3,
  customRoles: 2,
} as const;
export const NOTIFICATIONS_PER_USER = 5;

export interface ScaleShape {
  organizations: number;
  /** How many of each thing the measured user sees (60: three pages of 20). */
  depth: number;
}

/** Release notes are the platform's, not an organization's: a fifth of the organizations, at least `depth`. */
export const releaseNotesOf = (shape: ScaleShape) =>
  Math.max(shape.depth, Math.floor(shape.organizations / 5));

/** The roles of SCALE_USER in the first `depth` organizations, in turn. */
const ROLE_CYCLE = ['OWNER', 'ADMIN', 'STAFF', 'CLIENT'] as const;

const FIRST_NAMES = ['Ada', 'Alan', 'Grace', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken'];

/** A text[] literal of constants of ours (never of input). */
const textArray = (items: readonly string[]) =>
  sql.raw(`array[${items.map((item) => `'${item}'`).join(', ')}]`);

/** How many rows a table holds (what the bench prints, and its test checks). */
export async function countRows(db: Db, table: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(sql`${sql.identifier(table)}`);
  return row?.n ?? 0;
}

function checkShape({ organizations, depth }: ScaleShape) {
  const users = organizations * PER_ORGANIZATION.users;
  // The measured organization's extra members are users 10 … 10 + depth − 1; the people it
  // invites (of organization organizations / 2) must not be among them.
  const firstInvitee = Math.floor(organizations / 2) * PER_ORGANIZATION.users + 8;
  if (depth < 4 || organizations < depth || firstInvitee < 10 + depth || users < 10 + depth) {
    throw new Error(`a scale of ${organizations} organizations cannot show ${depth} of each`);
  }
}

export async function seedScale(
  db: Db,
  shape: ScaleShape,
): Promise<{ email: string; password: string }> {
  checkShape(shape);
  await db.transaction(async (tx) => {
    // A million rows take longer than the server's statement timeout; nothing waits on this
    // transaction's commit but the bench.
    await tx.execute(sql`set local statement_timeout = 0`);
    await tx.execute(sql`set local synchronous_commit = off`);
    const templates = await makeTemplates(tx);
    await bulk(tx, shape, templates);
  });
  return SCALE_USER;
}

interface Templates {
  user: string;
  organization: string;
  workspace: string;
}

/** The rows the factories make: SCALE_USER, their organization and its first workspace. */
async function makeTemplates(tx: Tx): Promise<Templates> {
  const user = await createUser(tx, {
    ...SCALE_USER,
    first_name: 'Scale',
    last_name: 'Bench',
    can_create_client: true,
  });
  const organization = await createOrganization(tx, {
    ownerId: user.id,
    name: SCALE_ORGANIZATION,
  });
  const workspace = await createClient(tx, {
    organizationId: organization.id,
    ownerId: user.id,
    name: SCALE_WORKSPACE,
  });
  await createInvoice(tx, {
    organizationId: organization.id,
    subscriptionId: null,
    amount: 4900,
    description: 'Custom plan, 1 month',
  });
  return { user: user.id, organization: organization.id, workspace: workspace.id };
}

/** The statements that copy the templates at scale, in order (later ones read earlier ones). */
async function bulk(tx: Tx, shape: ScaleShape, t: Templates) {
  const O = shape.organizations;
  const D = shape.depth;
  const P = PER_ORGANIZATION;
  const M = sql`${t.user}::uuid`;
  const HQ = sql`${t.organization}::uuid`;
  const W0 = sql`${t.workspace}::uuid`;
  const run = (q: SQL) => tx.execute(q);
  // Temporary tables get no statistics of their own (autovacuum never sees them): each is
  // analyzed once filled, or the joins on them are planned as if they held a row or two.
  /** How many of a kind organization `i` holds: the measured one (i = 0) at least `depth`. */
  const perOrg = (n: number) =>
    sql`(case when o.i = 0 then ${Math.max(n, D)}::int else ${n}::int end)`;

  // ---- who is who: numbered stand-ins for the ids, joined on by every statement below --------
  await run(sql`create temp table s_users (k int primary key, id uuid not null) on commit drop`);
  await run(sql`insert into s_users select k, gen_random_uuid()
    from generate_series(0, ${O * P.users - 1}::int) k`);
  await run(sql`analyze s_users`);
  await run(sql`create temp table s_orgs (i int primary key, id uuid not null, owner_id uuid not null,
    m_role text) on commit drop`);
  // SCALE_USER is in the first `depth` organizations: the owner of every fourth, where the
  // organization's own first user is then an ADMIN.
  await run(sql`insert into s_orgs
    select i, case when i = 0 then ${HQ} else gen_random_uuid() end,
           case when i < ${D}::int and i % 4 = 0 then ${M} else u.id end,
           case when i < ${D}::int then (${textArray(ROLE_CYCLE)})[1 + i % ${ROLE_CYCLE.length}::int] end
    from generate_series(0, ${O - 1}::int) i join s_users u on u.k = i * ${P.users}::int`);
  await run(sql`analyze s_orgs`);
  await run(sql`create temp table s_clients (i int, j int, id uuid not null, organization_id uuid not null,
    owner_id uuid not null, primary key (i, j)) on commit drop`);
  await run(sql`insert into s_clients
    select o.i, j, case when o.i = 0 and j = 0 then ${W0} else gen_random_uuid() end, o.id, o.owner_id
    from s_orgs o cross join lateral generate_series(0, ${perOrg(P.workspaces)} - 1) j`);
  await run(sql`analyze s_clients`);

  // ---- users, organizations, memberships ------------------------------------------------------
  await run(sql`insert into users (id, email, password_hash, first_name, last_name, phone,
      can_create_client, email_verified_at, created_at, modified_at)
    select s.id, 'user' || lpad(s.k::text, 6, '0') || '@scale.example.com', t.password_hash,
      (${textArray(FIRST_NAMES)})[1 + s.k % ${FIRST_NAMES.length}::int],
      'User ' || s.k, t.phone, s.k % 3 = 0, t.email_verified_at,
      t.created_at - make_interval(secs => s.k), t.modified_at
    from s_users s, users t where t.id = ${M}`);
  await run(sql`insert into organizations (id, name, logo, owner_id, created_at, modified_at)
    select o.id, case when o.i % 3 = 0 then 'organization ' else 'Organization ' end
        || lpad(o.i::text, 5, '0'), t.logo, o.owner_id,
      t.created_at - make_interval(mins => o.i), t.modified_at
    from s_orgs o, organizations t where t.id = ${HQ} and o.i > 0`);
  // Each organization's own ten: OWNER (ADMIN where SCALE_USER owns it), ADMIN, six STAFF, two CLIENT.
  await run(sql`insert into organization_members (organization_id, user_id, role, status, created_at)
    select o.i_id, u.id,
      case r when 0 then case when o.m_role = 'OWNER' then 'ADMIN' else 'OWNER' end
             when 1 then 'ADMIN' when 8 then 'CLIENT' when 9 then 'CLIENT' else 'STAFF' end,
      'MEMBER', now() - make_interval(mins => o.i)
    from (select i, id as i_id, m_role from s_orgs) o
      cross join generate_series(0, ${P.users - 1}::int) r
      join s_users u on u.k = o.i * ${P.users}::int + r`);
  await run(sql`insert into organization_members (organization_id, user_id, role, status)
    select o.id, ${M}, o.m_role, 'MEMBER' from s_orgs o where o.i > 0 and o.m_role is not null`);
  // The measured organization has `depth` more STAFF: people of other organizations.
  await run(sql`insert into organization_members (organization_id, user_id, role, status)
    select ${HQ}, u.id, 'STAFF', 'MEMBER' from s_users u
    where u.k >= ${P.users}::int and u.k < ${P.users + D}::int`);

  // ---- workspaces, their modules and members --------------------------------------------------
  // The last workspace of every fifth organization waits for approval.
  await run(sql`insert into clients (id, organization_id, name, active, owner_id,
      dashboard_button_color, custom_css, extra_information, created_at, modified_at)
    select c.id, c.organization_id, 'Workspace ' || lpad(c.j::text, 3, '0'),
      not (c.j = ${P.workspaces - 1}::int and c.i % 5 = 0), c.owner_id,
      t.dashboard_button_color, t.custom_css, t.extra_information, t.created_at, t.modified_at
    from s_clients c, clients t where t.id = ${W0} and c.id <> ${W0}`);
  await run(sql`insert into client_modules (client_id, module, enabled)
    select c.id, t.module, t.enabled from s_clients c, client_modules t
    where t.client_id = ${W0} and c.id <> ${W0}`);
  // Per workspace: its owner (OWNER), one of the six STAFF and one of the two CLIENT.
  await run(sql`insert into client_members (client_id, user_id, role, status)
    select c.id, c.owner_id, 'OWNER', 'MEMBER' from s_clients c where c.id <> ${W0}
    union all
    select c.id, u.id, 'STAFF', 'MEMBER' from s_clients c
      join s_users u on u.k = c.i * ${P.users}::int + 2 + c.j % 6
    union all
    select c.id, u.id, 'CLIENT', 'MEMBER' from s_clients c
      join s_users u on u.k = c.i * ${P.users}::int + 8 + c.j % 2`);
  // SCALE_USER as STAFF or CLIENT belongs to every workspace but the first (as in seed/bench.ts).
  await run(sql`insert into client_members (client_id, user_id, role, status)
    select c.id, ${M}, o.m_role, 'MEMBER' from s_clients c join s_orgs o on o.i = c.i
    where o.m_role in ('STAFF', 'CLIENT') and c.j > 0`);
  await run(sql`insert into client_members (client_id, user_id, role, status)
    select ${W0}, u.id, 'STAFF', 'MEMBER' from s_users u
    where u.k >= ${P.users}::int and u.k < ${P.users + D}::int`);

  // ---- billing: subscriptions, invoices, the wallet -------------------------------------------
  await run(sql`insert into subscriptions (organization_id, app_profile, plan_id, status, is_active,
      amount, currency, current_period_start, expired_in, subscriber_id, limits)
    select o.id, t.app_profile, t.plan_id, t.status, t.is_active, t.amount, t.currency,
      t.current_period_start, t.expired_in, o.owner_id, t.limits
    from s_orgs o, subscriptions t where t.organization_id = ${HQ} and o.i > 0`);
  // Invoice 1 of the measured organization is the factory's; every other is copied from it.
  await run(sql`insert into invoices (organization_id, subscription_id, number, kind, status, amount,
      currency, description, lines, gateway_ref, created_at, modified_at)
    select o.id, s.id, n, t.kind, t.status, t.amount, t.currency, t.description, t.lines,
      'ch_scale_' || md5(o.id::text || n), now() - make_interval(days => 30 * (${perOrg(P.invoices)} - n)),
      now()
    from (select i, id from s_orgs) o
      cross join lateral generate_series(case when o.i = 0 then 2 else 1 end, ${perOrg(P.invoices)}) n
      join subscriptions s on s.organization_id = o.id
      cross join (select * from invoices where organization_id = ${HQ} and number = 1) t`);
  // A top-up of 50.00 then four charges of 2.00, over and over: never below zero.
  const topUps = sql`((n + 4) / 5)`;
  const balanceAfter = sql`(5000 * ${topUps} - 200 * (n - ${topUps}))`;
  await run(sql`insert into ledger_entries (organization_id, type, amount, balance_after, description,
      reference, service_id, quantity, unit_price, source, created_by, created_at)
    select o.id, case when n % 5 = 1 then 'top-up' else 'charge' end,
      case when n % 5 = 1 then 5000 else -200 end, ${balanceAfter},
      case when n % 5 = 1 then 'Top-up' else 'Shipping labels' end,
      case when n % 5 = 1 then 'INV-' || n else 'batch-' || n end,
      case when n % 5 = 1 then null else svc.id end,
      case when n % 5 = 1 then null else 4 end, case when n % 5 = 1 then null else 50 end,
      case when n % 5 = 1 then 'payment' else 'member' end, o.owner_id,
      now() - make_interval(hours => ${perOrg(P.ledgerEntries)} - n)
    from (select i, id, owner_id from s_orgs) o
      cross join lateral generate_series(1, ${perOrg(P.ledgerEntries)}) n
      cross join (select id from balance_services where app_profile = 'transit'
                  order by sort_order limit 1) svc`);
  await run(sql`update billing_accounts set next_invoice_number = ${Math.max(P.invoices, D) + 1}::int
    where organization_id = ${HQ}`);
  await run(sql`insert into billing_accounts (organization_id, available_balance, next_invoice_number)
    select o.id, 0, ${P.invoices + 1}::int from s_orgs o where o.i > 0`);
  await run(sql`update billing_accounts b set available_balance = l.balance_after
    from (select distinct on (organization_id) organization_id, balance_after from ledger_entries
          order by organization_id, created_at desc) l
    where l.organization_id = b.organization_id`);

  // ---- invitations and notifications ----------------------------------------------------------
  // Each organization invites two CLIENTs of the organization half-way round: an open invitation,
  // its PENDING membership and the invitee's INVITATION notification.
  await run(sql`create temp table s_invitations (id uuid primary key, organization_id uuid,
    user_id uuid, invited_by uuid) on commit drop`);
  await run(sql`insert into s_invitations
    select gen_random_uuid(), o.id, u.id, o.owner_id
    from s_orgs o cross join generate_series(8, ${8 + P.invitations - 1}::int) r
      join s_users u on u.k = ((o.i + ${Math.floor(O / 2)}::int) % ${O}::int) * ${P.users}::int + r`);
  await run(sql`analyze s_invitations`);
  await run(sql`insert into invitations (id, kind, organization_id, user_id, role, token_hash, status,
      invited_by, expires_at)
    select id, 'organization', organization_id, user_id, 'STAFF', md5(id::text) || md5(user_id::text),
      'PENDING', invited_by, now() + interval '7 days' from s_invitations`);
  await run(sql`insert into organization_members (organization_id, user_id, role, status, invited_by)
    select organization_id, user_id, 'STAFF', 'PENDING', invited_by from s_invitations`);
  await run(sql`insert into notifications (type, recipient_id, author_id, organization_id,
      invitation_id, meta)
    select 'INVITATION', user_id, invited_by, organization_id, id,
      jsonb_build_object('invitation_token', md5(id::text), 'type', 'organization',
        'id', organization_id)
    from s_invitations`);
  // Warnings: five per person (the first three seen), twice `depth` for SCALE_USER.
  await run(sql`insert into notifications (type, recipient_id, organization_id, is_seen, status,
      extra_message, created_at, modified_at)
    select 'WARNING', u.id, o.id, n < 3, 'DONE', 'Your plan renews in ' || (n + 1) || ' days.',
      now() - make_interval(days => n, secs => u.k), now()
    from s_users u join s_orgs o on o.i = u.k / ${P.users}::int
      cross join generate_series(0, ${NOTIFICATIONS_PER_USER - 1}::int) n
    union all
    select 'WARNING', ${M}, ${HQ}, n % 3 <> 0, 'DONE', 'Your plan renews in ' || (n + 1) || ' days.',
      now() - make_interval(hours => n), now()
    from generate_series(0, ${2 * D - 1}::int) n`);

  // ---- activities: a hundred per organization, a million at full scale ------------------------
  // The first ten are each member's first visit of a workspace (one per person and workspace:
  // a unique index says so); then sign-ins, updates and invitations.
  await run(sql`insert into activities (user_id, action, object_type, object_id, organization_id,
      data, created_at, modified_at)
    select u.id,
      case when n < 10 then 'ACCESS_WORKSPACE'
           else (array['SIGN_IN','UPDATE_WORKSPACE','ADD_MEMBER','DOWNLOAD_REPORT'])[1 + n % 4] end,
      'client', c.id, c.organization_id,
      jsonb_build_object('app_profile', 'transit', 'client_id', c.id,
        'client_name', 'Workspace ' || lpad(c.j::text, 3, '0'), 'module', 'TR'),
      now() - make_interval(mins => 7 * n + c.i % 7), now()
    from generate_series(0, ${P.activities - 1}::int) n
      join s_clients c on c.j = n % ${P.workspaces}::int
      join s_users u on u.k = c.i * ${P.users}::int + n % 10`);

  // ---- access rules and custom roles ----------------------------------------------------------
  await run(sql`create temp table s_rules (id uuid primary key, organization_id uuid, client_id uuid,
    n int, of_org int) on commit drop`);
  await run(sql`insert into s_rules
    select gen_random_uuid(), o.id, null, n, ${perOrg(P.accessRules)} from s_orgs o
      cross join lateral generate_series(0, ${perOrg(P.accessRules)} - 1) n
    union all
    select gen_random_uuid(), ${HQ}, ${W0}, n, ${D}::int from generate_series(0, ${D - 1}::int) n`);
  await run(sql`analyze s_rules`);
  await run(sql`insert into access_rules (id, organization_id, client_id, name, description, module,
      created_by)
    select r.id, r.organization_id, r.client_id,
      case when r.client_id is null then 'Rule ' else 'Workspace rule ' end || lpad(r.n::text, 3, '0'),
      'Made by the scale bench', case when r.n % 2 = 0 then 'TR' end, o.owner_id
    from s_rules r join s_orgs o on o.id = r.organization_id`);
  await run(sql`insert into access_rule_permissions (rule_id, permission, status)
    select r.id, p.permission, p.status from s_rules r cross join (values
      ('tr.history.view', 'ALLOW'), ('tr.settings.update', 'DENY'), ('tr.fnsku.print', 'ALLOW')) p(permission, status)`);
  await run(sql`create temp table s_roles (id uuid primary key, organization_id uuid, client_id uuid,
    n int) on commit drop`);
  await run(sql`insert into s_roles
    select gen_random_uuid(), o.id, null, n from s_orgs o
      cross join lateral generate_series(0, ${perOrg(P.customRoles)} - 1) n
    union all
    select gen_random_uuid(), ${HQ}, ${W0}, n from generate_series(0, ${D - 1}::int) n`);
  await run(sql`analyze s_roles`);
  await run(sql`insert into custom_roles (id, organization_id, client_id, name, description, created_by)
    select r.id, r.organization_id, r.client_id,
      case when r.client_id is null then 'Role ' else 'Workspace role ' end || lpad(r.n::text, 3, '0'),
      'Made by the scale bench', o.owner_id
    from s_roles r join s_orgs o on o.id = r.organization_id`);
  // Each role: two of its organization's rules, in order.
  await run(sql`insert into custom_role_rules (role_id, rule_id, priority)
    select ro.id, ru.id, p from s_roles ro cross join generate_series(1, 2) p
      join s_rules ru on ru.organization_id = ro.organization_id and ru.client_id is null
        and ru.n = (ro.n + p - 1) % ru.of_org`);

  // ---- share links, data exports, release notes -----------------------------------------------
  await run(sql`insert into share_links (client_id, module, token_hash, created_by, created_at)
    select c.id, 'TR', md5(c.id::text) || md5('share'), c.owner_id, now() - interval '1 day'
    from s_clients c
    union all
    select ${W0}, 'TR', md5(n::text) || md5(${W0}::text), ${M}, now() - make_interval(hours => n)
    from generate_series(1, ${D}::int) n`);
  // Finished exports whose archives are gone (the sweep's state a day later): nothing for the
  // export job or the sweep to do while the bench runs.
  const finished = sql`'READY', 'portolan-export.zip', 123456, now() - make_interval(days => n + 2),
    now() - make_interval(days => n + 1)`;
  await run(sql`insert into data_exports (kind, user_id, organization_id, status, file_name,
      size_bytes, completed_at, expires_at, created_at)
    select 'USER', u.id, null, ${finished}, now() - make_interval(days => n + 2)
    from s_users u cross join (values (0)) v(n) where u.k % ${P.users}::int = 1
    union all
    select 'ORGANIZATION', o.owner_id, o.id, ${finished}, now() - make_interval(days => n + 2)
    from s_orgs o cross join (values (0)) v(n) where o.i > 0
    union all
    select 'USER', ${M}, null, ${finished}, now() - make_interval(days => n + 2)
    from generate_series(0, ${D - 1}::int) n
    union all
    select 'ORGANIZATION', ${M}, ${HQ}, ${finished}, now() - make_interval(days => n + 2)
    from generate_series(0, ${D - 1}::int) n`);
  await run(sql`insert into release_notes (version, release_date, release_note)
    select '1.' || n || '.0', (current_date - n)::date,
      '<p>Release ' || n || ': faster lists and fewer clicks.</p>'
    from generate_series(1, ${releaseNotesOf(shape)}::int) n`);
}
