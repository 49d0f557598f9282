import {
  MEMBERSHIP_STATUSES,
  MFA_GRACE_DAYS_DEFAULT,
  MFA_POLICIES,
  ROLES,
} from '@portolan/contract';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { id, timestamps, ts } from './columns.ts';
import { users } from './users.ts';

/** What a membership of an organization or of a workspace holds besides what it belongs to. */
const membershipColumns = () => ({
  user_id: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  role: text('role', { enum: ROLES }).notNull(),
  status: text('status', { enum: MEMBERSHIP_STATUSES }).notNull().default('MEMBER'),
  invited_by: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
  last_active_at: ts('last_active_at'),
  ...timestamps(),
});

export const organizations = pgTable('organizations', {
  id: id(),
  name: text('name').notNull(),
  logo: text('logo'),
  owner_id: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
  /** What the organization requires of its members' sign-in (issue 20 item 5; MFA_POLICIES). */
  mfa_policy: text('mfa_policy', { enum: MFA_POLICIES }).notNull().default('off'),
  mfa_grace_days: integer('mfa_grace_days').notNull().default(MFA_GRACE_DAYS_DEFAULT),
  /** When the current requirement began; its grace runs from here. Null while off. */
  mfa_policy_since: ts('mfa_policy_since'),
  ...timestamps(),
  deleted_at: ts('deleted_at'),
});

/** A workspace ("client" in the data and the API) of an organization. */
export const clients = pgTable(
  'clients',
  {
    id: id(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    logo: text('logo'),
    /** False while a workspace created by STAFF waits for approval. */
    active: boolean('active').notNull().default(true),
    owner_id: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    dashboard_button_color: text('dashboard_button_color').notNull().default('#1985ac'),
    account_manager: text('account_manager'),
    special_project_manager: text('special_project_manager'),
    /** Seller settings (spec §3): the header logo (an upload's URL) and the custom stylesheet. */
    default_client_header_logo: text('default_client_header_logo'),
    custom_css: text('custom_css').notNull().default(''),
    extra_information: jsonb('extra_information')
      .$type<Record<string, unknown>>()
      .notNull()
      .default({}),
    ...timestamps(),
    deleted_at: ts('deleted_at'),
  },
  (t) => [
    // Names are unique per organization among live workspaces, case-insensitively.
    uniqueIndex('clients_org_name_key')
      .on(t.organization_id, sql`lower(${t.name})`)
      .where(sql`${t.deleted_at} is null`),
    index('clients_organization_id_idx').on(t.organization_id),
  ],
);

/** One row per module of the app profile, per workspace. */
export const clientModules = pgTable(
  'client_modules',
  {
    id: id(),
    client_id: uuid('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    module: text('module').notNull(),
    enabled: boolean('enabled').notNull().default(false),
    ...timestamps(),
  },
  (t) => [uniqueIndex('client_modules_client_module_key').on(t.client_id, t.module)],
);

export const organizationMembers = pgTable(
  'organization_members',
  {
    id: id(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    ...membershipColumns(),
  },
  (t) => [
    uniqueIndex('organization_members_org_user_key').on(t.organization_id, t.user_id),
    index('organization_members_user_id_idx').on(t.user_id),
  ],
);

export const clientMembers = pgTable(
  'client_members',
  {
    id: id(),
    client_id: uuid('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    ...membershipColumns(),
  },
  (t) => [
    uniqueIndex('client_members_client_user_key').on(t.client_id, t.user_id),
    index('client_members_user_id_idx').on(t.user_id),
  ],
);
