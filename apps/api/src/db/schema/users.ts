import { CLIENTS_VIEW_OPTIONS } from '@portolan/contract';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, timestamps, ts } from './columns.ts';

export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    /** argon2id PHC string; null for accounts that only sign in with Google. */
    password_hash: text('password_hash'),
    first_name: text('first_name').notNull().default(''),
    last_name: text('last_name').notNull().default(''),
    phone: text('phone').notNull().default(''),
    avatar: text('avatar'),
    enabled: boolean('enabled').notNull().default(true),
    can_create_client: boolean('can_create_client').notNull().default(false),
    /** Null until the account is activated (code, reset, invitation or a verified Google e-mail). */
    email_verified_at: ts('email_verified_at'),
    last_login_at: ts('last_login_at'),
    /** The organization settings' workspace view (spec §3: clientsViewOption). */
    clients_view_option: text('clients_view_option', { enum: CLIENTS_VIEW_OPTIONS })
      .notNull()
      .default('ClientsListView'),
    /** When the owner was last mailed that someone tried to register this address (one an hour). */
    registration_notice_at: ts('registration_notice_at'),
    ...timestamps(),
    deleted_at: ts('deleted_at'),
  },
  (t) => [
    // One live account per e-mail, compared case-insensitively.
    uniqueIndex('users_email_lower_key')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.deleted_at} is null`),
  ],
);

/**
 * When each user was last seen making a signed-in request (the members lists' "Last active"),
 * written at most once per user per few minutes (modules/users/last-active.ts). A table of its
 * own: a write here changes no row the session cache or the tenancy lists hold.
 */
export const userActivity = pgTable('user_activity', {
  user_id: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  last_active_at: ts('last_active_at').notNull(),
});

/** A sign-in. Tokens are short JWTs bound to one of these rows; revoking the row kills the token. */
export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created_at: ts('created_at').notNull().defaultNow(),
    /** When the session's newest token was signed (sign-in or refresh). */
    last_refreshed_at: ts('last_refreshed_at').notNull().defaultNow(),
    /** The `jti` of the session's newest token: the one token of the session that is current. */
    token_jti: uuid('token_jti'),
    /** The token the last refresh replaced, accepted until `previous_jti_until` (the grace). */
    previous_jti: uuid('previous_jti'),
    previous_jti_until: ts('previous_jti_until'),
    /** Absolute lifetime: no refresh can extend a session past this. */
    expires_at: ts('expires_at').notNull(),
    revoked_at: ts('revoked_at'),
    user_agent: text('user_agent'),
    ip: text('ip'),
    /**
     * The device of the sign-in (kind, browser and system, no versions: lib/user-agent.ts);
     * a sign-in from one the account has no session of e-mails the account's owner.
     */
    device_key: text('device_key'),
    /**
     * The session's last step-up (issue 20 item 4): a fresh proof of presence. Null: none since the
     * sign-in, which counts as one (created_at).
     */
    stepped_up_at: ts('stepped_up_at'),
  },
  (t) => [index('sessions_user_id_idx').on(t.user_id)],
);

/**
 * When each session last made a signed-in request (modules/users/last-active.ts): the "last
 * active" of the account's sessions list. A table of its own, with no trigger, so keeping it fresh
 * drops nothing the session cache holds (the sessions table's changes do).
 */
export const sessionActivity = pgTable('session_activity', {
  session_id: uuid('session_id')
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  last_active_at: ts('last_active_at').notNull(),
});

/**
 * One-time codes (activation, password reset, e-mail change). Only an HMAC of the code is stored; each row
 * allows a few attempts, expires, and is consumed once.
 */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: id(),
    /**
     * Null for a blank code: issued where no code may be sent (an unknown e-mail, a limit
     * reached, an address already registered) and never sent, so the token that names it
     * behaves exactly like one for a real code and tells nobody which it is.
     */
    user_id: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['activation', 'password_reset', 'email_change'] }).notNull(),
    /**
     * An e-mail change: the new address the code was sent to (issue 20 item 7). Null for a blank
     * one: the address was taken, so nothing is sent and no entry matches.
     */
    email: text('email'),
    code_hash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expires_at: ts('expires_at').notNull(),
    /** Password reset: set when the code was exchanged for a reset token. */
    verified_at: ts('verified_at'),
    consumed_at: ts('consumed_at'),
    created_at: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('one_time_codes_user_purpose_idx').on(t.user_id, t.purpose)],
);

/** A link between a user and an external identity (Google): keyed on (provider, subject). */
export const oauthAccounts = pgTable(
  'oauth_accounts',
  {
    id: id(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    email: text('email'),
    created_at: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('oauth_accounts_provider_subject_key').on(t.provider, t.subject),
    index('oauth_accounts_user_id_idx').on(t.user_id),
  ],
);

/** An OIDC sign-in in progress: state, nonce and PKCE verifier, single use and short-lived. */
export const oidcLogins = pgTable('oidc_logins', {
  state: text('state').primaryKey(),
  nonce: text('nonce').notNull(),
  code_verifier: text('code_verifier').notNull(),
  return_path: text('return_path'),
  expires_at: ts('expires_at').notNull(),
  created_at: ts('created_at').notNull().defaultNow(),
});

/** Failed sign-ins per account, for the 10-in-15-minutes lockout (shared by every instance). */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: id(),
    email: text('email').notNull(),
    ip: text('ip'),
    created_at: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('login_failures_email_created_idx').on(t.email, t.created_at)],
);
