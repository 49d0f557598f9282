import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, timestamps, ts } from './columns.ts';
import { users } from './users.ts';

/** What people did: SIGN_IN, ACCESS_WORKSPACE, ADD_MEMBER, ... with the linked object. */
export const activities = pgTable(
  'activities',
  {
    id: id(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    object_type: text('object_type'),
    object_id: uuid('object_id'),
    organization_id: uuid('organization_id'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps(),
    deleted_at: ts('deleted_at'),
  },
  (t) => [
    index('activities_user_action_idx').on(t.user_id, t.action),
    index('activities_org_created_idx').on(t.organization_id, t.created_at),
    // ACCESS_WORKSPACE is recorded once per user and workspace, even under concurrent requests.
    uniqueIndex('activities_access_workspace_key')
      .on(t.user_id, t.object_id)
      .where(sql`${t.action} = 'ACCESS_WORKSPACE' and ${t.deleted_at} is null`),
  ],
);
