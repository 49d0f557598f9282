import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { billingRoutes, subscriptionGateRoute } from '../features/billing/routes';
import { invitationRoutes } from '../features/invitations/routes';
import { moduleRoutes } from '../features/modules/routes';
import { organizationSettingsRoutes } from '../features/organization-settings/routes';
import { organizationRoutes } from '../features/organizations/routes';
import {
  clientAccessPermissionsRoute,
  rulesAndRolesRoutes,
  userPermissionsRoutes,
  workspaceMemberPermissionsRoute,
} from '../features/permissions/routes';
import { workspaceSettingsRoutes } from '../features/workspace-settings/routes';
import { releaseNotesRoutes } from '../features/release-notes/routes';
import { moduleHomeShareRoute, sharedViewRoutes } from '../features/share-links/routes';
import { registerNavigator } from '../lib/navigation';
import { showNewerVersionToast } from '../lib/toasts';
import { PublicOnly, RequireAuth, RootRedirect } from './guards';
import { FullPageLoader } from './layout/FullPageLoader';
import { RootLayout } from './layout/RootLayout';
import { RouteErrorBoundary } from './layout/RouteErrorBoundary';
import type { RouteHandle } from '../lib/route-handle';

/**
 * A lazily loaded page (every page is its own chunk). A failed chunk load means a newer version
 * was deployed: say so with a Reload button, then let the error boundary show the page state.
 */
export function lazyPage(load: () => Promise<ComponentType>): RouteObject['lazy'] {
  return async () => {
    try {
      return { Component: await load() };
    } catch (error) {
      showNewerVersionToast();
      throw error;
    }
  };
}

const handle = (h: RouteHandle) => h;

/** The layouts are chunks of their own too: the first page only loads the one it needs. */
export const authLayout = lazyPage(() => import('./layout/AuthLayout').then((m) => m.AuthLayout));
const appLayout = lazyPage(() => import('./layout/AppLayout').then((m) => m.AppLayout));

const dashboard = {
  handle: handle({ title: 'Portal Dashboard', crumb: 'Dashboard', name: 'ps-dashboard' }),
  lazy: lazyPage(() =>
    import('../features/dashboard/pages/DashboardPage').then((m) => m.DashboardPage),
  ),
} satisfies Partial<RouteObject>;

const notFound = {
  handle: handle({ title: 'Page Not Found', crumb: 'Page not found', name: 'NotFound' }),
  lazy: lazyPage(() => import('../features/errors/pages/NotFoundPage').then((m) => m.NotFoundPage)),
} satisfies Partial<RouteObject>;

