import { z } from 'zod';
import { MAX_PAGE_LIMIT, MODULE_CODES, ROLES } from './constants.ts';
import { paginated } from './pagination.ts';
import type { PERMISSION_SOURCE_KINDS } from './permission-resolution.ts';
import {
  EFFECTIVE_STATUSES,
  findPermission,
  PERMISSION_KEYS,
  PERMISSION_STATUSES,
} from './permissions.ts';
import { singleLine } from './text.ts';

/**
 * Requests and answers of the access rules, custom roles, the catalogue and a member's
 * permissions (decision 0008). The zod-free data and rules they use are in permissions.ts and
 * permission-resolution.ts.
 */

export const RULE_NAME_MAX_LENGTH = 120;
export const RULE_DESCRIPTION_MAX_LENGTH = 500;
/** A custom role lists at most this many rules; a member holds at most this many custom roles. */
export const CUSTOM_ROLE_MAX_RULES = 50;
export const MEMBER_MAX_CUSTOM_ROLES = 50;
/** Rules and roles per page unless `limit` says otherwise (a role editor wants them all). */
export const RULE_PAGE_SIZE = 100;

/** Where a rule or role belongs: the organization (usable in all its workspaces) or one workspace. */
export const RULE_SCOPES = ['organization', 'client'] as const;
export type RuleScope = (typeof RULE_SCOPES)[number];

const moduleField = z.enum(MODULE_CODES, `Choose one of ${MODULE_CODES.join(', ')}.`);
const permissionKey = z.enum(
  PERMISSION_KEYS,
  'Unknown permission: use a key of the catalogue (…/permissions/catalogue/).',
);
const statusField = z.enum(PERMISSION_STATUSES, `Choose one of ${PERMISSION_STATUSES.join(', ')}.`);
const ruleName = (what: string) =>
  singleLine()
    .min(1, `Enter the ${what} name.`)
    .max(RULE_NAME_MAX_LENGTH, `Keep the name under ${RULE_NAME_MAX_LENGTH + 1} characters.`);
const description = singleLine()
  .max(
    RULE_DESCRIPTION_MAX_LENGTH,
    `Keep the description under ${RULE_DESCRIPTION_MAX_LENGTH + 1} characters.`,
  )
  .optional();
const timestamp = z.iso.datetime({ offset: true });

export const permissionSettingSchema = z.strictObject({
  permission: permissionKey,
  status: statusField,
});

/** Each permission once in a list of settings (the item named twice is the one refused). */
function refuseRepeatedPermissions(
  settings: readonly { permission: string }[],
  ctx: z.RefinementCtx,
) {
  const seen = new Set<string>();
  settings.forEach((s, i) => {
    if (seen.has(s.permission)) {
      ctx.addIssue({
        code: 'custom',
        path: ['permissions', i, 'permission'],
        message: 'This permission is listed twice.',
      });
    }
    seen.add(s.permission);
  });
}

/**
 * Priorities of an ordered list: each item once, priorities exactly 1..n (n the number of items),
 * so the order is never ambiguous. Each offending item is named.
 */
function checkPriorities<K extends string>(
  items: readonly ({ priority: number } & Record<K, string>)[],
  field: string,
  idField: K,
  ctx: z.RefinementCtx,
) {
  const ids = new Set<string>();
  const priorities = new Set<number>();
  items.forEach((item, i) => {
    const id = item[idField];
    if (ids.has(id)) {
      ctx.addIssue({ code: 'custom', path: [field, i, idField], message: 'Listed twice.' });
    }
    ids.add(id);
    if (item.priority > items.length || priorities.has(item.priority)) {
      ctx.addIssue({
        code: 'custom',
        path: [field, i, 'priority'],
        message: `Give the priorities 1 to ${items.length}, each once.`,
      });
    }
    priorities.add(item.priority);
  });
}
const priorityField = z.int('Give a whole number.').min(1, 'Priorities start at 1.');

// ---- the catalogue ----------------------------------------------------------------------------

