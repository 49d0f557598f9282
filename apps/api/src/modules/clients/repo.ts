import {
  can,
  effectiveWorkspaceRole,
  MODULE_CODES,
  MODULE_NAMES,
  ROLE_NAMES,
  rolesWith,
  type Client,
  type ClientListQuery,
  type ClientModule,
  type ModuleCode,
  type ModuleState,
  type OrgRole,
  type WorkspaceRole,
} from '@portolan/contract';
import { and, asc, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { workspaceVisibleTo } from '../access/index.ts';
import {
  clientMembers,
  clientModules,
  clients,
  organizationMembers,
} from '../../db/schema/index.ts';
import { windowTotal } from '../../lib/pagination.ts';

export type ClientRow = typeof clients.$inferSelect;
export type ClientModuleRow = typeof clientModules.$inferSelect;
type Conn = Db | Tx;

const moduleOrder = (module: string) => MODULE_CODES.indexOf(module as ModuleCode);
export const byModuleOrder = <T extends { module: string }>(rows: T[]): T[] =>
  [...rows].sort((a, b) => moduleOrder(a.module) - moduleOrder(b.module));

/** A workspace as the API answers it, with the caller's role in it. */
export function toClientDto(
  row: ClientRow,
  modules: readonly { module: string; enabled: boolean }[],
  role: WorkspaceRole | null,
): Client {
  return {
    id: row.id,
    organization: row.organization_id,
    name: row.name,
    logo: row.logo,
    active: row.active,
    role: role && { key: role, name: ROLE_NAMES[role] },
    modules: byModuleOrder(
      modules.map((m) => ({ module: m.module as ModuleCode, enabled: m.enabled })),
    ),
    dashboard_button_color: row.dashboard_button_color,
    created: row.created_at.toISOString(),
  };
}

export const toModuleDto = (row: ClientModuleRow): ClientModule => ({
  id: row.id,
  module: row.module as ModuleCode,
  name: MODULE_NAMES[row.module as ModuleCode] ?? row.module,
  enabled: row.enabled,
});

/** The module rows of one workspace, in the order of MODULE_CODES. */
export async function listModules(db: Conn, clientId: string): Promise<ClientModuleRow[]> {
  const rows = await db.select().from(clientModules).where(eq(clientModules.client_id, clientId));
  return byModuleOrder(rows);
}

/** `%key%` for ILIKE, with the key's own wildcards taken literally. */
export const containing = (key: string) => `%${key.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * One page of an organization's live workspaces as one member sees them, in one query (the
 * total rides along as a window count; a page past the end costs a second, counting query):
 * OWNERs and ADMINs see every one; anyone else the active ones they are a member of and the
 * pending ones they created. Only workspaces with a module of the app profile are listed.
 */
export async function listOrganizationClients(
  db: Conn,
  viewer: { userId: string; organizationId: string; orgRole: OrgRole },
  profileModules: readonly ModuleCode[],
  query: ClientListQuery,
): Promise<{ count: number; results: Client[] }> {
  const orgAdmin = can(viewer, 'organization.clients.manage');
  const conditions: (SQL | undefined)[] = [
    eq(clients.organization_id, viewer.organizationId),
    isNull(clients.deleted_at),
    sql`exists (select 1 from ${clientModules} where ${clientModules.client_id} = ${clients.id}
      and ${inArray(clientModules.module, [...profileModules])})`,
    query.status === 'enabled' ? eq(clients.active, true) : undefined,
    query.status === 'pending' ? eq(clients.active, false) : undefined,
    query.key ? sql`${clients.name} ilike ${containing(query.key)}` : undefined,
    workspaceVisibleTo(viewer.userId, {
      orgAdmin,
      acceptedWorkspaceMember: isNotNull(clientMembers.role),
    }),
  ];
  const where = and(...conditions);
  const rows = await db
    .select({
      client: clients,
      workspaceRole: clientMembers.role,
      modules: sql<ModuleState[]>`coalesce((select json_agg(json_build_object(
        'module', cm.module, 'enabled', cm.enabled)) from ${clientModules} cm
        where cm.client_id = ${clients.id}), '[]'::json)`,
      total: windowTotal,
    })
    .from(clients)
    .leftJoin(
      clientMembers,
      and(
        eq(clientMembers.client_id, clients.id),
        eq(clientMembers.user_id, viewer.userId),
        eq(clientMembers.status, 'MEMBER'),
      ),
    )
    .where(where)
    .orderBy(asc(sql`lower(${clients.name})`), asc(clients.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  let count = rows[0]?.total ?? 0;
  if (rows.length === 0 && query.page > 1) {
    const [row] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(clients)
      .leftJoin(
        clientMembers,
        and(
          eq(clientMembers.client_id, clients.id),
          eq(clientMembers.user_id, viewer.userId),
          eq(clientMembers.status, 'MEMBER'),
        ),
      )
      .where(where);
    count = row?.n ?? 0;
  }
  return {
    count,
    results: rows.map((r) =>
      toClientDto(
        r.client,
        r.modules,
        effectiveWorkspaceRole({
          orgRole: viewer.orgRole,
          workspaceRole: (r.workspaceRole ?? null) as WorkspaceRole | null,
        }),
      ),
    ),
  };
}

/** The organization's accepted OWNERs and ADMINs: who approves a pending workspace. */
export async function organizationApprovers(tx: Tx, organizationId: string): Promise<string[]> {
  const om = organizationMembers;
  const rows = await tx
    .select({ id: om.user_id })
    .from(om)
    .where(
      and(
        eq(om.organization_id, organizationId),
        eq(om.status, 'MEMBER'),
        inArray(om.role, [...rolesWith('organization.clients.manage')]),
      ),
    );
  return rows.map((r) => r.id);
}

/** Postgres' unique_violation, whichever driver reports it. */
export const isUniqueViolation = (err: unknown) =>
  (err as { code?: string }).code === '23505' ||
  (err as { cause?: { code?: string } }).cause?.code === '23505';
