import {
  ROLE_NAMES,
  type AppProfile,
  type OrganizationSubscription,
  type Paginated,
  type PlanLimits,
} from '@portolan/contract';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { organizationMembers, organizations, plans, subscriptions } from '../../db/schema/index.ts';
import { pageFromRows, rowsOf, windowTotal } from '../../lib/pagination.ts';
import type { AuthState } from '../access/index.ts';
import { countUsageOf, toSubscriptionDto } from './subscription-repo.ts';

/**
 * GET /v1/me/organizations/and/subscriptions/{app}/: every organization the caller is an accepted
 * member of (any role: the web app's subscription gate asks for STAFF and CLIENT too), by name,
 * with its subscription, the limits in force and what counts against them. Two statements
 * whatever the page size (three for a page past the end).
 */

const NO_LIMITS: PlanLimits = {
  max_workspaces: null,
  max_internal_users: null,
  max_external_users: null,
};

export async function listMySubscriptions(
  ctx: AppContext,
  caller: AuthState,
  app: AppProfile,
  query: { page: number; limit: number },
): Promise<Paginated<OrganizationSubscription>> {
  const mine = and(
    eq(organizationMembers.user_id, caller.userId),
    eq(organizationMembers.status, 'MEMBER'),
    isNull(organizations.deleted_at),
  );
  const rows = await ctx.db
    .select({
      organization: { id: organizations.id, name: organizations.name },
      role: organizationMembers.role,
      subscription: subscriptions,
      plan: plans,
      total: windowTotal,
    })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organization_id))
    .leftJoin(
      subscriptions,
      and(eq(subscriptions.organization_id, organizations.id), eq(subscriptions.app_profile, app)),
    )
    .leftJoin(plans, eq(plans.id, subscriptions.plan_id))
    .where(mine)
    .orderBy(sql`lower(${organizations.name})`, asc(organizations.id))
    .limit(rowsOf(query).limit)
    .offset(rowsOf(query).offset);
  const usage = await countUsageOf(
    ctx.db,
    rows.map((row) => row.organization.id),
  );
  return pageFromRows(
    query,
    rows,
    (row) => ({
      organization: {
        id: row.organization.id,
        name: row.organization.name,
        role: { key: row.role, name: ROLE_NAMES[row.role] },
      },
      subscription:
        row.subscription && row.plan ? toSubscriptionDto(row.subscription, row.plan) : null,
      limits: row.subscription?.limits ?? NO_LIMITS,
      usage: usage.get(row.organization.id)!,
    }),
    async () => {
      const [counted] = await ctx.db
        .select({ n: sql<number>`count(*)::int` })
        .from(organizationMembers)
        .innerJoin(organizations, eq(organizations.id, organizationMembers.organization_id))
        .where(mine);
      return Number(counted?.n ?? 0);
    },
  );
}
