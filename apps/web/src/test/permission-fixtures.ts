import {
  DEFAULT_ROLE_RULES,
  explainPermission,
  groupByModuleAndGroup,
  MODULE_NAMES,
  PERMISSION_CATALOGUE,
  resolvePermissions,
  ROLES,
  type ModuleCode,
  type PermissionSetting,
  type ResolutionRole,
  type Role,
} from '@portolan/contract';
import { CLIENT_ID, ORG_ID } from './tenant-fixtures';

/**
 * Access rules, custom roles and a member's permissions as the API answers them, for the
 * permission pages' tests. Effective permissions are worked out by the contract's resolver, as the
 * server does.
 */

export const RULE_IDS = {
  packing: '11111111-1111-4111-8111-000000000001',
  labels: '11111111-1111-4111-8111-000000000002',
  orgWide: '11111111-1111-4111-8111-000000000003',
  system: '11111111-1111-4111-8111-000000000004',
} as const;
export const ROLE_IDS = {
  packers: '22222222-2222-4222-8222-000000000001',
  auditors: '22222222-2222-4222-8222-000000000002',
} as const;

const MODULES: ModuleCode[] = ['TR'];
const created = '2026-03-01T10:00:00.000Z';

/** GET …/permissions/catalogue/. */
export function catalogue() {
  return {
    modules: groupByModuleAndGroup(
      PERMISSION_CATALOGUE.map((p) => ({ key: p.key, name: p.name })),
      MODULES,
    ).map((m) => ({
      module: m.module,
      name: MODULE_NAMES[m.module],
      groups: m.groups.map((g) => ({ key: g.group.key, name: g.group.name, permissions: g.items })),
    })),
    default_roles: ROLES.map((role) => ({
      role,
      name: DEFAULT_ROLE_RULES[role].name,
      permissions: Object.entries(DEFAULT_ROLE_RULES[role].statuses).map(
        ([permission, status]) => ({ permission, status }),
      ),
    })),
  };
}

interface ScopedFields {
  id: string;
  name: string;
  description?: string;
  scope?: 'organization' | 'client';
  is_system?: boolean;
}

function scopeFields(f: ScopedFields) {
  const scope = f.scope ?? 'client';
  return {
    id: f.id,
    name: f.name,
    description: f.description ?? '',
    scope,
    organization: ORG_ID,
    client: scope === 'client' ? CLIENT_ID : null,
    is_system: f.is_system ?? false,
    created,
    modified: created,
  };
}

/** An access rule. */
export function accessRule(
  f: ScopedFields & { module?: ModuleCode | null; permissions?: PermissionSetting[] },
) {
  return { ...scopeFields(f), module: f.module ?? null, permissions: f.permissions ?? [] };
}

export const rules = {
  packing: accessRule({
    id: RULE_IDS.packing,
    name: 'Packing floor',
    description: 'Boxes and barcodes',
    module: 'TR',
    permissions: [
      { permission: 'tr.shipment_box.delete', status: 'ALLOW' },
      { permission: 'tr.barcode_2d.create', status: 'ALLOW' },
      { permission: 'tr.settings.update', status: 'DENY' },
    ],
  }),
  labels: accessRule({
    id: RULE_IDS.labels,
    name: 'Label printing',
    permissions: [{ permission: 'tr.shipping_label.create', status: 'DENY' }],
  }),
  orgWide: accessRule({
    id: RULE_IDS.orgWide,
    name: 'Head office',
    scope: 'organization',
    permissions: [{ permission: 'tr.history.extract', status: 'ALLOW' }],
  }),
  system: accessRule({
    id: RULE_IDS.system,
    name: 'Made by the system',
    is_system: true,
    permissions: [{ permission: 'tr.history.view', status: 'ALLOW' }],
  }),
};

type Rule = ReturnType<typeof accessRule>;

/** A custom role listing rules in this order. */
export function customRole(f: ScopedFields & { rules?: Rule[] }) {
  return {
    ...scopeFields(f),
    rules: (f.rules ?? []).map((r, i) => ({
      rule: { id: r.id, name: r.name, module: r.module, scope: r.scope },
      priority: i + 1,
    })),
  };
}

export const roles = {
  packers: customRole({
    id: ROLE_IDS.packers,
    name: 'Packers',
    rules: [rules.packing, rules.labels],
  }),
  auditors: customRole({
    id: ROLE_IDS.auditors,
    name: 'Auditors',
    scope: 'organization',
    rules: [rules.orgWide],
  }),
};

type Role_ = ReturnType<typeof customRole>;

/** The resolver's view of a custom role. */
const resolutionRole = (role: Role_): ResolutionRole => ({
  id: role.id,
  name: role.name,
  rules: role.rules.map(({ rule }) => {
    const full = Object.values(rules).find((r) => r.id === rule.id)!;
    return { id: full.id, name: full.name, module: full.module, permissions: full.permissions };
  }),
});

interface MemberSettings {
  userId: string;
  role: Role;
  overrides?: PermissionSetting[];
  customRoles?: Role_[];
  enabled?: boolean;
}

const resolutionInput = ({
  role,
  overrides = [],
  customRoles = [],
  enabled = true,
}: MemberSettings) => ({
  catalogue: PERMISSION_CATALOGUE,
  enabledModules: enabled ? MODULES : [],
  role,
  overrides,
  customRoles: customRoles.map(resolutionRole),
});

/** GET …/permissions/explain?permission= for a member with these settings. */
export const explanation = (settings: MemberSettings, key: string) =>
  explainPermission(resolutionInput(settings), key)!;

/** GET /v1/clients/{id}/users/{userId}/permissions/ for a member with these settings. */
export function memberPermissions(settings: MemberSettings) {
  const { userId, role, overrides = [], enabled = true } = settings;
  const resolved = resolvePermissions(resolutionInput(settings));
  const overrideOf = new Map(overrides.map((o) => [o.permission, o.status]));
  const items = PERMISSION_CATALOGUE.map((p) => ({
    key: p.key,
    name: p.name,
    ...resolved[p.key]!,
    override: overrideOf.get(p.key) ?? 'INHERIT',
  }));
  return {
    user: userId,
    client: CLIENT_ID,
    role,
    modules: groupByModuleAndGroup(items, MODULES).map((m) => ({
      module: m.module,
      name: MODULE_NAMES[m.module],
      enabled,
      groups: m.groups.map((g) => ({ key: g.group.key, name: g.group.name, permissions: g.items })),
    })),
  };
}

/** GET …/custom-roles/ of a member. */
export const memberRoles = (held: Role_[]) => ({
  roles: held.map((r, i) => ({
    role: { id: r.id, name: r.name, scope: r.scope },
    priority: i + 1,
  })),
});
