import type { ComponentType } from 'react';
import { Navigate, useParams, type RouteObject } from 'react-router';
import type { RouteHandle } from '../../lib/route-handle';

type LazyPage = (load: () => Promise<ComponentType>) => RouteObject['lazy'];
const handle = (h: RouteHandle) => h;

/** Routes of other features that app/router.tsx places here (a feature never imports another). */
export interface WorkspaceSettingsExtra {
  /** More children of ps/client-settings/:id (access rules, custom roles). */
  settings?: RouteObject[];
  /** More children of user-list (:userId/permissions). */
  userList?: RouteObject[];
}

/** ps/users/:id itself: the workspace's users (where inviting starts and ends). */
function ToWorkspaceUsers() {
  const { id = '' } = useParams();
  return <Navigate to={`/ps/client-settings/${encodeURIComponent(id)}/user-list`} replace />;
}

/**
 * ps/client-settings/:id (redirects to client-detail): client-detail (name, logo, dashboard
 * button colour), client-module (Modules) and user-list (Users, with :userId, the user role);
 * ps/users/:id/invite and /add (breadcrumbs Workspace Settings > Users). `lazyPage` is the
 * router's chunk loader.
 */
export function workspaceSettingsRoutes(
  lazyPage: LazyPage,
  extra: WorkspaceSettingsExtra = {},
): RouteObject[] {
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
        {
          path: 'client-branding',
          handle: handle({
            title: 'Workspace Branding',
            crumb: 'Branding',
            name: 'ps-ClientBranding',
          }),
          lazy: lazyPage(() =>
            import('./pages/WorkspaceBrandingPage').then((m) => m.WorkspaceBrandingPage),
          ),
        },
        {
          path: 'user-list',
          handle: handle({ title: 'Workspace Users', crumb: 'Users', name: 'ps-ClientUserList' }),
          children: [
            {
              index: true,
              lazy: lazyPage(() =>
                import('./pages/WorkspaceUsersPage').then((m) => m.WorkspaceUsersPage),
              ),
            },
            {
              path: ':userId',
              handle: handle({ title: 'User Role', crumb: 'User role', name: 'ps-ClientUserRole' }),
              lazy: lazyPage(() =>
                import('./pages/WorkspaceMemberPage').then((m) => m.WorkspaceMemberPage),
              ),
            },
            ...(extra.userList ?? []),
          ],
        },
        ...(extra.settings ?? []),
      ],
    },
    {
      path: 'ps/users/:id',
      handle: handle({ crumb: 'Workspace Settings' }),
      children: [
        { index: true, Component: ToWorkspaceUsers },
        {
          handle: handle({ crumb: 'Users' }),
          children: [
            {
              path: 'invite',
              handle: handle({ title: 'Invite a member', crumb: 'Invite', name: 'ps-UserInvite' }),
              lazy: lazyPage(() =>
                import('./pages/WorkspaceInvitePage').then((m) => m.WorkspaceInvitePage),
              ),
            },
            {
              path: 'add',
              handle: handle({ title: 'Add a member', crumb: 'Add', name: 'ps-UserAdd' }),
              lazy: lazyPage(() =>
                import('./pages/WorkspaceInvitePage').then((m) => m.WorkspaceAddPage),
              ),
            },
          ],
        },
      ],
    },
  ];
}
