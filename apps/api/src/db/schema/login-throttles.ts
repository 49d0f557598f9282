import { pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

/**
 * One row per e-mail that has tried to sign in, whether or not an account has it. A sign-in
 * locks its row (FOR UPDATE) while it counts the recent failures and reserves its attempt, so
 * guesses sent in parallel for one account are counted one at a time (`login-failures.ts`).
 */
export const loginThrottles = pgTable('login_throttles', {
  email: text('email').primaryKey(),
  created_at: ts('created_at').notNull().defaultNow(),
});
