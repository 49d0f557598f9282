import { MODULE_CODES, MODULE_NAMES, type ModuleCode } from '@portolan/contract';

/**
 * Module paths (spec §2 "Module paths"): a path containing `/<segment>/` belongs to that module.
 * ROG, MAP, RA, DS, MT and DC are the specification's; TR, PF and SKUF are ours (ARCHITECTURE.md).
 */
export const MODULE_PATH_SEGMENTS: Record<ModuleCode, string> = {
  ROG: 'rw',
  MAP: 'mw',
  RA: 'ra',
  DS: 'ds',
  MT: 'mt',
  DC: 'dc',
  TR: 'tr',
  PF: 'pf',
  SKUF: 'skuf',
};

export interface ModuleState {
  module: ModuleCode | string;
  enabled: boolean;
}

export function isModuleCode(value: unknown): value is ModuleCode {
  return typeof value === 'string' && (MODULE_CODES as readonly string[]).includes(value);
}

export function moduleName(code: string): string {
  return isModuleCode(code) ? MODULE_NAMES[code] : code;
}

/** The module a path belongs to (the first `/<segment>/` of a module in it), else null. */
export function moduleOfPath(pathname: string): ModuleCode | null {
  const path = pathname.endsWith('/') ? pathname : `${pathname}/`;
  for (const code of MODULE_CODES) {
    if (path.includes(`/${MODULE_PATH_SEGMENTS[code]}/`)) return code;
  }
  return null;
}

/** A module's home in a workspace: `/tr/<id>/home`. */
export function moduleHomePath(module: ModuleCode, clientId: string): string {
  return `/${MODULE_PATH_SEGMENTS[module]}/${encodeURIComponent(clientId)}/home`;
}

/** The page for a workspace with no enabled module. */
export function noModulePath(clientId: string): string {
  return `/ps/${encodeURIComponent(clientId)}/no-module`;
}

export function workspaceDashboardPath(clientId: string | null | undefined): string {
  return clientId ? `/ps/${encodeURIComponent(clientId)}/dashboard` : '/ps/dashboard';
}

/** The enabled modules of a workspace, in the order of MODULE_CODES. */
export function enabledModules(modules: readonly ModuleState[] | undefined): ModuleCode[] {
  const on = new Set((modules ?? []).filter((m) => m.enabled).map((m) => m.module));
  return MODULE_CODES.filter((code) => on.has(code));
}

/**
 * The default channel of a workspace (spec §4): its first enabled module, ROG skipped (ROG only
 * when it is the one module on), or null when none is enabled.
 */
export function defaultChannel(modules: readonly ModuleState[] | undefined): ModuleCode | null {
  const on = enabledModules(modules);
  return on.find((m) => m !== 'ROG') ?? on[0] ?? null;
}

/** Where a workspace opens: its default channel's home, else the no-module page. */
export function workspaceHomePath(
  clientId: string,
  modules: readonly ModuleState[] | undefined,
): string {
  const channel = defaultChannel(modules);
  return channel ? moduleHomePath(channel, clientId) : noModulePath(clientId);
}
