import {
  ROLE_NAMES,
  ROLES,
  type ClientMember,
  type MemberUser,
  type MembershipStatus,
  type OrgMember,
  type OrgRole,
  type Role,
} from '@portolan/contract';
import { and, asc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  clientMembers,
  clients,
  organizationMembers,
  userActivity,
  users,
} from '../../db/schema/index.ts';
import { windowTotal } from '../../lib/pagination.ts';

/** Reading members: the two lists, one member, and their answers' shape. */

type Conn = Db | Tx;
type OrgMemberRow = typeof organizationMembers.$inferSelect;
type ClientMemberRow = typeof clientMembers.$inferSelect;

export interface Page {
  limit: number;
  offset: number;
}
/** One member is asked for as a page of one. */
export const ONE: Page = { limit: 1, offset: 0 };

const roleRef = (role: Role) => ({ key: role, name: ROLE_NAMES[role] });

const userColumns = {
  id: users.id,
  email: users.email,
  first_name: users.first_name,
  last_name: users.last_name,
  avatar: users.avatar,
};

/** Most powerful role first (the order of ROLES), then by e-mail: the order of both lists. */
const byRoleThenEmail = (role: typeof organizationMembers.role | typeof clientMembers.role) => [
  asc(sql`array_position(${sql.raw(`array[${ROLES.map((r) => `'${r}'`).join(', ')}]`)}, ${role})`),
  asc(sql`lower(${users.email})`),
  asc(users.id),
];

