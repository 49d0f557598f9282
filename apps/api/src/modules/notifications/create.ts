import type { NotificationStatus, NotificationType } from '@portolan/contract';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { notifications } from '../../db/schema/index.ts';

/**
 * The PostgreSQL channel a new notification is announced on (payload: the recipient's user id).
 * NOTIFY inside a transaction is delivered at commit, so listeners never see one that rolled back;
 * every server instance on the database listens and tells the bells it holds open.
 */
export const NOTIFICATION_CHANNEL = 'portolan_notifications';

export interface NewNotification {
  type: NotificationType;
  /** OPEN (the default) while it offers something to do; DONE when it only tells (Read). */
  status?: NotificationStatus;
  recipientId: string;
  authorId?: string | null;
  organizationId?: string | null;
  clientId?: string | null;
  invitationId?: string | null;
  meta?: Record<string, unknown>;
  extraMessage?: string | null;
  at?: Date;
}

/** Writes a notification inside the caller's transaction and announces it to the recipient. */
export async function createNotification(tx: Db | Tx, input: NewNotification): Promise<string> {
  const [row] = await tx
    .insert(notifications)
    .values({
      type: input.type,
      ...(input.status && { status: input.status }),
      recipient_id: input.recipientId,
      author_id: input.authorId ?? null,
      organization_id: input.organizationId ?? null,
      client_id: input.clientId ?? null,
      invitation_id: input.invitationId ?? null,
      meta: input.meta ?? {},
      extra_message: input.extraMessage ?? null,
      ...(input.at && { created_at: input.at, modified_at: input.at }),
    })
    .returning({ id: notifications.id });
  await announceTo(tx, input.recipientId);
  return row!.id;
}

/**
 * Tells every server instance, at commit, that a user's notifications changed (a new one, or one
 * marked seen): the instances holding a stream of that user send it the new unseen count.
 */
export async function announceTo(tx: Db | Tx, recipientId: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${NOTIFICATION_CHANNEL}, ${recipientId})`);
}
