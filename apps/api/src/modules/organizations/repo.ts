import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { MembershipStatus, OrgRole } from '@portolan/contract';
import type { Db, Tx } from '../../db/client.ts';
import { organizationMembers, organizations } from '../../db/schema/index.ts';

/** The caller's memberships (MEMBER or PENDING) of live organizations. */
const mine = (userId: string) =>
  and(eq(organizationMembers.user_id, userId), isNull(organizations.deleted_at));

const onOrganization = eq(organizations.id, organizationMembers.organization_id);

/** How many live organizations the user belongs to (accepted or invited). One statement. */
export async function countMyOrganizations(db: Db | Tx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(organizationMembers)
    .innerJoin(organizations, onOrganization)
    .where(mine(userId));
  return row?.n ?? 0;
}

/** How many live organizations the user is an accepted member of. */
export async function countAcceptedOrganizations(db: Db | Tx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(organizationMembers)
    .innerJoin(organizations, onOrganization)
    .where(and(mine(userId), eq(organizationMembers.status, 'MEMBER')));
  return row?.n ?? 0;
}

export interface MyOrganizationRow {
  organization: typeof organizations.$inferSelect;
  role: OrgRole;
  status: MembershipStatus;
}

/**
 * The ids of one page of the user's organizations, as a subquery (not run): lets the workspaces
 * of the page be read at the same time as the page itself.
 */
export function myOrganizationPageIds(
  db: Db | Tx,
  userId: string,
  page: { limit: number; offset: number },
) {
  return db
    .select({ id: organizations.id })
    .from(organizationMembers)
    .innerJoin(organizations, onOrganization)
    .where(mine(userId))
    .orderBy(sql`lower(${organizations.name})`, asc(organizations.id))
    .limit(page.limit)
    .offset(page.offset);
}

/**
 * One page of the user's organizations with their membership, sorted by name case-insensitively
 * (then by id, so pages never overlap). One statement.
 */
export async function pageMyOrganizations(
  db: Db | Tx,
  userId: string,
  page: { limit: number; offset: number },
): Promise<MyOrganizationRow[]> {
  const rows = await db
    .select({
      organization: organizations,
      role: organizationMembers.role,
      status: organizationMembers.status,
    })
    .from(organizationMembers)
    .innerJoin(organizations, onOrganization)
    .where(mine(userId))
    .orderBy(sql`lower(${organizations.name})`, asc(organizations.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows as MyOrganizationRow[];
}
