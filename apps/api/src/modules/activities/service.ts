import {
  ActivityAction,
  modulesMatching,
  type Activity,
  type ActivityCreate,
  type ActivityListQuery,
  type ActivityObjectType,
  type Paginated,
} from '@portolan/contract';
import { and, desc, eq, gte, ilike, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db, Tx } from '../../db/client.ts';
import { activities, users } from '../../db/schema/index.ts';
import { days } from '../../lib/clock.ts';
import { type AuthState, decideTenant } from '../access/index.ts';
import type { UserRow } from '../users/index.ts';
import { windowTotal } from '../../lib/pagination.ts';

export { ActivityAction };

/** What a user did, as one activity row. */
export interface ActivityRecord {
  userId: string;
  action: ActivityAction;
  objectType?: ActivityObjectType;
  objectId?: string;
  /** The organization whose activity log shows it (GET /v1/organizations/{orgId}/activities/). */
  organizationId?: string;
  data?: Record<string, unknown>;
  at?: Date;
}

/**
 * The insert of one activity, not yet run: to run with others in one statement (a CTE of the
 * caller's, as sign-in does) or by itself (recordActivity).
 */
export function activityInsert(db: Db | Tx, entry: ActivityRecord) {
  return db.insert(activities).values({
    user_id: entry.userId,
    action: entry.action,
    object_type: entry.objectType ?? null,
    object_id: entry.objectId ?? null,
    organization_id: entry.organizationId ?? null,
    data: entry.data ?? {},
    ...(entry.at && { created_at: entry.at, modified_at: entry.at }),
  });
}

/** Records what a user did; runs inside the caller's transaction. */
export async function recordActivity(tx: Db | Tx, entry: ActivityRecord): Promise<void> {
  await activityInsert(tx, entry);
}

export interface ActivityEntry {
  userId: string;
  action: ActivityAction;
  objectType: ActivityObjectType;
  objectId: string;
  organizationId: string;
  data: Record<string, unknown>;
}

/** Records several activities in one statement, all at `at`; inside the caller's transaction. */
export async function recordActivities(
  tx: Tx,
  entries: readonly ActivityEntry[],
  at: Date,
): Promise<void> {
  if (entries.length === 0) return;
  await tx.insert(activities).values(
    entries.map((e) => ({
      user_id: e.userId,
      action: e.action,
      object_type: e.objectType,
      object_id: e.objectId,
      organization_id: e.organizationId,
      data: e.data,
      created_at: at,
      modified_at: at,
    })),
  );
}

// ---- the API: reported activities and an organization's log ----------------------------------

type ActivityRow = typeof activities.$inferSelect;
type UserFields = Pick<UserRow, 'id' | 'email' | 'first_name' | 'last_name'>;

export function toActivityDto(row: ActivityRow, user: UserFields | null): Activity {
  return {
    id: row.id,
    user: user && {
      id: user.id,
      email: user.email,
      first_name: user.first_name,
      last_name: user.last_name,
    },
    action: row.action,
    object_id: row.object_id,
    object_type: row.object_type,
    data: row.data,
    created: row.created_at.toISOString(),
  };
}

/**
 * POST /v1/activities/: an action of the caller on a workspace they can read (404 otherwise, as
 * for a workspace that does not exist). The server writes the app profile and the workspace's id
 * and name into `data`. ACCESS_WORKSPACE is kept once per user and workspace: a repeat answers
 * the existing record (the unique index decides, so concurrent reports make one record).
 */
export async function reportActivity(
  ctx: AppContext,
  auth: AuthState,
  input: ActivityCreate,
): Promise<{ created: boolean; activity: Activity }> {
  const actor = await decideTenant(ctx.db, auth, { clientId: input.object_id }, null);
  const client = actor.client!;
  const values = {
    user_id: auth.userId,
    action: input.action,
    object_type: input.object_type,
    object_id: client.id,
    organization_id: client.organization_id,
    data: {
      ...input.data,
      app_profile: ctx.config.appProfile,
      client_id: client.id,
      client_name: client.name,
    },
    created_at: ctx.clock.now(),
    modified_at: ctx.clock.now(),
  };
  // Only ACCESS_WORKSPACE has a unique index: DO NOTHING answers no row for a repeat.
  const [row] = await ctx.db.insert(activities).values(values).onConflictDoNothing().returning();
  if (row) return { created: true, activity: toActivityDto(row, auth.user) };
  const [existing] = await ctx.db
    .select()
    .from(activities)
    .where(
      and(
        eq(activities.user_id, auth.userId),
        eq(activities.object_id, client.id),
        eq(activities.action, input.action),
        isNull(activities.deleted_at),
      ),
    )
    .limit(1);
  if (!existing) throw new Error('activity conflict without an existing record');
  return { created: false, activity: toActivityDto(existing, auth.user) };
}

/**
 * What the log and the export filter on: the organization's live activities, an action, a search
 * `key` over the user's names and e-mail and the modules' labels (so the users table is joined),
 * and for the export whole days (UTC, both included).
 */
export function activityFilter(
  organizationId: string,
  query: { action?: ActivityAction; key?: string; from_date?: string; to_date?: string },
): SQL | undefined {
  const key = query.key?.trim();
  const pattern = key ? `%${key.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const modules = key ? modulesMatching(key) : [];
  const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);
  return and(
    eq(activities.organization_id, organizationId),
    isNull(activities.deleted_at),
    query.action ? eq(activities.action, query.action) : undefined,
    query.from_date ? gte(activities.created_at, dayStart(query.from_date)) : undefined,
    query.to_date
      ? lt(activities.created_at, new Date(dayStart(query.to_date).getTime() + days(1)))
      : undefined,
    pattern
      ? or(
          ilike(users.email, pattern),
          ilike(users.first_name, pattern),
          ilike(users.last_name, pattern),
          sql`(${users.first_name} || ' ' || ${users.last_name}) ilike ${pattern}`,
          modules.length > 0 ? inArray(sql`${activities.data} ->> 'module'`, modules) : undefined,
        )
      : undefined,
  );
}

/**
 * An organization's activity log, newest first, in one query (the total rides along as a window
 * count; a page past the end costs a second, counting query). `key` searches the user's names and
 * e-mail, and the labels of the modules concerned (MODULE_NAMES).
 */
export async function listOrganizationActivities(
  ctx: AppContext,
  organizationId: string,
  query: ActivityListQuery,
): Promise<Paginated<Activity>> {
  const where = activityFilter(organizationId, query);
  const rows = await ctx.db
    .select({
      activity: activities,
      user: {
        id: users.id,
        email: users.email,
        first_name: users.first_name,
        last_name: users.last_name,
      },
      total: windowTotal,
    })
    .from(activities)
    .leftJoin(users, eq(users.id, activities.user_id))
    .where(where)
    .orderBy(desc(activities.created_at), desc(activities.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  let count = rows[0]?.total ?? 0;
  if (rows.length === 0 && query.page > 1) {
    const [row] = await ctx.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(activities)
      .leftJoin(users, eq(users.id, activities.user_id))
      .where(where);
    count = row?.n ?? 0;
  }
  return {
    count,
    next: query.page * query.limit < count ? query.page + 1 : null,
    previous: query.page > 1 ? query.page - 1 : null,
    results: rows.map((r) => toActivityDto(r.activity, r.user)),
  };
}
