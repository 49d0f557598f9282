import { integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { id, ts } from './columns.ts';
import { users } from './users.ts';

/** Files people uploaded (avatars, logos); the bytes live behind the storage interface. */
export const uploads = pgTable('uploads', {
  id: id(),
  user_id: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  storage_key: text('storage_key').notNull().unique(),
  content_type: text('content_type').notNull(),
  size: integer('size').notNull(),
  created_at: ts('created_at').notNull().defaultNow(),
});
