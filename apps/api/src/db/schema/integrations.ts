import { EVENT_TYPES } from '@portolan/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { id, ts } from './columns.ts';
import { organizations } from './organizations.ts';
import { users } from './users.ts';

/**
 * A transaction id (xid8, PostgreSQL 13 and later), read and written as its decimal text: 64 bits,
 * beyond a JavaScript number.
 */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * The integration platform (issue 21). Its row locks follow the tenant order (decision 0007):
 * the organization first, then these rows.
 */

/**
 * An organization's API key (item 1): only its SHA-256 is kept (a key is 32 random bytes, so a
 * fast hash is enough), and its first characters to tell it apart. It acts as its creator could,
 * now, within its permissions: a creator who leaves, is disabled or is deleted (created_by null)
 * stops it.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** `ptl_` and the next four characters. */
    hint: text('hint').notNull(),
    /** SHA-256 of the whole key, hex. */
    key_hash: text('key_hash').notNull(),
    permissions: text('permissions').array().notNull(),
    /** Null: every workspace of the organization. */
    workspace_ids: uuid('workspace_ids').array(),
    created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    created_at: ts('created_at').notNull().defaultNow(),
    expires_at: ts('expires_at'),
    last_used_at: ts('last_used_at'),
    last_used_ip: text('last_used_ip'),
    revoked_at: ts('revoked_at'),
    revoked_by: uuid('revoked_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_key').on(t.key_hash),
    index('api_keys_organization_idx').on(t.organization_id, t.created_at),
  ],
);

/**
 * What happened in an organization (item 3), written in the same transaction as the change. The
 * events feed lists them by (`txid`, `seq`); webhooks deliver them, `id` being the `webhook-id`.
 */
export const events = pgTable(
  'events',
  {
    id: id(),
    /** Ascending in commit-independent insertion order: the feed's cursor. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    type: text('type', { enum: EVENT_TYPES }).notNull(),
    /** What the event is about (`member:<user id>`, `workspace:<id>`): deliveries keep its order. */
    subject: text('subject').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    created_at: ts('created_at').notNull().defaultNow(),
    /**
     * The writing transaction's id. Transactions commit out of order, so a smaller `seq` can
     * commit after a larger one; the feed lists only events whose transaction is older than every
     * running one (`txid < pg_snapshot_xmin(pg_current_snapshot())`), in (txid, seq) order: no
     * event can later appear before what a reader has passed.
     */
    txid: xid8('txid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
  },
  (t) => [
    uniqueIndex('events_seq_key').on(t.seq),
    index('events_organization_feed_idx').on(t.organization_id, t.txid, t.seq),
    index('events_created_idx').on(t.created_at),
  ],
);

/** A webhook endpoint of an organization (item 2). The signing secret is sealed (lib/secret-box.ts). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: id(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    /** The event types it receives. */
    events: text('events').array().notNull(),
    /** `whsec_…`, sealed with the endpoint's id as associated data. */
    secret: text('secret').notNull(),
    /**
     * The secret before the last rotation, sealed alike: deliveries are signed with both until
     * `previous_secret_until` (24 hours), so a receiver can switch without losing messages.
     */
    previous_secret: text('previous_secret'),
    previous_secret_until: ts('previous_secret_until'),
    enabled: boolean('enabled').notNull().default(true),
    /** Why it was switched off, when the server did it (failing for 5 days). */
    disabled_reason: text('disabled_reason'),
    /** The first failure of the current run of failures; null after a success. */
    failing_since: ts('failing_since'),
    created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    created_at: ts('created_at').notNull().defaultNow(),
    modified_at: ts('modified_at').notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_organization_idx').on(t.organization_id)],
);

/**
 * One event for one endpoint, made in the transaction that wrote the event. A worker claims a due
 * delivery with FOR UPDATE SKIP LOCKED and a lease (`claimed_until`), so each attempt is made
 * once across instances and a worker that dies mid-attempt loses nothing: the lease runs out.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    endpoint_id: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event_id: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    /** The event's seq and subject, copied: deliveries of one subject go in order. */
    event_seq: bigint('event_seq', { mode: 'number' }).notNull(),
    subject: text('subject').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: ts('next_attempt_at').notNull().defaultNow(),
    claimed_until: ts('claimed_until'),
    created_at: ts('created_at').notNull().defaultNow(),
    completed_at: ts('completed_at'),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.status, t.next_attempt_at),
    index('webhook_deliveries_subject_idx').on(t.endpoint_id, t.subject, t.event_seq),
  ],
);

/** Each attempt of a delivery: when, the answer's status, how long, and an excerpt of the answer. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: id(),
    delivery_id: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempted_at: ts('attempted_at').notNull(),
    /** Which attempt of the delivery (1 for the first); one whose worker died leaves a gap. */
    attempt: integer('attempt').notNull(),
    /** The HTTP status; null when no answer came (refused, timed out, a private address). */
    status_code: integer('status_code'),
    duration_ms: integer('duration_ms').notNull(),
    response_excerpt: text('response_excerpt').notNull().default(''),
    error: text('error'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.delivery_id, t.attempted_at)],
);

/**
 * The keys that sign module launch tokens (item 4): ES256, the private half sealed. The newest
 * unretired key signs; a retired key stays published in the JWKS until its tokens have expired.
 */
export const signingKeys = pgTable('signing_keys', {
  kid: text('kid').primaryKey(),
  algorithm: text('algorithm').notNull(),
  public_jwk: jsonb('public_jwk').$type<Record<string, unknown>>().notNull(),
  /** The private JWK, sealed with the kid as associated data. */
  private_jwk: text('private_jwk').notNull(),
  created_at: ts('created_at').notNull().defaultNow(),
  retired_at: ts('retired_at'),
});
