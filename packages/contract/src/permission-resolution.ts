/**
 * A member's effective permissions in one workspace (REFERENCE "Custom roles, access rules and
 * permissions"), and why each is what it is. Pure: the server loads the member's overrides,
 * custom roles and the workspace's modules and calls these; the web app shows the same answer.
 *
 * The order: a disabled module's permission is DISABLED; otherwise the member's own overrides,
 * then their custom roles in priority order (each role's rules in priority order), then the
 * default role of their workspace role. The first explicit ALLOW or DENY wins; what stays
 * INHERIT after all of them ends DENY.
 *
 * `resolvePermissions` answers every permission at once (maps built once); `explainPermission`
 * walks the steps for one permission and records them. They are written separately on purpose,
 * and property tests hold them to the same answer.
 */
import { ROLE_NAMES } from './access.ts';
import { MODULE_NAMES, type ModuleCode, type Role } from './constants.ts';
import {
  DEFAULT_ROLE_RULES,
  type EffectiveStatus,
  type PermissionDefinition,
  type PermissionStatus,
} from './permissions.ts';

/** One (permission, status) of an override or an access rule. */
export interface PermissionSetting {
  permission: string;
  status: PermissionStatus;
}

/** A custom role or access rule as the explainer names it. */
export interface NamedRef {
  id: string;
  name: string;
}

export interface ResolutionRule extends NamedRef {
  /** A rule for one module speaks only of that module's permissions. */
  module?: ModuleCode | null;
  permissions: readonly PermissionSetting[];
}

export interface ResolutionRole extends NamedRef {
  /** In priority order. */
  rules: readonly ResolutionRule[];
}

export interface ResolutionInput {
  /** The permissions to answer (a workspace's slice of the catalogue). */
  catalogue: readonly PermissionDefinition[];
  enabledModules: readonly ModuleCode[];
  /** The member's workspace role as it counts (an organization OWNER or ADMIN acts as such). */
  role: Role | null;
  overrides: readonly PermissionSetting[];
  /** In priority order. */
  customRoles: readonly ResolutionRole[];
}

/** What decided a permission. */
export type PermissionSource =
  | { kind: 'override' }
  | { kind: 'custom_role'; role: NamedRef; rule: NamedRef }
  | { kind: 'default_role'; role: Role }
  | { kind: 'inherit' }
  | { kind: 'module_disabled' };
export const PERMISSION_SOURCE_KINDS = [
  'override',
  'custom_role',
  'default_role',
  'inherit',
  'module_disabled',
] as const satisfies readonly PermissionSource['kind'][];

export interface Resolution {
  status: EffectiveStatus;
  source: PermissionSource;
}

const isExplicit = (status: PermissionStatus | undefined): status is 'ALLOW' | 'DENY' =>
  status === 'ALLOW' || status === 'DENY';
const ref = ({ id, name }: NamedRef): NamedRef => ({ id, name });

/** The first status given to each permission (a list naming one twice counts its first). */
function statusesOf(settings: readonly PermissionSetting[]): Map<string, PermissionStatus> {
  const map = new Map<string, PermissionStatus>();
  for (const s of settings) if (!map.has(s.permission)) map.set(s.permission, s.status);
  return map;
}

interface Layer {
  source: PermissionSource;
  module: ModuleCode | null;
  statuses: ReadonlyMap<string, PermissionStatus>;
}

function layersOf(input: ResolutionInput): Layer[] {
  const layers: Layer[] = [
    { source: { kind: 'override' }, module: null, statuses: statusesOf(input.overrides) },
  ];
  for (const role of input.customRoles) {
    for (const rule of role.rules) {
      layers.push({
        source: { kind: 'custom_role', role: ref(role), rule: ref(rule) },
        module: rule.module ?? null,
        statuses: statusesOf(rule.permissions),
      });
    }
  }
  if (input.role) {
    layers.push({
      source: { kind: 'default_role', role: input.role },
      module: null,
      statuses: new Map(
        Object.entries(DEFAULT_ROLE_RULES[input.role].statuses) as [string, PermissionStatus][],
      ),
    });
  }
  return layers;
}

