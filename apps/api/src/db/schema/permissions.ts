import { PERMISSION_STATUSES } from '@portolan/contract';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { id, timestamps, ts } from './columns.ts';
import { clients, organizations } from './organizations.ts';
import { users } from './users.ts';

/**
 * Access rules and custom roles belong to an organization (usable in every workspace of it) or
 * to one workspace (`client_id` set). System-made ones (`is_system`) sit beside user-made ones.
 */
const scopeColumns = () => ({
  organization_id: uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  client_id: uuid('client_id').references(() => clients.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  is_system: boolean('is_system').notNull().default(false),
  created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  ...timestamps(),
  deleted_at: ts('deleted_at'),
});

/** A named set of (permission, status), optionally for one module. */
export const accessRules = pgTable(
  'access_rules',
  {
    id: id(),
    ...scopeColumns(),
    module: text('module'),
  },
  (t) => [
    index('access_rules_organization_id_idx').on(t.organization_id),
    index('access_rules_client_id_idx').on(t.client_id),
    // Names are unique within their scope among live rules, case-insensitively.
    uniqueIndex('access_rules_scope_name_key')
      .on(t.organization_id, sql`coalesce(${t.client_id}::text, '')`, sql`lower(${t.name})`)
      .where(sql`${t.deleted_at} is null`),
  ],
);

export const accessRulePermissions = pgTable(
  'access_rule_permissions',
  {
    rule_id: uuid('rule_id')
      .notNull()
      .references(() => accessRules.id, { onDelete: 'cascade' }),
    permission: text('permission').notNull(),
    status: text('status', { enum: PERMISSION_STATUSES }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.rule_id, t.permission] })],
);

/** A named, ordered list of access rules. */
export const customRoles = pgTable(
  'custom_roles',
  {
    id: id(),
    ...scopeColumns(),
  },
  (t) => [
    index('custom_roles_organization_id_idx').on(t.organization_id),
    index('custom_roles_client_id_idx').on(t.client_id),
    uniqueIndex('custom_roles_scope_name_key')
      .on(t.organization_id, sql`coalesce(${t.client_id}::text, '')`, sql`lower(${t.name})`)
      .where(sql`${t.deleted_at} is null`),
  ],
);

export const customRoleRules = pgTable(
  'custom_role_rules',
  {
    role_id: uuid('role_id')
      .notNull()
      .references(() => customRoles.id, { onDelete: 'cascade' }),
    rule_id: uuid('rule_id')
      .notNull()
      .references(() => accessRules.id, { onDelete: 'cascade' }),
    /** 1..n, the first decides first. */
    priority: integer('priority').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.role_id, t.rule_id] }),
    uniqueIndex('custom_role_rules_priority_key').on(t.role_id, t.priority),
  ],
);

/** The custom roles a member holds in a workspace, in priority order (1..n). */
export const memberCustomRoles = pgTable(
  'member_custom_roles',
  {
    client_id: uuid('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role_id: uuid('role_id')
      .notNull()
      .references(() => customRoles.id, { onDelete: 'cascade' }),
    priority: integer('priority').notNull(),
    ...timestamps(),
  },
  (t) => [
    primaryKey({ columns: [t.client_id, t.user_id, t.role_id] }),
    uniqueIndex('member_custom_roles_priority_key').on(t.client_id, t.user_id, t.priority),
    index('member_custom_roles_role_id_idx').on(t.role_id),
  ],
);

/** A member's own overrides in a workspace: the first thing permission resolution reads. */
export const memberPermissionOverrides = pgTable(
  'member_permission_overrides',
  {
    client_id: uuid('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    permission: text('permission').notNull(),
    status: text('status', { enum: PERMISSION_STATUSES }).notNull(),
    ...timestamps(),
  },
  (t) => [primaryKey({ columns: [t.client_id, t.user_id, t.permission] })],
);
