import type { Notification, NotificationListQuery } from '@portolan/contract';
import { and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { clients, notifications, organizations, users } from '../../db/schema/index.ts';
import { windowTotal } from '../../lib/pagination.ts';

/** A recipient's live (not deleted) notifications. */
const ownLive = (recipientId: string): SQL =>
  and(eq(notifications.recipient_id, recipientId), isNull(notifications.deleted_at))!;

/** What one item of the bell shows, in one select with its author, organization and workspace. */
function selectItems(db: Db | Tx) {
  return db
    .select({
      notification: notifications,
      author: {
        id: users.id,
        email: users.email,
        first_name: users.first_name,
        last_name: users.last_name,
        avatar: users.avatar,
      },
      organization: { id: organizations.id, name: organizations.name },
      client: { id: clients.id, name: clients.name },
      total: windowTotal,
    })
    .from(notifications)
    .leftJoin(users, and(eq(users.id, notifications.author_id), isNull(users.deleted_at)))
    .leftJoin(organizations, eq(organizations.id, notifications.organization_id))
    .leftJoin(clients, eq(clients.id, notifications.client_id));
}

type ItemRow = Awaited<ReturnType<ReturnType<typeof selectItems>['execute']>>[number];

function toNotification(row: ItemRow): Notification {
  const n = row.notification;
  return {
    id: n.id,
    type: n.type,
    status: n.status,
    is_seen: n.is_seen,
    extra_message: n.extra_message,
    created: n.created_at.toISOString(),
    meta: n.meta,
    author: row.author,
    organization: row.organization,
    client: row.client,
  };
}

/**
 * A page of the recipient's notifications, newest first (then by id, so pages never overlap),
 * in one query: the total rides along as a window count; only a page past the end costs a second,
 * counting query.
 */
export async function listNotificationsOf(
  db: Db,
  recipientId: string,
  query: NotificationListQuery,
): Promise<{ count: number; results: Notification[] }> {
  const rows = await selectItems(db)
    .where(ownLive(recipientId))
    .orderBy(desc(notifications.created_at), desc(notifications.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  let count = rows[0]?.total ?? 0;
  if (rows.length === 0 && query.page > 1) {
    const [row] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(notifications)
      .where(ownLive(recipientId));
    count = row?.n ?? 0;
  }
  return { count, results: rows.map(toNotification) };
}

/**
 * One of the recipient's notifications as the bell shows it, with the invitation it offers (an
 * INVITATION's, else null); undefined when it is not theirs (or not there, or deleted).
 */
export async function findOwnNotification(
  db: Db | Tx,
  recipientId: string,
  id: string,
): Promise<{ notification: Notification; invitationId: string | null } | undefined> {
  const [row] = await selectItems(db)
    .where(and(eq(notifications.id, id), ownLive(recipientId)))
    .limit(1);
  if (!row) return undefined;
  const { type, invitation_id } = row.notification;
  return {
    notification: toNotification(row),
    invitationId: type === 'INVITATION' ? invitation_id : null,
  };
}

/** Marks it seen if it is the recipient's and unseen; true when this call changed it. */
export async function markSeen(
  tx: Tx,
  recipientId: string,
  id: string,
  at: Date,
): Promise<boolean> {
  const changed = await tx
    .update(notifications)
    .set({ is_seen: true, modified_at: at })
    .where(and(eq(notifications.id, id), ownLive(recipientId), eq(notifications.is_seen, false)))
    .returning({ id: notifications.id });
  return changed.length > 0;
}

const unseenOf = (recipients: SQL) =>
  and(recipients, eq(notifications.is_seen, false), isNull(notifications.deleted_at));

/** The unseen counts of several users in one query (every id gets a number, 0 if none). */
export async function countUnseenOf(db: Db, recipientIds: string[]): Promise<Map<string, number>> {
  const counts = new Map(recipientIds.map((id) => [id, 0]));
  if (recipientIds.length === 0) return counts;
  const rows = await db
    .select({ recipient: notifications.recipient_id, n: sql<number>`count(*)`.mapWith(Number) })
    .from(notifications)
    .where(unseenOf(inArray(notifications.recipient_id, recipientIds)))
    .groupBy(notifications.recipient_id);
  for (const row of rows) counts.set(row.recipient, row.n);
  return counts;
}

/** The bell's number: the recipient's unseen, live notifications. */
export const countUnseen = async (db: Db, recipientId: string): Promise<number> =>
  (await countUnseenOf(db, [recipientId])).get(recipientId) ?? 0;

/**
 * The notifications offering a decided invitation become DONE and seen, and lose the token,
 * which can do nothing any more. Answers their recipients (to announce the change to).
 */
export async function settleInvitationRows(
  tx: Tx,
  invitationIds: readonly string[],
  at?: Date,
): Promise<string[]> {
  if (invitationIds.length === 0) return [];
  const rows = await tx
    .update(notifications)
    .set({
      status: 'DONE',
      is_seen: true,
      meta: sql`${notifications.meta} - 'invitation_token'`,
      ...(at && { modified_at: at }),
    })
    .where(inArray(notifications.invitation_id, [...invitationIds]))
    .returning({ recipient: notifications.recipient_id });
  return [...new Set(rows.map((r) => r.recipient))];
}
