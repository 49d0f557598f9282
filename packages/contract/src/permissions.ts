/**
 * Permissions, access rules and custom roles (REFERENCE "Custom roles, access rules and
 * permissions"): the catalogue of module permissions as data, its groups, and what each default
 * role gives. Resolution is in permission-resolution.ts, the API's schemas in
 * permission-schemas.ts. Zod-free: the web app imports it.
 */
import type { ModuleCode, Role } from './constants.ts';

/** The status an access rule or an override gives a permission; INHERIT defers to the next. */
export const PERMISSION_STATUSES = ['ALLOW', 'DENY', 'INHERIT'] as const;
export type PermissionStatus = (typeof PERMISSION_STATUSES)[number];

/** Where a permission ends up: a disabled module's permissions are neither allowed nor denied. */
export const EFFECTIVE_STATUSES = ['ALLOW', 'DENY', 'DISABLED'] as const;
export type EffectiveStatus = (typeof EFFECTIVE_STATUSES)[number];

/** A group of a module's permissions, as the permissions screen shows them (and the PUT path names). */
export interface PermissionGroup {
  module: ModuleCode;
  key: string;
  name: string;
}

/** One permission: `key` is `<module>.<group>.<action>` in lower case. */
export interface PermissionDefinition {
  key: string;
  name: string;
  module: ModuleCode;
  group: string;
}

/** The groups of 2D Transit (TR) that REFERENCE lists, in the order the screen shows them. */
export const PERMISSION_GROUPS: readonly PermissionGroup[] = [
  { module: 'TR', key: 'history', name: 'History' },
  { module: 'TR', key: 'settings', name: 'Settings' },
  { module: 'TR', key: 'barcode_2d', name: '2D barcode' },
  { module: 'TR', key: 'fnsku', name: 'FNSKU' },
  { module: 'TR', key: 'shipment_plan_status', name: 'Shipment plan status' },
  { module: 'TR', key: 'shipment_box', name: 'Shipment boxes' },
  { module: 'TR', key: 'efficiency_report', name: 'Efficiency report' },
  { module: 'TR', key: 'custom_shipment', name: 'Custom shipment' },
  { module: 'TR', key: 'vendor_central', name: 'Vendor Central' },
  { module: 'TR', key: 'shipping_label', name: 'Shipping label' },
  { module: 'TR', key: 'shipping_label_history', name: 'Shipping label history' },
];

const tr = (group: string, action: string, name: string) =>
  ({ key: `tr.${group}.${action}`, name, module: 'TR', group }) as const;

/** Every permission, grouped as PERMISSION_GROUPS and in its order. */
export const PERMISSION_CATALOGUE = [
  tr('history', 'view', 'View the shipment history'),
  tr('history', 'extract', 'Extract (download) the shipment history'),
  tr('settings', 'view', 'View the 2D Transit settings'),
  tr('settings', 'update', 'Change the 2D Transit settings'),
  tr('barcode_2d', 'create', 'Create and print 2D barcodes'),
  tr('fnsku', 'print', 'Print FNSKU labels'),
  tr('shipment_plan_status', 'update', 'Change the status of a shipment plan'),
  tr('shipment_box', 'delete', 'Delete shipment boxes'),
  tr('efficiency_report', 'view', 'View the efficiency report'),
  tr('custom_shipment', 'create', 'Create custom shipments'),
  tr('custom_shipment', 'box_delete', 'Delete boxes of a custom shipment'),
  tr('vendor_central', 'use', 'Work on Vendor Central shipments'),
  tr('shipping_label', 'create', 'Buy and print shipping labels'),
  tr('shipping_label_history', 'view', 'View the shipping label history'),
] as const satisfies readonly PermissionDefinition[];
export type PermissionKey = (typeof PERMISSION_CATALOGUE)[number]['key'];
export const PERMISSION_KEYS = PERMISSION_CATALOGUE.map((p) => p.key) as [
  PermissionKey,
  ...PermissionKey[],
];

