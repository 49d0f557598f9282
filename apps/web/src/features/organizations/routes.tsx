import type { ComponentType } from 'react';
import { Navigate, useParams, type RouteObject } from 'react-router';
import type { RouteHandle } from '../../lib/route-handle';

type LazyPage = (load: () => Promise<ComponentType>) => RouteObject['lazy'];
const handle = (h: RouteHandle) => h;

/** ps/organizations/:orgId itself: the organization's users (where inviting starts and ends). */
function ToOrganizationUsers() {
  const { orgId = '' } = useParams();
  return (
    <Navigate
      to={`/ps/organization-settings/${encodeURIComponent(orgId)}/users/internal`}
      replace
    />
  );
}

/**
 * Create an organization, add a workspace, invite or add a member (spec §2: the last two under
 * Organization Settings > Users); `lazyPage` is the router's chunk loader.
 */
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
    {
      path: 'ps/organizations/:orgId',
      handle: handle({ crumb: 'Organization Settings' }),
      children: [
        { index: true, Component: ToOrganizationUsers },
        {
          handle: handle({ crumb: 'Users' }),
          children: [
            {
              path: 'invite',
              handle: handle({ title: 'Invite a member', crumb: 'Invite', name: 'ps-OrgInvite' }),
              lazy: lazyPage(() =>
                import('./pages/InviteOrgMemberPage').then((m) => m.InviteOrgMemberPage),
              ),
            },
            {
              path: 'add',
              handle: handle({ title: 'Add a member', crumb: 'Add', name: 'ps-OrgAdd' }),
              lazy: lazyPage(() =>
                import('./pages/InviteOrgMemberPage').then((m) => m.AddOrgMemberPage),
              ),
            },
          ],
        },
      ],
    },
  ];
}
