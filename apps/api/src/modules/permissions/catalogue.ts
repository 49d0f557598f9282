import {
  APP_PROFILES,
  DEFAULT_ROLE_RULES,
  groupByModuleAndGroup,
  MODULE_NAMES,
  permissionsOfModules,
  ROLES,
  type AppProfile,
  type PermissionCatalogue,
  type PermissionDefinition,
} from '@portolan/contract';

/** The permissions this app profile's workspaces have (its modules' part of the catalogue). */
export const catalogueSlice = (appProfile: AppProfile): readonly PermissionDefinition[] =>
  permissionsOfModules(APP_PROFILES[appProfile]);

/**
 * Any per-permission items arranged as the screens show them: modules, their groups, the items.
 * `extra` adds fields to a module's entry (a workspace's `enabled`).
 */
export function arrange<T extends { key: string }, M extends object>(
  appProfile: AppProfile,
  items: readonly T[],
  extra: (module: PermissionDefinition['module']) => M,
) {
  return groupByModuleAndGroup(items, APP_PROFILES[appProfile]).map((m) => ({
    module: m.module,
    name: MODULE_NAMES[m.module],
    ...extra(m.module),
    groups: m.groups.map((g) => ({ key: g.group.key, name: g.group.name, permissions: g.items })),
  }));
}

/** GET …/permissions/catalogue/: the app profile's permissions by module and group, and the default roles. */
export function catalogueFor(appProfile: AppProfile): PermissionCatalogue {
  const slice = catalogueSlice(appProfile);
  return {
    modules: arrange(
      appProfile,
      slice.map((p) => ({ key: p.key, name: p.name })),
      () => ({}),
    ),
    default_roles: ROLES.map((role) => {
      const { name, statuses } = DEFAULT_ROLE_RULES[role];
      return {
        role,
        name,
        permissions: slice.flatMap((p) => {
          const status = (statuses as Record<string, 'ALLOW' | 'DENY' | undefined>)[p.key];
          return status ? [{ permission: p.key, status }] : [];
        }),
      };
    }),
  };
}
