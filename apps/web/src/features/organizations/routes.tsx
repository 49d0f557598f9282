import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import type { RouteHandle } from '../../app/route-handle';

type LazyPage = (load: () => Promise<ComponentType>) => RouteObject['lazy'];
const handle = (h: RouteHandle) => h;

/** Create an organization, add a workspace (spec §2); `lazyPage` is the router's chunk loader. */
export function organizationRoutes(lazyPage: LazyPage): RouteObject[] {
  return [
    {
      path: 'ps/organizations/create',
      handle: handle({
        title: 'Create an organization',
        crumb: 'Create an organization',
        name: 'ps-OrgCreate',
      }),
      lazy: lazyPage(() =>
        import('./pages/CreateOrganizationPage').then((m) => m.CreateOrganizationPage),
      ),
    },
    {
      path: 'ps/organizations/:orgId/clients/add',
      handle: handle({ title: 'Add a workspace', crumb: 'Add a workspace', name: 'ps-ClientAdd' }),
      lazy: lazyPage(() => import('./pages/AddWorkspacePage').then((m) => m.AddWorkspacePage)),
    },
  ];
}
