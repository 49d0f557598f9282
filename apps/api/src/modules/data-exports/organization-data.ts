import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  accessRulePermissions,
  accessRules,
  activities,
  clientMembers,
  clientModules,
  clients,
  customRoleRules,
  customRoles,
  invitations,
  memberCustomRoles,
  memberPermissionOverrides,
  organizationMembers,
  organizations,
  users,
} from '../../db/schema/index.ts';
import { BATCH, jsonLines, keyset, type Cursor } from './batches.ts';
import { writeBilling } from './billing-data.ts';
import type { ZipWriter } from './zip-writer.ts';

/**
 * An organization's data (kind ORGANIZATION): the organization, its workspaces, members and
 * invitations, access rules and custom roles, billing records and activity log. Every query is
 * scoped by the organization's id (a workspace's rows through the organization's workspaces), so
 * no other organization's row can come out. Never written: token hashes, gateway references,
 * idempotency keys; of a card only brand, last 4 and expiry exist at all.
 */

export const ORGANIZATION_README = (brand: string, name: string, at: Date) =>
  `${name}: organization data from ${brand}
${'='.repeat(name.length + brand.length + 25)}

Everything ${brand} holds about the organization "${name}", as of ${at.toISOString()} (UTC).
Times are ISO 8601 in UTC; ids are UUIDs; money is in minor units (cents) with its currency.

organization.json        The organization: name, logo, owner, when it was made.
workspaces.json          Its workspaces with their settings (branding, custom CSS) and modules;
                         deleted ones are marked with deleted_at.
members.json             Its members and the members of its workspaces (user, role, status), and
                         the invitations sent (never their links).
roles-and-rules.json     Access rules with their permissions, custom roles with their ordered
                         rules, the custom roles members hold and their permission overrides.
activities.jsonl         The organization's activity log, one JSON document per line, oldest first.
billing/account.json     The balance.
billing/subscriptions.json  Subscriptions with their plan, period and limits.
billing/invoices.json    Every invoice (numbered), paid or failed, with its lines.
billing/ledger.jsonl     Every movement of the balance, one per line, oldest first.
billing/cards.json       Cards on file: brand, last 4 digits and expiry only (no card number is
                         ever kept).
`;

const person = {
  id: users.id,
  email: users.email,
  first_name: users.first_name,
  last_name: users.last_name,
};

async function workspacesOf(db: Db, orgId: string) {
  const rows = await db
    .select()
    .from(clients)
    .where(eq(clients.organization_id, orgId))
    .orderBy(asc(clients.created_at), asc(clients.id));
  const ids = rows.map((c) => c.id);
  const modules = ids.length
    ? await db
        .select()
        .from(clientModules)
        .where(inArray(clientModules.client_id, ids))
        .orderBy(asc(clientModules.module))
    : [];
  return rows.map((c) => ({
    id: c.id,
    name: c.name,
    logo: c.logo,
    active: c.active,
    owner_id: c.owner_id,
    dashboard_button_color: c.dashboard_button_color,
    account_manager: c.account_manager,
    special_project_manager: c.special_project_manager,
    default_client_header_logo: c.default_client_header_logo,
    custom_css: c.custom_css,
    extra_information: c.extra_information,
    modules: modules
      .filter((m) => m.client_id === c.id)
      .map((m) => ({ module: m.module, enabled: m.enabled })),
    created_at: c.created_at,
    modified_at: c.modified_at,
    deleted_at: c.deleted_at,
  }));
}

/** The organization's workspaces' ids, as a subquery: workspace rows are scoped through it. */
const workspaceIds = (db: Db, orgId: string) =>
  db.select({ id: clients.id }).from(clients).where(eq(clients.organization_id, orgId));

async function membersOf(db: Db, orgId: string) {
  const orgMembers = await db
    .select({ m: organizationMembers, user: person })
    .from(organizationMembers)
    .innerJoin(users, eq(users.id, organizationMembers.user_id))
    .where(eq(organizationMembers.organization_id, orgId))
    .orderBy(asc(organizationMembers.created_at), asc(organizationMembers.id));
  const wsMembers = await db
    .select({ m: clientMembers, user: person })
    .from(clientMembers)
    .innerJoin(users, eq(users.id, clientMembers.user_id))
    .where(inArray(clientMembers.client_id, workspaceIds(db, orgId)))
    .orderBy(asc(clientMembers.client_id), asc(clientMembers.created_at), asc(clientMembers.id));
  const sent = await db
    .select({ i: invitations, email: users.email })
    .from(invitations)
    .innerJoin(users, eq(users.id, invitations.user_id))
    .where(eq(invitations.organization_id, orgId))
    .orderBy(asc(invitations.created_at), asc(invitations.id));
  const membership = (
    m: typeof organizationMembers.$inferSelect | typeof clientMembers.$inferSelect,
  ) => ({
    role: m.role,
    status: m.status,
    invited_by: m.invited_by,
    joined_at: m.created_at,
    last_active_at: m.last_active_at,
  });
  return {
    organization: orgMembers.map(({ m, user }) => ({ user, ...membership(m) })),
    workspaces: wsMembers.map(({ m, user }) => ({
      workspace_id: m.client_id,
      user,
      ...membership(m),
    })),
    invitations: sent.map(({ i, email }) => ({
      id: i.id,
      kind: i.kind,
      workspace_id: i.client_id,
      user: { id: i.user_id, email },
      role: i.role,
      status: i.status,
      invited_by: i.invited_by,
      sent_at: i.created_at,
      expires_at: i.expires_at,
      decided_at: i.decided_at,
    })),
  };
}