export const permissionCatalogueSchema = z.object({
  modules: z.array(
    z.object({
      module: z.enum(MODULE_CODES),
      name: z.string(),
      groups: z.array(
        z.object({
          key: z.string(),
          name: z.string(),
          permissions: z.array(z.object({ key: z.string(), name: z.string() })),
        }),
      ),
    }),
  ),
  /** What each workspace role gives when nothing before it decides (keys it leaves out: INHERIT). */
  default_roles: z.array(
    z.object({
      role: z.enum(ROLES),
      name: z.string(),
      permissions: z.array(z.object({ permission: z.string(), status: statusField })),
    }),
  ),
});
export type PermissionCatalogue = z.infer<typeof permissionCatalogueSchema>;

// ---- access rules -----------------------------------------------------------------------------

/**
 * POST and PUT of an access rule. A rule for one `module` may only name that module's
 * permissions; each permission once.
 */
export const accessRuleInputSchema = z
  .strictObject({
    name: ruleName('access rule'),
    description,
    module: moduleField.nullable().optional(),
    permissions: z.array(permissionSettingSchema).max(PERMISSION_KEYS.length),
  })
  .superRefine((rule, ctx) => {
    refuseRepeatedPermissions(rule.permissions, ctx);
    if (!rule.module) return;
    rule.permissions.forEach((s, i) => {
      if (findPermission(s.permission)?.module !== rule.module) {
        ctx.addIssue({
          code: 'custom',
          path: ['permissions', i, 'permission'],
          message: `Not a permission of the module ${rule.module}, which this rule is for.`,
        });
      }
    });
  });
export type AccessRuleInput = z.infer<typeof accessRuleInputSchema>;

const scopeFields = {
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  scope: z.enum(RULE_SCOPES),
  organization: z.uuid(),
  client: z.uuid().nullable(),
  /** Made by the system: read-only. */
  is_system: z.boolean(),
  created: timestamp,
  modified: timestamp,
};

export const accessRuleSchema = z.object({
  ...scopeFields,
  module: z.enum(MODULE_CODES).nullable(),
  permissions: z.array(z.object({ permission: z.string(), status: statusField })),
});
export type AccessRule = z.infer<typeof accessRuleSchema>;
export const accessRulePageSchema = paginated(accessRuleSchema);

export const ruleListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(RULE_PAGE_SIZE),
});
export type RuleListQuery = z.infer<typeof ruleListQuerySchema>;

// ---- custom roles -----------------------------------------------------------------------------

/** POST and PUT of a custom role: its rules with priorities 1..n, each rule once. */
export const customRoleInputSchema = z
  .strictObject({
    name: ruleName('custom role'),
    description,
    rules: z
      .array(z.strictObject({ rule: z.uuid('Give an access rule id.'), priority: priorityField }))
      .max(CUSTOM_ROLE_MAX_RULES),
  })
  .superRefine((role, ctx) => checkPriorities(role.rules, 'rules', 'rule', ctx));
export type CustomRoleInput = z.infer<typeof customRoleInputSchema>;

const ruleRefSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  module: z.enum(MODULE_CODES).nullable(),
  scope: z.enum(RULE_SCOPES),
});

export const customRoleSchema = z.object({
  ...scopeFields,
  rules: z.array(z.object({ rule: ruleRefSchema, priority: z.int() })),
});
export type CustomRole = z.infer<typeof customRoleSchema>;
export const customRolePageSchema = paginated(customRoleSchema);

// ---- a member's custom roles ------------------------------------------------------------------

/** PUT (and preview) of a member's custom roles: priorities 1..n, each role once. */
export const memberCustomRolesInputSchema = z
  .strictObject({
    roles: z
      .array(z.strictObject({ role: z.uuid('Give a custom role id.'), priority: priorityField }))
      .max(MEMBER_MAX_CUSTOM_ROLES),
  })
  .superRefine((body, ctx) => checkPriorities(body.roles, 'roles', 'role', ctx));
