import { SECURITY_EVENT_KINDS, SIGN_IN_METHODS } from '@portolan/contract';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { id, ts } from './columns.ts';
import { users } from './users.ts';

/**
 * The second factors of an account (issue 20): one row per account that has ever started one.
 * Every check of a factor locks this row, so the account's failure count and TOTP's last step
 * hold under parallel attempts.
 */
export const userMfa = pgTable('user_mfa', {
  user_id: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The TOTP secret, sealed with the configured key (lib/secret-box.ts); null: no TOTP. */
  totp_secret: text('totp_secret'),
  /** Null while the secret waits for its first code (set up, not yet confirmed). */
  totp_confirmed_at: ts('totp_confirmed_at'),
  /** The newest TOTP time step accepted: a code of it or an earlier step is a replay. */
  totp_last_step: bigint('totp_last_step', { mode: 'number' }),
  /** Wrong answers since `failures_since` (the account-wide limit, MFA_MAX_FAILURES). */
  failures: integer('failures').notNull().default(0),
  failures_since: ts('failures_since'),
  created_at: ts('created_at').notNull().defaultNow(),
});

/** Recovery codes: an HMAC each, never the code; used once. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    code_hash: text('code_hash').notNull(),
    used_at: ts('used_at'),
    created_at: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('recovery_codes_user_hash_key').on(t.user_id, t.code_hash)],
);

/**
 * A sign-in waiting for its second factor: made when the first (password, Google) was proven; the
 * mfa_token names it. No session: it only lets its user try a factor, MFA_MAX_ATTEMPTS times, for
 * MFA_TOKEN_TTL_S.
 */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    id: id(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** How the first factor was proven. */
    method: text('method', { enum: SIGN_IN_METHODS }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    ip: text('ip'),
    user_agent: text('user_agent'),
    expires_at: ts('expires_at').notNull(),
    consumed_at: ts('consumed_at'),
    created_at: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('mfa_challenges_expires_idx').on(t.expires_at)],
);

/** The account's security log (GET /v1/user/security-events/), newest first. */
export const securityEvents = pgTable(
  'security_events',
  {
    id: id(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: SECURITY_EVENT_KINDS }).notNull(),
    /** How a sign-in or a step-up was proven: its first factor. */
    method: text('method', { enum: SIGN_IN_METHODS }),
    /** A sign-in's or step-up's second factor, when one was asked. */
    factor: text('factor', { enum: SIGN_IN_METHODS }),
    ip: text('ip'),
    user_agent: text('user_agent'),
    created_at: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('security_events_user_created_idx').on(t.user_id, t.created_at)],
);

/**
 * Passkeys (WebAuthn credentials, issue 20 item 2): a second factor, and a sign-in of their own
 * (discoverable credentials). Only the public key is kept; the private key never leaves the
 * authenticator.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: id(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential's id (base64url), as the authenticator names it. */
    credential_id: text('credential_id').notNull(),
    /** The COSE public key (base64url). */
    public_key: text('public_key').notNull(),
    /** The authenticator's signature counter (0 for those that keep none, such as synced passkeys). */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    backed_up: boolean('backed_up').notNull().default(false),
    created_at: ts('created_at').notNull().defaultNow(),
    last_used_at: ts('last_used_at'),
  },
  (t) => [
    uniqueIndex('passkeys_credential_id_key').on(t.credential_id),
    index('passkeys_user_idx').on(t.user_id),
  ],
);

/**
 * A WebAuthn ceremony in flight: the random challenge the browser's answer must sign, used once.
 * `user_id` is null for a passwordless sign-in (the passkey names its user).
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    id: id(),
    user_id: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', {
      enum: ['register', 'sign_in', 'second_factor', 'step_up'],
    }).notNull(),
    challenge: text('challenge').notNull(),
    expires_at: ts('expires_at').notNull(),
    consumed_at: ts('consumed_at'),
    created_at: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('webauthn_challenges_expires_idx').on(t.expires_at)],
);
