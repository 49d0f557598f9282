import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import type { RouteHandle } from '../../lib/route-handle';

type LazyPage = (load: () => Promise<ComponentType>) => RouteObject['lazy'];
const handle = (h: RouteHandle) => h;

interface Resource {
  path: string;
  idParam: string;
  /** "Access rules", "Access rule". */
  many: string;
  one: string;
  /** The list's route name; the others add Create and Item. */
  name: string;
}

/** A list page, its create page and one item's page (the same page edits and creates). */
function resourceRoutes(
  { path, idParam, many, one, name }: Resource,
  list: RouteObject['lazy'],
  item: RouteObject['lazy'],
): RouteObject {
  return {
    path,
    handle: handle({ title: many, crumb: many, name }),
    children: [
      { index: true, lazy: list },
      {
        path: 'create',
        handle: handle({ title: `New ${one.toLowerCase()}`, crumb: 'New', name: `${name}Create` }),
        lazy: item,
      },
      {
        path: `:${idParam}`,
        handle: handle({ title: one, crumb: one, name: `${name}Item` }),
        lazy: item,
      },
    ],
  };
}

/**
 * access-rules/ (list, create, :ruleId) and custom-roles/ (list, create, :roleId): children of
 * the organization settings (`ps/organization-settings/:orgId`, `level` 'Org') and of the
 * workspace settings (`ps/client-settings/:id`, 'Client'); the pages read the level from the
 * route's parameter. `lazyPage` is the router's chunk loader.
 */
export function rulesAndRolesRoutes(lazyPage: LazyPage, level: 'Org' | 'Client'): RouteObject[] {
  return [
    resourceRoutes(
      {
        path: 'access-rules',
        idParam: 'ruleId',
        many: 'Access rules',
        one: 'Access rule',
        name: `ps-${level}AccessRules`,
      },
      lazyPage(() => import('./pages/AccessRulesPage').then((m) => m.AccessRulesPage)),
      lazyPage(() => import('./pages/AccessRuleEditPage').then((m) => m.AccessRuleEditPage)),
    ),
    resourceRoutes(
      {
        path: 'custom-roles',
        idParam: 'roleId',
        many: 'Custom roles',
        one: 'Custom role',
        name: `ps-${level}CustomRoles`,
      },
      lazyPage(() => import('./pages/CustomRolesPage').then((m) => m.CustomRolesPage)),
      lazyPage(() => import('./pages/CustomRoleEditPage').then((m) => m.CustomRoleEditPage)),
    ),
  ];
}

const permissionsHandle = handle({
  title: 'Permissions',
  crumb: 'Permissions',
  name: 'ps-UserPermissions',
});
const permissionsPage = (lazyPage: LazyPage) =>
  lazyPage(() => import('./pages/MemberPermissionsPage').then((m) => m.MemberPermissionsPage));

/** :userId/permissions: a child of the workspace settings' user-list (ps-ClientUserPermissions). */
export function workspaceMemberPermissionsRoute(lazyPage: LazyPage): RouteObject {
  return {
    path: ':userId/permissions',
    handle: { ...permissionsHandle, name: 'ps-ClientUserPermissions' },
    lazy: permissionsPage(lazyPage),
  };
}

/** :clientId/permissions/: a child of ps/organizations/:orgId/users/:userId/client-access. */
export function clientAccessPermissionsRoute(lazyPage: LazyPage): RouteObject {
  return {
    path: ':clientId/permissions',
    handle: { ...permissionsHandle, name: 'ps-OrgUserClientPermissions' },
    lazy: permissionsPage(lazyPage),
  };
}

/** ps/:currentClientId/user-permissions/:userId: a member's (or one's own) permissions. */
export function userPermissionsRoutes(lazyPage: LazyPage): RouteObject[] {
  return [
    {
      path: 'ps/:currentClientId/user-permissions/:userId',
      handle: permissionsHandle,
      lazy: permissionsPage(lazyPage),
    },
  ];
}