export type MemberCustomRolesInput = z.infer<typeof memberCustomRolesInputSchema>;

export const memberCustomRolesSchema = z.object({
  roles: z.array(
    z.object({
      role: z.object({ id: z.uuid(), name: z.string(), scope: z.enum(RULE_SCOPES) }),
      priority: z.int(),
    }),
  ),
});
export type MemberCustomRoles = z.infer<typeof memberCustomRolesSchema>;

// ---- a member's effective permissions and the explainer --------------------------------------

const namedRefSchema = z.object({ id: z.string(), name: z.string() });

export const permissionSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('override') }),
  z.object({ kind: z.literal('custom_role'), role: namedRefSchema, rule: namedRefSchema }),
  z.object({ kind: z.literal('default_role'), role: z.enum(ROLES) }),
  z.object({ kind: z.literal('inherit') }),
  z.object({ kind: z.literal('module_disabled') }),
]) satisfies z.ZodType<{ kind: (typeof PERMISSION_SOURCE_KINDS)[number] }>;

export const effectivePermissionSchema = z.object({
  key: z.string(),
  name: z.string(),
  status: z.enum(EFFECTIVE_STATUSES),
  /** The member's own override of it (INHERIT: none), as the group's PUT sets it. */
  override: statusField,
  source: permissionSourceSchema,
});

export const memberPermissionsSchema = z.object({
  user: z.uuid(),
  client: z.uuid(),
  /** The member's workspace role as it counts (an organization OWNER or ADMIN acts as one). */
  role: z.enum(ROLES),
  modules: z.array(
    z.object({
      module: z.enum(MODULE_CODES),
      name: z.string(),
      enabled: z.boolean(),
      groups: z.array(
        z.object({
          key: z.string(),
          name: z.string(),
          permissions: z.array(effectivePermissionSchema),
        }),
      ),
    }),
  ),
});
export type MemberPermissions = z.infer<typeof memberPermissionsSchema>;

/** PUT …/users/{userId}/permissions/{module}/{group}/: the group's overrides, all of them. */
export const groupOverridesInputSchema = z
  .strictObject({ permissions: z.array(permissionSettingSchema).max(PERMISSION_KEYS.length) })
  .superRefine((body, ctx) => refuseRepeatedPermissions(body.permissions, ctx));
export type GroupOverridesInput = z.infer<typeof groupOverridesInputSchema>;

export const permissionGroupParams = {
  module: moduleField,
  group: singleLine().regex(/^[a-z0-9_]{1,64}$/, 'Use a group key of the catalogue.'),
};

export const explainQuerySchema = z.strictObject({ permission: permissionKey });

export const explanationSchema = z.object({
  permission: z.object({
    key: z.string(),
    name: z.string(),
    module: z.enum(MODULE_CODES),
    group: z.string(),
  }),
  status: z.enum(EFFECTIVE_STATUSES),
  source: permissionSourceSchema,
  /** Looked at in this order; the last one decided. */
  steps: z.array(
    z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('module'), module: z.enum(MODULE_CODES), enabled: z.boolean() }),
      z.object({ kind: z.literal('override'), status: statusField }),
      z.object({
        kind: z.literal('custom_role'),
        role: namedRefSchema,
        rule: namedRefSchema,
        status: statusField,
      }),
      z.object({
        kind: z.literal('default_role'),
        role: z.enum(ROLES).nullable(),
        status: statusField,
      }),
    ]),
  ),
  sentence: z.string(),
});
export type ExplanationAnswer = z.infer<typeof explanationSchema>;

/**
 * POST /v1/access/check/ (issue 21 item 5): the answer, the explainer's sentence as the reason,
 * and its whole chain (null when the user is not a member of the workspace).
 */
export const accessCheckAnswerSchema = z.object({
  allowed: z.boolean(),
  reason: z.string(),
  explanation: explanationSchema.nullable(),
});
export type AccessCheckAnswer = z.infer<typeof accessCheckAnswerSchema>;
