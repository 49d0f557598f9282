import { sql } from 'drizzle-orm';
import { timestamp, uuid } from 'drizzle-orm/pg-core';

/** Columns every record has: a UUID key and created/modified times (timestamptz). */
export const id = () =>
  uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`);
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const timestamps = () => ({
  created_at: ts('created_at').notNull().defaultNow(),
  modified_at: ts('modified_at')
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});
