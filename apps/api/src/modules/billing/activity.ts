import type { ActivityAction } from '@portolan/contract';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import type { Actor } from '../access/index.ts';
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

/**
 * A money setting an OWNER or ADMIN changed (issue 22), in the organization's log, in the
 * change's transaction: about the organization, or about the workspace (`clientId`) it names.
 */
export function recordSettingChange(
  ctx: Pick<AppContext, 'clock'>,
  tx: Tx,
  actor: Actor,
  change: {
    action: Extract<
      ActivityAction,
      'UPDATE_AUTO_TOP_UP' | 'UPDATE_SPEND_CAP' | 'UPDATE_BALANCE_ALERTS' | 'UPDATE_BILLING_DETAILS'
    >;
    data: Record<string, unknown>;
    clientId?: string;
  },
): Promise<void> {
  const organizationId = actor.organization.id;
  return recordActivity(tx, {
    userId: actor.userId,
    action: change.action,
    objectType: change.clientId ? 'client' : 'organization',
    objectId: change.clientId ?? organizationId,
    organizationId,
    data: change.data,
    at: ctx.clock.now(),
  });
}
