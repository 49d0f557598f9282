import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import type { RouteHandle } from '../../lib/route-handle';

type LazyPage = (load: () => Promise<ComponentType>) => RouteObject['lazy'];
const handle = (h: RouteHandle) => h;

/**
 * The invitation confirm pages (spec §2, outside the main container, reachable without signing
 * in); `lazyPage` is the router's chunk loader.
 */
export function invitationRoutes(lazyPage: LazyPage): RouteObject[] {
  return [
    {
      path: 'ps/clients/invitation',
      handle: handle({ title: 'Join a workspace', name: 'ps-ClientConfirm' }),
      lazy: lazyPage(() =>
        import('./pages/ConfirmInvitationPage').then((m) => m.ClientConfirmPage),
      ),
    },
    {
      path: 'ps/organizations/invitation',
      handle: handle({ title: 'Join an organization', name: 'ps-OrgConfirm' }),
      lazy: lazyPage(() => import('./pages/ConfirmInvitationPage').then((m) => m.OrgConfirmPage)),
    },
  ];
}
