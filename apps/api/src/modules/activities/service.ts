import { ActivityAction, type ActivityObjectType } from '@portolan/contract';
import type { Db, Tx } from '../../db/client.ts';
import { activities } from '../../db/schema/index.ts';

export { ActivityAction };

/** Records what a user did; runs inside the caller's transaction. */
export async function recordActivity(
  tx: Db | Tx,
  entry: {
    userId: string;
    action: ActivityAction;
    objectType?: ActivityObjectType;
    objectId?: string;
    /** The organization whose activity log shows it (GET /v1/organizations/{orgId}/activities/). */
    organizationId?: string;
    data?: Record<string, unknown>;
    at?: Date;
  },
): Promise<void> {
  await tx.insert(activities).values({
    user_id: entry.userId,
    action: entry.action,
    object_type: entry.objectType ?? null,
    object_id: entry.objectId ?? null,
    organization_id: entry.organizationId ?? null,
    data: entry.data ?? {},
    ...(entry.at && { created_at: entry.at, modified_at: entry.at }),
  });
}
