import type { ActivityAction } from '@portolan/contract';
import type { Tx } from '../../db/client.ts';
import { recordActivity } from '../activities/index.ts';

/**
 * Records a billing change in the organization's activity log, in the change's transaction
 * (issue 18): subscriptions started, plans changed, subscriptions cancelled, balance top-ups.
 * A change nobody can be named for (the buyer's account is gone) is not recorded.
 */
export async function recordBillingActivity(
  tx: Tx,
  entry: {
    userId: string | null;
    organizationId: string;
    action: Extract<ActivityAction, 'SUBSCRIBE' | 'CHANGE_PLAN' | 'UNSUBSCRIBE' | 'TOP_UP_BALANCE'>;
    data: Record<string, unknown>;
    at: Date;
  },
): Promise<void> {
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
