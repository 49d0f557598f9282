import type { ActivityAction } from '@portolan/contract';
import type { Tx } from '../../db/client.ts';
import { recordActivity } from '../activities/index.ts';
import { recordChangeEvents, type ChangeEvent } from '../events/index.ts';

/**
 * Records a billing change in the change's transaction: its event (issue 21), and the activity in
 * the organization's log (issue 18): subscriptions started, plans changed, subscriptions
 * cancelled, balance top-ups. A change nobody can be named for (the buyer's account is gone) has
 * its event, not its activity.
 */
export async function recordBillingActivity(
  tx: Tx,
  entry: {
    userId: string | null;
    organizationId: string;
    action: Extract<ActivityAction, 'SUBSCRIBE' | 'CHANGE_PLAN' | 'UNSUBSCRIBE' | 'TOP_UP_BALANCE'>;
    data: Record<string, unknown>;
    event: ChangeEvent;
    at: Date;
  },
): Promise<void> {
  await recordChangeEvents(tx, entry.organizationId, entry.at, [entry.event]);
  if (!entry.userId) return;
  await recordActivity(tx, {
    userId: entry.userId,
    action: entry.action,
    objectType: 'organization',
    objectId: entry.organizationId,
    organizationId: entry.organizationId,
    data: entry.data,
    at: entry.at,
  });
}
