import { and, asc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { activities } from '../../db/schema/index.ts';
import {
  afterCursor,
  BATCH,
  cursorOf,
  jsonLines,
  keyset,
  type Cursor,
  type Exporter,
} from '../../lib/data-export.ts';

/** Activities in the archives (activities.jsonl): what the user did, or the organization's log. */

function activityBatch(db: Db, scope: SQL, after: Cursor | null) {
  return db
    .select({ ...cursorOf(activities.created_at, activities.id), a: activities })
    .from(activities)
    .where(and(scope, afterCursor(activities.created_at, activities.id, after)))
    .orderBy(asc(activities.created_at), asc(activities.id))
    .limit(BATCH);
}

export const activitiesExporter: Exporter = {
  tables: ['activities'],
  sections: {
    USER: {
      'activities.jsonl': {
        lines: ({ db, id }) =>
          jsonLines(
            keyset((after) => activityBatch(db, eq(activities.user_id, id), after)),
            ({ a }) => ({
              id: a.id,
              created_at: a.created_at,
              action: a.action,
              object_type: a.object_type,
              object_id: a.object_id,
              organization_id: a.organization_id,
              data: a.data,
              deleted_at: a.deleted_at,
            }),
          ),
      },
    },
    ORGANIZATION: {
      'activities.jsonl': {
        lines: ({ db, id }) =>
          jsonLines(
            keyset((after) => activityBatch(db, eq(activities.organization_id, id), after)),
            ({ a }) => ({
              id: a.id,
              created_at: a.created_at,
              user_id: a.user_id,
              action: a.action,
              object_type: a.object_type,
              object_id: a.object_id,
              data: a.data,
              deleted_at: a.deleted_at,
            }),
          ),
      },
    },
  },
};