async function rolesAndRulesOf(db: Db, orgId: string) {
  const rules = await db
    .select()
    .from(accessRules)
    .where(eq(accessRules.organization_id, orgId))
    .orderBy(asc(accessRules.created_at), asc(accessRules.id));
  const grants = await db
    .select({ g: accessRulePermissions })
    .from(accessRulePermissions)
    .innerJoin(accessRules, eq(accessRules.id, accessRulePermissions.rule_id))
    .where(eq(accessRules.organization_id, orgId))
    .orderBy(asc(accessRulePermissions.permission));
  const roles = await db
    .select()
    .from(customRoles)
    .where(eq(customRoles.organization_id, orgId))
    .orderBy(asc(customRoles.created_at), asc(customRoles.id));
  const roleRules = await db
    .select({ r: customRoleRules })
    .from(customRoleRules)
    .innerJoin(customRoles, eq(customRoles.id, customRoleRules.role_id))
    .where(eq(customRoles.organization_id, orgId))
    .orderBy(asc(customRoleRules.priority));
  const held = await db
    .select()
    .from(memberCustomRoles)
    .where(inArray(memberCustomRoles.client_id, workspaceIds(db, orgId)))
    .orderBy(
      asc(memberCustomRoles.client_id),
      asc(memberCustomRoles.user_id),
      asc(memberCustomRoles.priority),
    );
  const overrides = await db
    .select()
    .from(memberPermissionOverrides)
    .where(inArray(memberPermissionOverrides.client_id, workspaceIds(db, orgId)))
    .orderBy(
      asc(memberPermissionOverrides.client_id),
      asc(memberPermissionOverrides.user_id),
      asc(memberPermissionOverrides.permission),
    );
  const scope = (r: typeof accessRules.$inferSelect | typeof customRoles.$inferSelect) => ({
    id: r.id,
    workspace_id: r.client_id,
    name: r.name,
    description: r.description,
    is_system: r.is_system,
    created_by: r.created_by,
    created_at: r.created_at,
    modified_at: r.modified_at,
    deleted_at: r.deleted_at,
  });
  return {
    access_rules: rules.map((r) => ({
      ...scope(r),
      module: r.module,
      permissions: grants
        .filter(({ g }) => g.rule_id === r.id)
        .map(({ g }) => ({ permission: g.permission, status: g.status })),
    })),
    custom_roles: roles.map((r) => ({
      ...scope(r),
      rules: roleRules
        .filter(({ r: link }) => link.role_id === r.id)
        .map(({ r: link }) => ({ rule_id: link.rule_id, priority: link.priority })),
    })),
    member_custom_roles: held.map((h) => ({
      workspace_id: h.client_id,
      user_id: h.user_id,
      role_id: h.role_id,
      priority: h.priority,
    })),
    member_permission_overrides: overrides.map((o) => ({
      workspace_id: o.client_id,
      user_id: o.user_id,
      permission: o.permission,
      status: o.status,
    })),
  };
}

function activityBatch(db: Db, orgId: string, after: Cursor | null) {
  return db
    .select({ at: sql<string>`${activities.created_at}::text`, id: activities.id, a: activities })
    .from(activities)
    .where(
      and(
        eq(activities.organization_id, orgId),
        after
          ? sql`(${activities.created_at}, ${activities.id}) > (${after.at}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(asc(activities.created_at), asc(activities.id))
    .limit(BATCH);
}

/** Writes the ORGANIZATION archive's files (README.txt first) into `zip`. */
export async function writeOrganizationData(
  db: Db,
  zip: ZipWriter,
  input: { organizationId: string; brand: string; at: Date },
): Promise<void> {
  const orgId = input.organizationId;
  const [org] = await db.select().from(organizations).where(eq(organizations.id, orgId));
  if (!org) throw new Error('the organization of the export is gone');
  await zip.text('README.txt', ORGANIZATION_README(input.brand, org.name, input.at));
  await zip.json('organization.json', {
    id: org.id,
    name: org.name,
    logo: org.logo,
    owner_id: org.owner_id,
    created_at: org.created_at,
    modified_at: org.modified_at,
    deleted_at: org.deleted_at,
  });
  await zip.json('workspaces.json', await workspacesOf(db, orgId));
  await zip.json('members.json', await membersOf(db, orgId));
  await zip.json('roles-and-rules.json', await rolesAndRulesOf(db, orgId));
  await zip.lines(
    'activities.jsonl',
    jsonLines(
      keyset((after) => activityBatch(db, orgId, after)),
      ({ a }) => ({
        id: a.id,
        created_at: a.created_at,
        user_id: a.user_id,
        action: a.action,
        object_type: a.object_type,
        object_id: a.object_id,
        data: a.data,
        deleted_at: a.deleted_at,
      }),
    ),
  );
  await writeBilling(db, zip, orgId);
}
