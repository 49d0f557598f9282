import {
  INVITATION_KINDS,
  INVITATION_STATUSES,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TYPES,
  ROLES,
} from '@portolan/contract';
import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, timestamps, ts } from './columns.ts';
import { clients, organizations } from './organizations.ts';
import { users } from './users.ts';

/**
 * An invitation to an organization or a workspace: the PENDING membership it offers lives in the
 * membership tables; this row holds the token (only its SHA-256), the expiry and the decision.
 * A resend revokes the row and writes a new one, so an old token stops working.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: id(),
    kind: text('kind', { enum: INVITATION_KINDS }).notNull(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Set for an invitation to a workspace. */
    client_id: uuid('client_id').references(() => clients.id, { onDelete: 'cascade' }),
    /** The invitee. */
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ROLES }).notNull(),
    token_hash: text('token_hash').notNull(),
    status: text('status', { enum: INVITATION_STATUSES }).notNull().default('PENDING'),
    invited_by: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expires_at: ts('expires_at').notNull(),
    decided_at: ts('decided_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('invitations_token_hash_key').on(t.token_hash),
    index('invitations_user_id_idx').on(t.user_id),
    index('invitations_organization_id_idx').on(t.organization_id),
    index('invitations_client_id_idx').on(t.client_id),
    // At most one pending invitation per person and organization, and per person and workspace.
    uniqueIndex('invitations_pending_org_key')
      .on(t.organization_id, t.user_id)
      .where(sql`${t.kind} = 'organization' and ${t.status} = 'PENDING'`),
    uniqueIndex('invitations_pending_client_key')
      .on(t.client_id, t.user_id)
      .where(sql`${t.kind} = 'client' and ${t.status} = 'PENDING'`),
  ],
);

/** What the bell shows: INVITATION (meta: invitation_token, type, id) or WARNING. */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    type: text('type', { enum: NOTIFICATION_TYPES }).notNull(),
    recipient_id: uuid('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    author_id: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    organization_id: uuid('organization_id').references(() => organizations.id, {
      onDelete: 'cascade',
    }),
    client_id: uuid('client_id').references(() => clients.id, { onDelete: 'cascade' }),
    /** The invitation an INVITATION notification offers. */
    invitation_id: uuid('invitation_id').references(() => invitations.id, { onDelete: 'set null' }),
    is_seen: boolean('is_seen').notNull().default(false),
    status: text('status', { enum: NOTIFICATION_STATUSES }).notNull().default('OPEN'),
    meta: jsonb('meta').$type<Record<string, unknown>>().notNull().default({}),
    extra_message: text('extra_message'),
    ...timestamps(),
    deleted_at: ts('deleted_at'),
  },
  (t) => [
    // The bell's list (newest first) and its unseen count, per recipient.
    index('notifications_recipient_created_idx').on(t.recipient_id, t.created_at),
    index('notifications_recipient_unseen_idx')
      .on(t.recipient_id)
      .where(sql`${t.is_seen} = false and ${t.deleted_at} is null`),
  ],
);