/** `%key%` for ILIKE, the key's own wildcards taken literally. */
const containing = (key: string) => `%${key.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The key found in the e-mail, the first or last name, or the full name. */
export function userMatches(key: string | undefined): SQL | undefined {
  if (!key) return undefined;
  const pattern = containing(key);
  return or(
    sql`${users.email} ilike ${pattern}`,
    sql`(${users.first_name} || ' ' || ${users.last_name}) ilike ${pattern}`,
  );
}

/** When the member last made a signed-in request (users/last-active.ts), or null if never. */
const lastActive = sql<Date | null>`(select ${userActivity.last_active_at} from ${userActivity}
    where ${userActivity.user_id} = ${users.id})`.mapWith(userActivity.last_active_at);

function membershipFields(
  row: OrgMemberRow | ClientMemberRow,
  user: MemberUser,
  lastActiveAt: Date | null,
): Omit<OrgMember, 'client_count'> {
  return {
    id: row.id,
    user,
    role: roleRef(row.role),
    status: row.status,
    last_active_at: (lastActiveAt ?? row.last_active_at)?.toISOString() ?? null,
    created: row.created_at.toISOString(),
  };
}

/** How many live workspaces of the organization the person belongs to (pending memberships too). */
const workspaceCount = (organizationId: SQL | string, userId: SQL | typeof users.id) =>
  sql<number>`(select count(*) from ${clientMembers}
    join ${clients} on ${clients.id} = ${clientMembers.client_id} and ${clients.deleted_at} is null
    where ${clients.organization_id} = ${organizationId}
      and ${clientMembers.user_id} = ${userId})`.mapWith(Number);

/**
 * A page of an organization's members (pending ones included; accounts deleted left out), by role
 * then e-mail, in one query: the total rides along as a window count, and only a page past the
 * end costs a second, counting query.
 */
export async function listOrgMembers(
  db: Conn,
  organizationId: string,
  filter: { roles?: readonly OrgRole[]; key?: string; userId?: string },
  page: Page,
): Promise<{ count: number; results: OrgMember[] }> {
  const where = and(
    eq(organizationMembers.organization_id, organizationId),
    filter.roles ? inArray(organizationMembers.role, [...filter.roles]) : undefined,
    filter.userId ? eq(organizationMembers.user_id, filter.userId) : undefined,
    userMatches(filter.key),
  );
  const from = () =>
    db
      .select({
        membership: organizationMembers,
        user: userColumns,
        lastActive,
        clientCount: workspaceCount(
          sql`${organizationMembers.organization_id}`,
          sql`${organizationMembers.user_id}`,
        ),
        total: windowTotal,
      })
      .from(organizationMembers)
      .innerJoin(users, and(eq(users.id, organizationMembers.user_id), isNull(users.deleted_at)));
  const rows = await from()
    .where(where)
    .orderBy(...byRoleThenEmail(organizationMembers.role))
    .limit(page.limit)
    .offset(page.offset);
  const count =
    rows[0]?.total ?? (page.offset > 0 ? await countMembers(db, organizationMembers, where) : 0);
  return {
    count,
    results: rows.map((r) => ({
      ...membershipFields(r.membership, r.user, r.lastActive),
      client_count: r.clientCount,
    })),
  };
}

/**
 * A page of a workspace's members (pending ones included), with each one's role in the
 * workspace's organization, by workspace role then e-mail; counted as the organization's list is.
 */
export async function listClientMembers(
  db: Conn,
  client: { id: string; organization_id: string },
  filter: { key?: string; userId?: string },
  page: Page,
): Promise<{ count: number; results: ClientMember[] }> {
  const where = and(
    eq(clientMembers.client_id, client.id),
    filter.userId ? eq(clientMembers.user_id, filter.userId) : undefined,
    userMatches(filter.key),
  );
  const rows = await db
    .select({
      membership: clientMembers,
      user: userColumns,
      lastActive,
      orgRole: organizationMembers.role,
      total: windowTotal,
    })
    .from(clientMembers)
    .innerJoin(users, and(eq(users.id, clientMembers.user_id), isNull(users.deleted_at)))
    .leftJoin(
      organizationMembers,
      and(
        eq(organizationMembers.organization_id, client.organization_id),
        eq(organizationMembers.user_id, clientMembers.user_id),
      ),
    )
    .where(where)
    .orderBy(...byRoleThenEmail(clientMembers.role))
    .limit(page.limit)
    .offset(page.offset);
  const count =
    rows[0]?.total ?? (page.offset > 0 ? await countMembers(db, clientMembers, where) : 0);
  return {
    count,
    results: rows.map((r) => ({
      ...membershipFields(r.membership, r.user, r.lastActive),
      organization_role: r.orgRole ? roleRef(r.orgRole) : null,
    })),
  };
}

async function countMembers(
  db: Conn,
  table: typeof organizationMembers | typeof clientMembers,
  where: SQL | undefined,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(table)
    .innerJoin(users, and(eq(users.id, table.user_id), isNull(users.deleted_at)))
    .where(where);
  return row?.n ?? 0;
}

/** A membership of an organization or of a workspace, as the write rules need it. */
export interface MembershipState {
  role: Role;
  status: MembershipStatus;
}

/** Someone a member change concerns, with their memberships in the tenant. */
export interface PersonStanding {
  userId: string;
  email: string;
  org: MembershipState | null;
  workspace: MembershipState | null;
  /** Live workspaces of the organization they belong to (pending memberships too). */
  workspaces: number;
}

const state = (role: Role | null, status: MembershipStatus | null): MembershipState | null =>
  role && status ? { role, status } : null;

/**
 * People's memberships of an organization (and of one of its workspaces) and how many of its
 * workspaces they belong to, with the number of the organization's accepted OWNERs, in one query.
 * Writes read the actor and the member this way inside their transaction, once the tenant's row
 * is locked, so the rules see what no concurrent change can alter. A person whose account is gone
 * is missing.
 */
export async function loadStandings(
  db: Conn,
  tenant: { organizationId: string; clientId?: string },
  userIds: readonly string[],
): Promise<{ people: Map<string, PersonStanding>; owners: number }> {
  const rows = await db
    .select({
      userId: users.id,
      email: users.email,
      orgRole: organizationMembers.role,
      orgStatus: organizationMembers.status,
      workspaceRole: clientMembers.role,
      workspaceStatus: clientMembers.status,
      workspaces: workspaceCount(tenant.organizationId, users.id),
      owners: sql<number>`(select count(*) from ${organizationMembers} o
        join ${users} u on u.id = o.user_id and u.deleted_at is null
        where o.organization_id = ${tenant.organizationId} and o.role = 'OWNER'
          and o.status = 'MEMBER')`.mapWith(Number),
    })
    .from(users)
    .leftJoin(
      organizationMembers,
      and(
        eq(organizationMembers.organization_id, tenant.organizationId),
        eq(organizationMembers.user_id, users.id),
      ),
    )
    .leftJoin(
      clientMembers,
      and(
        eq(clientMembers.client_id, tenant.clientId ?? sql`null::uuid`),
        eq(clientMembers.user_id, users.id),
      ),
    )
    .where(and(inArray(users.id, [...userIds]), isNull(users.deleted_at)));
  return {
    owners: rows[0]?.owners ?? 0,
    people: new Map(
      rows.map((r) => [
        r.userId,
        {
          userId: r.userId,
          email: r.email,
          org: state(r.orgRole, r.orgStatus),
          workspace: state(r.workspaceRole, r.workspaceStatus),
          workspaces: r.workspaces,
        },
      ]),
    ),
  };
}
