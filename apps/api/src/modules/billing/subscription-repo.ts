import type { AppProfile, Plan, PlanType, Subscription, ResourceUsage } from '@portolan/contract';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { clients, organizationMembers, plans, subscriptions } from '../../db/schema/index.ts';

/**
 * The queries every part of billing shares: plans, an organization's subscription (locked when a
 * check and a change must not race) and what counts against its limits.
 */

type Conn = Db | Tx;
export type PlanRow = typeof plans.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;

/**
 * A plan as the API shows it, with the services (of `services`, the app profile's balance
 * services) that it includes at no charge.
 */
export function toPlanDto(
  row: PlanRow,
  services: readonly { key: string; name: string; included_in: PlanType[] }[],
): Plan {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    description: row.description,
    criteria: row.criteria,
    price: row.price,
    currency: row.currency,
    period: row.period,
    trial_days: row.trial_days,
    order: row.sort_order,
    self_serve: row.self_serve,
    config: row.config,
    included_services: services
      .filter((s) => s.included_in.includes(row.type))
      .map((s) => ({ key: s.key, name: s.name })),
  };
}

export function toSubscriptionDto(row: SubscriptionRow, plan: PlanRow): Subscription {
  return {
    id: row.id,
    status: row.status,
    is_active: row.is_active,
    expired_in: row.expired_in?.toISOString() ?? null,
    current_period_start: row.current_period_start?.toISOString() ?? null,
    amount: row.amount,
    currency: row.currency,
    plan: { id: plan.id, type: plan.type, name: plan.name, price: plan.price, period: plan.period },
    cancel_at_period_end: row.cancel_at_period_end,
    subscriber_id: row.subscriber_id,
    default_payment_method_id: row.default_payment_method_id,
    retry_count: row.retry_count,
    next_retry_at: row.next_retry_at?.toISOString() ?? null,
  };
}

/** The enabled plans of an app profile, in their order. */
export async function listPlans(db: Conn, app: AppProfile): Promise<PlanRow[]> {
  return db
    .select()
    .from(plans)
    .where(and(eq(plans.app_profile, app), eq(plans.enabled, true)))
    .orderBy(asc(plans.sort_order));
}

export async function findPlan(
  db: Conn,
  app: AppProfile,
  type: PlanType,
): Promise<PlanRow | undefined> {
  const [row] = await db
    .select()
    .from(plans)
    .where(and(eq(plans.app_profile, app), eq(plans.type, type), eq(plans.enabled, true)));
  return row;
}

export async function findPlanById(db: Conn, id: string): Promise<PlanRow | undefined> {
  const [row] = await db.select().from(plans).where(eq(plans.id, id));
  return row;
}

/**
 * The organization's subscription for the app profile with its plan. With `lock`, the
 * subscription row is first locked `FOR UPDATE` in a statement of its own, then read with its
 * plan: locking through the join would let PostgreSQL, after waiting for a concurrent plan change,
 * re-check the join against the old plan and drop the row.
 */
export async function findSubscription(
  db: Conn,
  organizationId: string,
  app: AppProfile,
  options: { lock?: boolean } = {},
): Promise<{ subscription: SubscriptionRow; plan: PlanRow } | undefined> {
  const ofOrganization = and(
    eq(subscriptions.organization_id, organizationId),
    eq(subscriptions.app_profile, app),
  );
  if (options.lock) {
    await db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(ofOrganization)
      .for('update');
  }
  const [row] = await db
    .select({ subscription: subscriptions, plan: plans })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.plan_id))
    .where(ofOrganization);
  return row;
}

/**
 * What counts against an organization's limits (spec §5): live workspaces, and members by kind,
 * pending invitations included. One statement.
 */
export async function countUsage(db: Conn, organizationId: string): Promise<ResourceUsage> {
  return (await countUsageOf(db, [organizationId])).get(organizationId)!;
}

/** countUsage for several organizations at once (lists), still one statement. */
export async function countUsageOf(
  db: Conn,
  organizationIds: readonly string[],
): Promise<Map<string, ResourceUsage>> {
  const out = new Map<string, ResourceUsage>();
  for (const id of organizationIds)
    out.set(id, { clients: 0, internal_users: 0, external_users: 0 });
  if (organizationIds.length === 0) return out;
  const ids = [...organizationIds];
  const workspaceCounts = db
    .select({
      organization_id: clients.organization_id,
      clients: sql<number>`count(*)::int`.as('clients'),
      internal_users: sql<number>`0`.as('internal_users'),
      external_users: sql<number>`0`.as('external_users'),
    })
    .from(clients)
    .where(and(inArray(clients.organization_id, ids), isNull(clients.deleted_at)))
    .groupBy(clients.organization_id);
  const memberCounts = db
    .select({
      organization_id: organizationMembers.organization_id,
      clients: sql<number>`0`.as('clients'),
      internal_users:
        sql<number>`(count(*) filter (where ${organizationMembers.role} <> 'CLIENT'))::int`.as(
          'internal_users',
        ),
      external_users:
        sql<number>`(count(*) filter (where ${organizationMembers.role} = 'CLIENT'))::int`.as(
          'external_users',
        ),
    })
    .from(organizationMembers)
    .where(inArray(organizationMembers.organization_id, ids))
    .groupBy(organizationMembers.organization_id);
  const rows = await workspaceCounts.unionAll(memberCounts);
  for (const row of rows) {
    const usage = out.get(row.organization_id)!;
    usage.clients += Number(row.clients);
    usage.internal_users += Number(row.internal_users);
    usage.external_users += Number(row.external_users);
  }
  return out;
}