const BY_KEY = new Map<string, PermissionDefinition>(PERMISSION_CATALOGUE.map((p) => [p.key, p]));
export const findPermission = (key: string): PermissionDefinition | undefined => BY_KEY.get(key);
export const isPermissionKey = (key: string): key is PermissionKey => BY_KEY.has(key);

/** The permissions of some modules (a workspace's, an app profile's), in catalogue order. */
export const permissionsOfModules = (
  modules: readonly ModuleCode[],
): readonly PermissionDefinition[] =>
  PERMISSION_CATALOGUE.filter((p) => modules.includes(p.module));

export const permissionsOfGroup = (
  module: ModuleCode,
  group: string,
): readonly PermissionDefinition[] =>
  PERMISSION_CATALOGUE.filter((p) => p.module === module && p.group === group);

export const findPermissionGroup = (module: string, group: string): PermissionGroup | undefined =>
  PERMISSION_GROUPS.find((g) => g.module === module && g.key === group);

/**
 * Any list of permissions (or of things that name one) arranged by module and group, in the
 * order of MODULE_CODES and PERMISSION_GROUPS: what the catalogue and a member's permissions
 * answer, and what the screens show.
 */
export function groupByModuleAndGroup<T extends { key: string }>(
  items: readonly T[],
  modules: readonly ModuleCode[],
): { module: ModuleCode; groups: { group: PermissionGroup; items: T[] }[] }[] {
  return modules
    .map((module) => ({
      module,
      groups: PERMISSION_GROUPS.filter((g) => g.module === module)
        .map((group) => ({
          group,
          items: items.filter((item) => {
            const p = findPermission(item.key);
            return p?.module === module && p.group === group.key;
          }),
        }))
        .filter((g) => g.items.length > 0),
    }))
    .filter((m) => m.groups.length > 0);
}

// ---- default roles ----------------------------------------------------------------------------

/** What a default role says of each permission; a key it leaves out stays INHERIT. */
export interface DefaultRoleRule {
  /** How the explainer names it ("the staff rule"). */
  name: string;
  statuses: Partial<Record<PermissionKey, 'ALLOW' | 'DENY'>>;
}

const every = (status: 'ALLOW' | 'DENY', keys: readonly PermissionKey[] = PERMISSION_KEYS) =>
  Object.fromEntries(keys.map((key) => [key, status])) as Record<PermissionKey, typeof status>;

const isSetting = (key: PermissionKey) => findPermission(key)!.group === 'settings';
/** Deleting work is not undone; the delete permissions end in `delete`. */
const isDeletion = (key: PermissionKey) => /(^|\.|_)delete$/.test(key);

/**
 * The rule of each workspace role, read last (after the member's overrides and custom roles).
 * The default roles are code, not rows: they change with the catalogue, need no seeding per
 * organization, and cannot be edited away (decision 0008).
 * - OWNER and ADMIN: everything (REFERENCE).
 * - MANAGER: everything but the module's settings. A manager runs the day's work and the
 *   workspace's people (they may change members' roles and rules), but how the module is set up
 *   is the owners' and admins' call; a custom role or an override can still give it.
 * - STAFF, "the staff rule": the day-to-day work (history, labels, barcodes, shipment plans,
 *   reports, custom and Vendor Central shipments) is allowed; the settings and every deletion are
 *   denied, because a mistake there is hard to undo and affects everyone's work.
 * - CLIENT: none (REFERENCE). An external user gets only what a custom role or an override gives;
 *   everything else stays INHERIT and so ends DENY.
 */
export const DEFAULT_ROLE_RULES: Record<Role, DefaultRoleRule> = {
  OWNER: { name: 'everything', statuses: every('ALLOW') },
  ADMIN: { name: 'everything', statuses: every('ALLOW') },
  MANAGER: {
    name: 'everything but the settings',
    statuses: { ...every('ALLOW'), ...every('DENY', PERMISSION_KEYS.filter(isSetting)) },
  },
  STAFF: {
    name: 'the staff rule',
    statuses: {
      ...every('ALLOW'),
      ...every(
        'DENY',
        PERMISSION_KEYS.filter((key) => isSetting(key) || isDeletion(key)),
      ),
    },
  },
  CLIENT: { name: 'nothing', statuses: {} },
};
