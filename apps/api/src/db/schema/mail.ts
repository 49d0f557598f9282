import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { id, ts } from './columns.ts';

/**
 * Transactional outbox: a message is written in the same transaction as the change that causes
 * it, and a worker delivers it afterwards, retrying with backoff.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    to_address: text('to_address').notNull(),
    subject: text('subject').notNull(),
    text_body: text('text_body').notNull(),
    html_body: text('html_body').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    last_error: text('last_error'),
    next_attempt_at: ts('next_attempt_at').notNull().defaultNow(),
    created_at: ts('created_at').notNull().defaultNow(),
    sent_at: ts('sent_at'),
  },
  (t) => [index('mail_outbox_pending_idx').on(t.status, t.next_attempt_at)],
);