/** Every permission of the input's catalogue, keyed by permission key. */
export function resolvePermissions(input: ResolutionInput): Record<string, Resolution> {
  const layers = layersOf(input);
  const enabled = new Set(input.enabledModules);
  const result: Record<string, Resolution> = {};
  for (const permission of input.catalogue) {
    if (!enabled.has(permission.module)) {
      result[permission.key] = { status: 'DISABLED', source: { kind: 'module_disabled' } };
      continue;
    }
    let decided: Resolution | undefined;
    for (const layer of layers) {
      if (layer.module !== null && layer.module !== permission.module) continue;
      const status = layer.statuses.get(permission.key);
      if (isExplicit(status)) {
        decided = { status, source: layer.source };
        break;
      }
    }
    result[permission.key] = decided ?? { status: 'DENY', source: { kind: 'inherit' } };
  }
  return result;
}

// ---- the explainer ----------------------------------------------------------------------------

/** One step the explainer looked at, in order, with what it said of the permission. */
export type ExplanationStep =
  | { kind: 'module'; module: ModuleCode; enabled: boolean }
  | { kind: 'override'; status: PermissionStatus }
  | { kind: 'custom_role'; role: NamedRef; rule: NamedRef; status: PermissionStatus }
  | { kind: 'default_role'; role: Role | null; status: PermissionStatus };

export interface Explanation extends Resolution {
  permission: PermissionDefinition;
  /** The steps looked at, up to and including the one that decided. */
  steps: ExplanationStep[];
  /** The answer in words: "Denied by the custom role Packers, rule Label printing." */
  sentence: string;
}

/** The answer in words, for a permission of `module`. */
export function describeResolution(resolution: Resolution, module: ModuleCode): string {
  const { status, source } = resolution;
  const verdict = status === 'ALLOW' ? 'Allowed' : 'Denied';
  switch (source.kind) {
    case 'module_disabled':
      return `Disabled: the module ${MODULE_NAMES[module]} is switched off in this workspace.`;
    case 'override':
      return `${verdict} by the member's own override.`;
    case 'custom_role':
      return `${verdict} by the custom role ${source.role.name}, rule ${source.rule.name}.`;
    case 'default_role':
      return `${verdict} by the default role ${ROLE_NAMES[source.role]} (${DEFAULT_ROLE_RULES[source.role].name}).`;
    case 'inherit':
      return 'Denied: no override, custom role or default role allows or denies it, and a permission left to inherit ends denied.';
  }
}

/**
 * Why one permission of the input's catalogue is what it is: the steps looked at in order and
 * the one that decided. Undefined for a key that is not in the input's catalogue.
 */
export function explainPermission(input: ResolutionInput, key: string): Explanation | undefined {
  const permission = input.catalogue.find((p) => p.key === key);
  if (!permission) return undefined;
  const steps: ExplanationStep[] = [];
  const done = (resolution: Resolution): Explanation => ({
    permission,
    ...resolution,
    steps,
    sentence: describeResolution(resolution, permission.module),
  });
  const said = (settings: readonly PermissionSetting[]): PermissionStatus =>
    settings.find((s) => s.permission === key)?.status ?? 'INHERIT';

  const enabled = input.enabledModules.includes(permission.module);
  steps.push({ kind: 'module', module: permission.module, enabled });
  if (!enabled) return done({ status: 'DISABLED', source: { kind: 'module_disabled' } });

  const override = said(input.overrides);
  steps.push({ kind: 'override', status: override });
  if (isExplicit(override)) return done({ status: override, source: { kind: 'override' } });

  for (const role of input.customRoles) {
    for (const rule of role.rules) {
      const applies = !rule.module || rule.module === permission.module;
      const status = applies ? said(rule.permissions) : 'INHERIT';
      steps.push({ kind: 'custom_role', role: ref(role), rule: ref(rule), status });
      if (isExplicit(status)) {
        return done({ status, source: { kind: 'custom_role', role: ref(role), rule: ref(rule) } });
      }
    }
  }

  const byDefault: PermissionStatus =
    (input.role && DEFAULT_ROLE_RULES[input.role].statuses[key as never]) || 'INHERIT';
  steps.push({ kind: 'default_role', role: input.role, status: byDefault });
  if (isExplicit(byDefault) && input.role) {
    return done({ status: byDefault, source: { kind: 'default_role', role: input.role } });
  }
  return done({ status: 'DENY', source: { kind: 'inherit' } });
}
