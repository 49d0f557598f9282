import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import type { RouteHandle } from '../../lib/route-handle';

type LazyPage = (load: () => Promise<ComponentType>) => RouteObject['lazy'];
const handle = (h: RouteHandle) => h;

/**
 * The public page a share link opens (spec §2: a path containing /share/ needs no sign-in):
 * `/share/:token`, and the same with anything after the token (a link pasted with a trailing
 * segment still opens). app/router.tsx puts it among the pages open to everyone.
 */
export function sharedViewRoutes(lazyPage: LazyPage): RouteObject[] {
  const page = {
    handle: handle({ title: 'Shared page', name: 'share' }),
    lazy: lazyPage(() => import('./pages/SharedViewPage').then((m) => m.SharedViewPage)),
  };
  return [
    { path: 'share/:token', ...page },
    { path: 'share/:token/*', ...page },
  ];
}

/**
 * The Share button of a module home, as a child route its page renders in its actions slot
 * (an Outlet): the modules feature stays unaware of this one.
 */
export function moduleHomeShareRoute(lazyPage: LazyPage): RouteObject {
  return {
    index: true,
    lazy: lazyPage(() => import('./components/ShareAction').then((m) => m.ShareAction)),
  };
}