export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootLayout,
    ErrorBoundary: RouteErrorBoundary,
    HydrateFallback: () => <FullPageLoader />,
    children: [
      { index: true, Component: RootRedirect },

      // Public pages a signed-in user is sent away from.
      {
        Component: PublicOnly,
        children: [
          {
            lazy: authLayout,
            children: [
              {
                path: 'login',
                handle: handle({ title: 'Sign in', name: 'Login' }),
                lazy: lazyPage(() =>
                  import('../features/auth/pages/LoginPage').then((m) => m.LoginPage),
                ),
              },
              {
                path: 'register',
                handle: handle({ title: 'Create your account', name: 'Register' }),
                lazy: lazyPage(() =>
                  import('../features/auth/pages/RegisterPage').then((m) => m.RegisterPage),
                ),
              },
              {
                path: 'forgot-password',
                handle: handle({ title: 'Reset your password', name: 'ForgotPassword' }),
                lazy: lazyPage(() =>
                  import('../features/auth/pages/ForgotPasswordPage').then(
                    (m) => m.ForgotPasswordPage,
                  ),
                ),
              },
              {
                path: 'google-auth',
                handle: handle({ title: 'Signing in with Google', name: 'GoogleLogin' }),
                lazy: lazyPage(() =>
                  import('../features/auth/pages/GoogleAuthPage').then((m) => m.GoogleAuthPage),
                ),
              },
            ],
          },
        ],
      },

      // Public pages open to everyone.
      {
        lazy: authLayout,
        children: [
          ...invitationRoutes(lazyPage),
          // Share links (spec §2: any path containing /share/ is public), signed in or not.
          ...sharedViewRoutes(lazyPage),
          {
            path: 'reset-password',
            handle: handle({ title: 'Choose a new password', name: 'ResetPassword' }),
            lazy: lazyPage(() =>
              import('../features/auth/pages/ResetPasswordPage').then((m) => m.ResetPasswordPage),
            ),
          },
          {
            path: 'error',
            handle: handle({ title: 'Error', name: 'Error' }),
            lazy: lazyPage(() =>
              import('../features/errors/pages/ErrorPage').then((m) => m.ErrorPage),
            ),
          },
          {
            path: 'no-access',
            handle: handle({ title: 'Access Denied!', name: 'NoAccess' }),
            lazy: lazyPage(() =>
              import('../features/errors/pages/NoAccessPage').then((m) => m.NoAccessPage),
            ),
          },
          {
            path: 'server-error',
            handle: handle({ title: 'Server Error', name: 'ServerError' }),
            lazy: lazyPage(() =>
              import('../features/errors/pages/ServerErrorPage').then((m) => m.ServerErrorPage),
            ),
          },
        ],
      },

      // The default container (label Home), for signed-in users.
      {
        Component: RequireAuth,
        children: [
          {
            lazy: appLayout,
            handle: handle({ crumb: 'Home' }),
            children: [
              // The subscription gate (spec §4), a pathless route around every signed-in page.
              subscriptionGateRoute(lazyPage, [
                { path: 'ps/dashboard', ...dashboard },
                { path: 'ps/:client_id/dashboard', ...dashboard },
                {
                  path: 'ps/profile',
                  handle: handle({
                    title: 'My Settings',
                    crumb: 'My Settings',
                    name: 'ps-profile',
                  }),
                  lazy: lazyPage(() =>
                    import('../features/profile/pages/ProfilePage').then((m) => m.ProfilePage),
                  ),
                },
                ...moduleRoutes(lazyPage, [moduleHomeShareRoute(lazyPage)]),
                ...organizationRoutes(lazyPage),
                // The permission pages sit inside the settings' routes (their tabs, breadcrumbs).
                ...organizationSettingsRoutes(lazyPage, {
                  settings: [...rulesAndRolesRoutes(lazyPage, 'Org'), ...billingRoutes(lazyPage)],
                  clientAccess: [clientAccessPermissionsRoute(lazyPage)],
                }),
                ...workspaceSettingsRoutes(lazyPage, {
                  settings: rulesAndRolesRoutes(lazyPage, 'Client'),
                  userList: [workspaceMemberPermissionsRoute(lazyPage)],
                }),
                ...userPermissionsRoutes(lazyPage),
              ]),
              // The platform administrators' pages: about no organization, so outside the gate.
              ...releaseNotesRoutes(lazyPage),
              // The helper hop (spec §1 "redirect (helper)"): the page it leads to has its own gate.
              {
                path: 'redirect',
                handle: handle({ name: 'redirect' }),
                lazy: lazyPage(() => import('./RedirectHop').then((m) => m.RedirectHop)),
              },
            ],
          },
        ],
      },

      // /not-found and every unknown path (including other /share/ paths, which are public): inside
      // the app shell for a signed-in user, the standalone public page for anyone else.
      {
        lazy: lazyPage(() => import('./layout/NotFoundLayout').then((m) => m.NotFoundLayout)),
        handle: handle({ crumb: 'Home' }),
        children: [
          { path: 'not-found', ...notFound },
          { path: '*', ...notFound },
        ],
      },
    ],
  },
];

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/** Lets code outside React (relogin, the API client) navigate with the router. */
export function connectRouter(router: AppRouter): void {
  registerNavigator({
    navigate: (to, options) => void router.navigate(to, options),
    currentPath: () => {
      const { pathname, search, hash } = router.state.location;
      return `${pathname}${search}${hash}`;
    },
  });
}

export function createAppRouter(): AppRouter {
  const router = createBrowserRouter(routes);
  connectRouter(router);
  return router;
}
