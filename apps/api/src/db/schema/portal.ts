import { DATA_EXPORT_KINDS, DATA_EXPORT_STATUSES } from '@portolan/contract';
import { sql } from 'drizzle-orm';
import { bigint, check, date, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, timestamps, ts } from './columns.ts';
import { clients, organizations } from './organizations.ts';
import { users } from './users.ts';

/**
 * Issue 11: release notes and the platform administrators who write them, public share links of a
 * workspace's module pages, and the data exports (a user's own data, an organization's data).
 * Workspace branding (seller settings) lives on `clients` (default_client_header_logo, custom_css).
 */

/**
 * Administrators of the platform itself (not of an organization): they manage release notes.
 * Granted and revoked only by the command line (`npm run admin -- grant <email>`).
 */
export const platformAdmins = pgTable('platform_admins', {
  user_id: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  granted_at: ts('granted_at').notNull().defaultNow(),
});

/** A version of the portal and what changed in it; `release_note` is HTML, stored sanitized. */
export const releaseNotes = pgTable(
  'release_notes',
  {
    id: id(),
    version: text('version').notNull(),
    release_date: date('release_date', { mode: 'string' }).notNull(),
    release_note: text('release_note').notNull(),
    created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('release_notes_version_key').on(sql`lower(${t.version})`),
    // The panel lists the newest first; the latest decides the toggle's dot.
    index('release_notes_date_idx').on(t.release_date, t.created_at),
  ],
);

/** The latest release note a user has marked viewed (one row per user). */
export const releaseNoteViews = pgTable('release_note_views', {
  user_id: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  release_note_id: uuid('release_note_id').references(() => releaseNotes.id, {
    onDelete: 'set null',
  }),
  viewed_at: ts('viewed_at').notNull().defaultNow(),
});

/**
 * A read-only link to one module page of a workspace. Only the SHA-256 of the token is kept; the
 * token itself is shown once, in the link.
 */
export const shareLinks = pgTable(
  'share_links',
  {
    id: id(),
    client_id: uuid('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    module: text('module').notNull(),
    token_hash: text('token_hash').notNull(),
    created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    expires_at: ts('expires_at'),
    revoked_at: ts('revoked_at'),
    last_opened_at: ts('last_opened_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('share_links_token_hash_key').on(t.token_hash),
    index('share_links_client_created_idx').on(t.client_id, t.created_at),
  ],
);

/**
 * A data export, built by a background job: a user's own data (kind USER) or an organization's
 * (kind ORGANIZATION, organization_id set). The archive lives in file storage under `storage_key`
 * until `expires_at` (24 hours after it is ready); the e-mailed link carries a token whose SHA-256
 * is `download_token_hash`.
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: id(),
    kind: text('kind', { enum: DATA_EXPORT_KINDS }).notNull(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organization_id: uuid('organization_id').references(() => organizations.id, {
      onDelete: 'cascade',
    }),
    status: text('status', { enum: DATA_EXPORT_STATUSES }).notNull().default('PENDING'),
    storage_key: text('storage_key'),
    file_name: text('file_name'),
    size_bytes: bigint('size_bytes', { mode: 'number' }),
    download_token_hash: text('download_token_hash'),
    error: text('error'),
    /** Set while a worker holds the job; a job whose lease ran out is taken again. */
    locked_until: ts('locked_until'),
    attempts: bigint('attempts', { mode: 'number' }).notNull().default(0),
    completed_at: ts('completed_at'),
    expires_at: ts('expires_at'),
    ...timestamps(),
  },
  (t) => [
    check(
      'data_exports_org_kind',
      sql`(${t.kind} = 'ORGANIZATION') = (${t.organization_id} is not null)`,
    ),
    index('data_exports_user_created_idx').on(t.user_id, t.created_at),
    index('data_exports_org_created_idx').on(t.organization_id, t.created_at),
    index('data_exports_pending_idx')
      .on(t.created_at)
      .where(sql`${t.status} in ('PENDING', 'RUNNING')`),
    uniqueIndex('data_exports_download_token_key').on(t.download_token_hash),
  ],
);
