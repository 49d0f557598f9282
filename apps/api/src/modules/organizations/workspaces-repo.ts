import { and, asc, count, eq, exists, gte, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import {
  APP_PROFILES,
  MODULE_CODES,
  type AppProfile,
  type MembershipStatus,
  type ModuleCode,
  type OrgRole,
  type WorkspaceRole,
} from '@portolan/contract';
import type { Db, Tx } from '../../db/client.ts';
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
  createdAt: Date;
  orgRole: OrgRole;
  orgStatus: MembershipStatus;
  workspaceRole: WorkspaceRole | null;
  /** Every module row of the workspace, in MODULE_CODES order. */
  modules: { module: ModuleCode; enabled: boolean }[];
}

export interface VisibleClientFilter {
  userId: string;
  appProfile: AppProfile;
  /** Only these organizations. */
  organizationIds?: string[];
  /** Only workspaces whose data (itself, a module, the user's memberships) changed at or after. */
  since?: Date;
}

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
    inArray(organizationMembers.role, ['OWNER', 'ADMIN']),
  );
  const member = and(eq(clients.active, true), eq(clientMembers.status, 'MEMBER'));
  const creatorOfPending = and(eq(clients.active, false), eq(clients.owner_id, userId));
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
    filter.organizationIds ? inArray(clients.organization_id, filter.organizationIds) : undefined,
    or(orgAdmin, member, creatorOfPending),
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

/**
 * The visible workspaces with their modules, in one statement: sorted by name (case-insensitive)
 * within their organization (organizations by name too), paged when asked.
 */
export async function listVisibleClients(
  db: Db | Tx,
  filter: VisibleClientFilter,
  page?: { limit: number; offset: number },
): Promise<(VisibleClientRow & { modified: Date })[]> {
  const on = joins(filter.userId);
  const query = db
    .select({
      id: clients.id,
      organizationId: clients.organization_id,
      name: clients.name,
      logo: clients.logo,
      active: clients.active,
      dashboardButtonColor: clients.dashboard_button_color,
      createdAt: clients.created_at,
      orgRole: organizationMembers.role,
      orgStatus: organizationMembers.status,
      workspaceRole: sql<WorkspaceRole | null>`case when ${clientMembers.status} = 'MEMBER' then ${clientMembers.role} end`,
      modules: modulesJson,
      modified: lastChange.mapWith(clients.modified_at),
    })
    .from(clients)
    .innerJoin(organizations, on.organization)
    .innerJoin(organizationMembers, on.orgMember)
    .leftJoin(clientMembers, on.clientMember)
    .where(conditions(db, filter))
    .orderBy(
      sql`lower(${organizations.name})`,
      asc(organizations.id),
      sql`lower(${clients.name})`,
      asc(clients.id),
    )
    .$dynamic();
  const rows = page ? await query.limit(page.limit).offset(page.offset) : await query;
  return rows.map((row) => ({
    ...row,
    orgRole: row.orgRole as OrgRole,
    modules: sortModules(row.modules),
  }));
}
