import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import type { RouteHandle } from '../../app/route-handle';

type LazyPage = (load: () => Promise<ComponentType>) => RouteObject['lazy'];
const handle = (h: RouteHandle) => h;

/**
 * ps/client-settings/:id (redirects to client-detail): client-detail (name, logo, dashboard
 * button colour) and client-module (Modules). `lazyPage` is the router's chunk loader.
 */
export function workspaceSettingsRoutes(lazyPage: LazyPage): RouteObject[] {
  return [
    {
      path: 'ps/client-settings/:id',
      handle: handle({ crumb: 'Workspace Settings' }),
      lazy: lazyPage(() =>
        import('./pages/WorkspaceSettingsLayout').then((m) => m.WorkspaceSettingsLayout),
      ),
      children: [
        { index: true, element: <Navigate to="client-detail" replace /> },
        {
          path: 'client-detail',
          handle: handle({
            title: 'Workspace Settings',
            crumb: 'Information',
            name: 'ps-ClientDetail',
          }),
          lazy: lazyPage(() =>
            import('./pages/WorkspaceDetailPage').then((m) => m.WorkspaceDetailPage),
          ),
        },
        {
          path: 'client-module',
          handle: handle({ title: 'Workspace Modules', crumb: 'Modules', name: 'ps-ClientModule' }),
          lazy: lazyPage(() =>
            import('./pages/WorkspaceModulesPage').then((m) => m.WorkspaceModulesPage),
          ),
        },
      ],
    },
  ];
}
