import { MODULE_CODES, MODULE_NAMES } from '@portolan/contract';
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { MODULE_PATH_SEGMENTS } from '../../lib/tenancy/modules';

type LazyPage = (load: () => Promise<ComponentType>) => RouteObject['lazy'];

/**
 * The workspace pages of the signed-in container: the no-module page, PSErrorPage and each
 * module's home (`/<segment>/:client_id/home`, segments in lib/tenancy/modules.ts).
 */
export function moduleRoutes(
  lazyPage: LazyPage,
  /** Child routes each module home renders in its actions slot (an Outlet): Share. */
  homeActions: RouteObject[] = [],
): RouteObject[] {
  const noModule = {
    handle: { title: 'No Module', crumb: 'No module', name: 'ps-no-module' },
    lazy: lazyPage(() => import('./pages/NoModulePage').then((m) => m.NoModulePage)),
  };
  const home = lazyPage(() => import('./pages/ModuleHomePage').then((m) => m.ModuleHomePage));
  return [
    { path: 'ps/no-module', ...noModule },
    { path: 'ps/:client_id/no-module', ...noModule },
    {
      path: 'ps/error',
      handle: { title: 'Workspace Not Found', crumb: 'Workspace not found', name: 'PSErrorPage' },
      lazy: lazyPage(() => import('./pages/PSErrorPage').then((m) => m.PSErrorPage)),
    },
    ...MODULE_CODES.map((code) => ({
      path: `${MODULE_PATH_SEGMENTS[code]}/:client_id/home`,
      handle: { title: MODULE_NAMES[code], crumb: MODULE_NAMES[code], name: `${code}-home` },
      lazy: home,
      ...(homeActions.length > 0 && { children: homeActions }),
    })),
  ];
}
