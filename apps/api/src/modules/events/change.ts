import type { EventDataMap, RecordedEventType } from '@portolan/contract';
import type { Tx } from '../../db/client.ts';
import { recordActivity, type ActivityRecord } from '../activities/index.ts';
import { recordEvents } from './record.ts';

/** An event of a change: its type and its data (EventDataMap); the subject follows from them. */
export type ChangeEvent = {
  [T in RecordedEventType]: { type: T; data: EventDataMap[T] };
}[RecordedEventType];

/**
 * What each type is about: deliveries of one subject keep their order, so a member's events,
 * a workspace's (its modules' too), the subscription's or the balance's arrive as they happened.
 */
const SUBJECTS: {
  [T in RecordedEventType]: (data: EventDataMap[T], organizationId: string) => string;
} = {
  'member.added': (d) => `member:${d.user_id}`,
  'member.removed': (d) => `member:${d.user_id}`,
  'member.role_changed': (d) => `member:${d.user_id}`,
  'invitation.sent': (d) => `invitation:${d.invitation_id}`,
  'invitation.accepted': (d) => `invitation:${d.invitation_id}`,
  'invitation.declined': (d) => `invitation:${d.invitation_id}`,
  'workspace.created': (d) => `workspace:${d.client_id}`,
  'workspace.approved': (d) => `workspace:${d.client_id}`,
  'workspace.deleted': (d) => `workspace:${d.client_id}`,
  'module.enabled': (d) => `workspace:${d.client_id}`,
  'module.disabled': (d) => `workspace:${d.client_id}`,
  'subscription.changed': (_d, organizationId) => `subscription:${organizationId}`,
  'balance.charged': (_d, organizationId) => `balance:${organizationId}`,
  'balance.topped_up': (_d, organizationId) => `balance:${organizationId}`,
  'balance.low': (_d, organizationId) => `balance:${organizationId}`,
  'invoice.paid': (d) => `invoice:${d.invoice_id}`,
  'invoice.refunded': (d) => `invoice:${d.invoice_id}`,
};

/** Records the events of one change of the organization, at one time, in the caller's transaction. */
export async function recordChangeEvents(
  tx: Tx,
  organizationId: string,
  at: Date,
  list: readonly ChangeEvent[],
): Promise<void> {
  await recordEvents(
    tx,
    list.map((event) => ({
      organizationId,
      type: event.type,
      // The map is keyed by type, so the data fits the function chosen by the same type.
      subject: SUBJECTS[event.type](event.data as never, organizationId),
      data: event.data,
      at,
    })),
  );
}

/**
 * A change in the organization's activity log and the events it makes, in the caller's
 * transaction: the services that log a change announce it in the same call.
 */
export async function recordActivityWithEvents(
  tx: Tx,
  activity: ActivityRecord & { organizationId: string; at: Date },
  list: readonly ChangeEvent[],
): Promise<void> {
  await recordActivity(tx, activity);
  await recordChangeEvents(tx, activity.organizationId, activity.at, list);
}
