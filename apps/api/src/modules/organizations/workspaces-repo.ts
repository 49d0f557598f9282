import {
  and,
  asc,
  count,
  eq,
  exists,
  gte,
  inArray,
  isNull,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import {
  APP_PROFILES,
  MODULE_CODES,
  rolesWith,
  type AppProfile,
  type MembershipStatus,
  type ModuleCode,
  type OrgRole,
  type WorkspaceRole,
} from '@portolan/contract';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import { workspaceVisibleTo } from '../access/index.ts';
import {
  clientMembers,
  clientModules,
  clients,
  organizationMembers,
  organizations,
} from '../../db/schema/index.ts';

/**
 * The workspaces a user sees in their lists (REFERENCE "Who may do what"), in SQL so that every
 * list is one statement whatever its size:
 * - an accepted OWNER or ADMIN of the organization sees every live workspace of it, active or
 *   waiting for approval;
 * - anyone else in the organization (even with an invitation still pending) sees the active
 *   workspaces they are an accepted member of, and the pending ones they created;
 * - only workspaces with a module of the active app profile are listed.
 */
export interface VisibleClientRow {
  id: string;
  organizationId: string;
  name: string;
  logo: string | null;
  active: boolean;
  dashboardButtonColor: string;
  orgRole: OrgRole;
  orgStatus: MembershipStatus;
  workspaceRole: WorkspaceRole | null;
  /** Every module row of the workspace, in MODULE_CODES order. */
  modules: { module: ModuleCode; enabled: boolean }[];
}

export interface VisibleClientFilter {
  userId: string;
  appProfile: AppProfile;
  /** Only the organizations this subquery selects (by id). */
  organizations?: SQLWrapper;
  /** Only workspaces whose data (itself, a module, the user's memberships) changed at or after. */
  since?: Date;
}

/**
 * `column = any($1::uuid[])` with the ids as one array parameter: Drizzle's inArray makes one
 * parameter per value, and building that statement costs more than running it for thousands.
 */
const anyUuid = (column: AnyPgColumn, ids: string[]) =>
  sql`${column} = any(${sql.param(ids)}::uuid[])`;

/** The latest change of a workspace's data as the user sees it: for all-settings-data. */
const lastChange = sql<Date>`greatest(
  ${clients.modified_at},
  ${organizationMembers.modified_at},
  ${clientMembers.modified_at},
  (select max(${clientModules.modified_at}) from ${clientModules} where ${clientModules.client_id} = ${clients.id})
)`;

function conditions(db: Db | Tx, filter: VisibleClientFilter): SQL {
  const { userId } = filter;
  const orgAdmin = and(
    eq(organizationMembers.status, 'MEMBER'),
    inArray(organizationMembers.role, [...rolesWith('organization.clients.manage')]),
  );
  const hasProfileModule = exists(
    db
      .select({ one: sql`1` })
      .from(clientModules)
      .where(
        and(
          eq(clientModules.client_id, clients.id),
          inArray(clientModules.module, APP_PROFILES[filter.appProfile]),
        ),
      ),
  );
  return and(
    isNull(clients.deleted_at),
    filter.organizations ? inArray(clients.organization_id, filter.organizations) : undefined,
    workspaceVisibleTo(userId, {
      orgAdmin: orgAdmin!,
      acceptedWorkspaceMember: eq(clientMembers.status, 'MEMBER'),
    }),
    hasProfileModule,
    filter.since ? gte(lastChange, filter.since) : undefined,
  )!;
}

/** The joins of every list: the live organization and the user's memberships of both. */
const joins = (userId: string) => ({
  organization: and(
    eq(organizations.id, clients.organization_id),
    isNull(organizations.deleted_at),
  ),
  orgMember: and(
    eq(organizationMembers.organization_id, clients.organization_id),
    eq(organizationMembers.user_id, userId),
  ),
  clientMember: and(eq(clientMembers.client_id, clients.id), eq(clientMembers.user_id, userId)),
});

const modulesJson = sql<{ module: string; enabled: boolean }[] | null>`(
  select json_agg(json_build_object('module', ${clientModules.module}, 'enabled', ${clientModules.enabled}))
  from ${clientModules}
  where ${clientModules.client_id} = ${clients.id} and ${inArray(clientModules.module, MODULE_CODES)}
)`;

const MODULE_ORDER = new Map<string, number>(MODULE_CODES.map((code, i) => [code, i]));
const byModuleOrder = (a: { module: string }, b: { module: string }) =>
  MODULE_ORDER.get(a.module)! - MODULE_ORDER.get(b.module)!;
const sortModules = (modules: { module: string; enabled: boolean }[] | null) =>
  ((modules ?? []) as { module: ModuleCode; enabled: boolean }[]).sort(byModuleOrder);

/** How many workspaces the filter lets through, and the database's time as it counted. */
export async function countVisibleClients(
  db: Db | Tx,
  filter: VisibleClientFilter,
): Promise<{ count: number; now: Date }> {
  const on = joins(filter.userId);
  const [row] = await db
    .select({
      n: count(),
      now: sql<Date>`statement_timestamp()`.mapWith(clients.modified_at),
    })
    .from(clients)
    .innerJoin(organizations, on.organization)
    .innerJoin(organizationMembers, on.orgMember)
    .leftJoin(clientMembers, on.clientMember)
    .where(conditions(db, filter));
  return { count: row?.n ?? 0, now: row!.now };
}

/**
 * A user's standing in one workspace, as another member sees it: their accepted memberships of
 * the workspace and of its organization, and the workspace's modules. One statement.
 */
export async function loadMemberSettings(db: Db | Tx, clientId: string, userId: string) {
  const [row] = await db
    .select({
      name: clients.name,
      orgRole: sql<OrgRole | null>`case when ${organizationMembers.status} = 'MEMBER' then ${organizationMembers.role} end`,
      workspaceRole: sql<WorkspaceRole | null>`case when ${clientMembers.status} = 'MEMBER' then ${clientMembers.role} end`,
      modules: modulesJson,
    })
    .from(clients)
    .leftJoin(
      organizationMembers,
      and(
        eq(organizationMembers.organization_id, clients.organization_id),
        eq(organizationMembers.user_id, userId),
      ),
    )
    .leftJoin(
      clientMembers,
      and(eq(clientMembers.client_id, clients.id), eq(clientMembers.user_id, userId)),
    )
    .where(and(eq(clients.id, clientId), isNull(clients.deleted_at)))
    .limit(1);
  return row && { ...row, modules: sortModules(row.modules) };
}

type Page = { limit: number; offset: number };
type Timed<T> = T & { createdAt: Date; modified: Date };

/**
 * The visible workspaces with their modules, in two statements whatever their number: the
 * workspaces (sorted by name, case-insensitively, within their organization, organizations by name
 * too; paged when asked) and their modules (at the same time when whole organizations are asked
 * for, else after the page is known). Plain columns, arrays as one parameter, and
 * no times unless asked: what is left is the database's own work (Drizzle's mapping of many rows,
 * per-value parameters and dates cost more than the queries), and aggregating modules per
 * workspace in SQL costs more than a second round trip.
 */
export function listVisibleClients(
  db: Db | Tx,
  filter: VisibleClientFilter,
  page?: Page,
): Promise<VisibleClientRow[]> {
  return loadVisibleClients(db, filter, page, false);
}

/** The same with each workspace's creation time and the latest change of its data. */
export function listVisibleClientsWithTimes(
  db: Db | Tx,
  filter: VisibleClientFilter,
  page?: Page,
): Promise<Timed<VisibleClientRow>[]> {
  return loadVisibleClients(db, filter, page, true) as Promise<Timed<VisibleClientRow>[]>;
}

async function loadVisibleClients(
  db: Db | Tx,
  filter: VisibleClientFilter,
  page: Page | undefined,
  withTimes: boolean,
) {
  const on = joins(filter.userId);
  const time = (column: AnyPgColumn): SQL<Date | null> =>
    withTimes ? (sql`${column}`.mapWith(column) as SQL<Date>) : sql<null>`null`;
  const query = db
    .select({
      id: clients.id,
      organizationId: clients.organization_id,
      name: clients.name,
      logo: clients.logo,
      active: clients.active,
      dashboardButtonColor: clients.dashboard_button_color,
      orgRole: organizationMembers.role,
      orgStatus: organizationMembers.status,
      memberRole: clientMembers.role,
      memberStatus: clientMembers.status,
      createdAt: time(clients.created_at),
      modifiedAt: time(clients.modified_at),
      orgModifiedAt: time(organizationMembers.modified_at),
      memberModifiedAt: time(clientMembers.modified_at),
    })
    .from(clients)
    .innerJoin(organizations, on.organization)
    .innerJoin(organizationMembers, on.orgMember)
    .leftJoin(clientMembers, on.clientMember)
    .where(conditions(db, filter))
    .orderBy(
      sql`lower(${organizations.name})`,
      asc(clients.organization_id),
      sql`lower(${clients.name})`,
      asc(clients.id),
    )
    .$dynamic();
  const modulesOf = (listed: SQL | undefined) =>
    db
      .select({
        clientId: clientModules.client_id,
        module: clientModules.module,
        enabled: clientModules.enabled,
        modifiedAt: time(clientModules.modified_at),
      })
      .from(clientModules)
      .innerJoin(clients, eq(clients.id, clientModules.client_id))
      .where(and(listed, inArray(clientModules.module, MODULE_CODES)));

  // All the workspaces of some organizations: their modules are read at the same time (the few
  // of workspaces not shown are skipped below). A page: the modules of the workspaces on it.
  const [rows, modules] =
    filter.organizations && !page
      ? await Promise.all([
          query,
          modulesOf(
            and(inArray(clients.organization_id, filter.organizations), isNull(clients.deleted_at)),
          ),
        ])
      : await (page ? query.limit(page.limit).offset(page.offset) : query).then(
          async (listed) =>
            [
              listed,
              await modulesOf(
                anyUuid(
                  clientModules.client_id,
                  listed.map((row) => row.id),
                ),
              ),
            ] as const,
        );

  const byClient = new Map<
    string,
    VisibleClientRow & { createdAt: Date | null; modified: Date | null }
  >();
  const result = rows.map((row) => {
    const client = {
      id: row.id,
      organizationId: row.organizationId,
      name: row.name,
      logo: row.logo,
      active: row.active,
      dashboardButtonColor: row.dashboardButtonColor,
      orgRole: row.orgRole as OrgRole,
      orgStatus: row.orgStatus,
      workspaceRole: row.memberStatus === 'MEMBER' ? row.memberRole : null,
      modules: [] as VisibleClientRow['modules'],
      createdAt: row.createdAt,
      modified: withTimes ? latest(row.modifiedAt, row.orgModifiedAt, row.memberModifiedAt) : null,
    };
    byClient.set(row.id, client);
    return client;
  });
  for (const m of modules) {
    const client = byClient.get(m.clientId);
    if (!client) continue;
    client.modules.push({ module: m.module as ModuleCode, enabled: m.enabled });
    if (m.modifiedAt && client.modified && m.modifiedAt > client.modified)
      client.modified = m.modifiedAt;
  }
  for (const client of result) client.modules.sort(byModuleOrder);
  return result;
}

const latest = (...dates: (Date | null)[]) =>
  dates.reduce<Date>((a, b) => (b && b > a ? b : a), new Date(0));
