import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import type { RouteHandle } from '../../lib/route-handle';

type LazyPage = (load: () => Promise<ComponentType>) => RouteObject['lazy'];
const handle = (h: RouteHandle) => h;

/** Routes of other features that app/router.tsx places here (a feature never imports another). */
export interface OrganizationSettingsExtra {
  /** More children of ps/organization-settings/:orgId (access rules, custom roles). */
  settings?: RouteObject[];
  /** Children of the client-access page (:clientId/permissions/). */
  clientAccess?: RouteObject[];
}

/**
 * ps/organization-settings/:orgId (redirects to detail): detail (Information), clients
 * (Workspaces, with :clientId/modules, :clientId/applications, :clientId/edit), users/:type
 * (internal or external, with :userId), activities, security (the MFA policy, OWNERs),
 * data-export and api-keys (OWNERs, ADMINs), webhooks (OWNERs, ADMINs; with :webhookId, an
 * endpoint and its delivery log); and a member's workspace access
 * (ps/organizations/:orgId/users/:userId/client-access). `lazyPage` is the router's chunk loader.
 */
export function organizationSettingsRoutes(
  lazyPage: LazyPage,
  extra: OrganizationSettingsExtra = {},
): RouteObject[] {
  return [
    {
      path: 'ps/organization-settings/:orgId',
      handle: handle({ crumb: 'Organization Settings' }),
      lazy: lazyPage(() =>
        import('./pages/OrganizationSettingsLayout').then((m) => m.OrganizationSettingsLayout),
      ),
      children: [
        { index: true, element: <Navigate to="detail" replace /> },
        {
          path: 'detail',
          handle: handle({
            title: 'Organization Information',
            crumb: 'Information',
            name: 'ps-OrgDetail',
          }),
          lazy: lazyPage(() => import('./pages/InformationPage').then((m) => m.InformationPage)),
        },
        {
          path: 'clients',
          handle: handle({ title: 'Workspaces', crumb: 'Workspaces', name: 'ps-OrgClients' }),
          children: [
            {
              index: true,
              lazy: lazyPage(() => import('./pages/WorkspacesPage').then((m) => m.WorkspacesPage)),
            },
            {
              path: ':clientId/edit',
              handle: handle({ title: 'Edit workspace', crumb: 'Edit' }),
              lazy: lazyPage(() =>
                import('./pages/WorkspaceEditPage').then((m) => m.WorkspaceEditPage),
              ),
            },
            {
              path: ':clientId/modules',
              handle: handle({ title: 'Workspace modules', crumb: 'Modules' }),
              lazy: lazyPage(() =>
                import('./pages/WorkspaceModulesPage').then((m) => m.WorkspaceModulesPage),
              ),
            },
            {
              path: ':clientId/applications',
              handle: handle({ title: 'Workspace applications', crumb: 'Applications' }),
              lazy: lazyPage(() =>
                import('./pages/WorkspaceApplicationsPage').then(
                  (m) => m.WorkspaceApplicationsPage,
                ),
              ),
            },
          ],
        },
        { path: 'users', children: [{ index: true, element: <Navigate to="internal" replace /> }] },
        {
          path: 'users/:type',
          handle: handle({ title: 'Organization Users', crumb: 'Users', name: 'ps-OrgUsers' }),
          children: [
            {
              index: true,
              lazy: lazyPage(() => import('./pages/OrgUsersPage').then((m) => m.OrgUsersPage)),
            },
            {
              path: ':userId',
              handle: handle({ title: 'Organization Member', crumb: 'Member', name: 'ps-OrgUser' }),
              lazy: lazyPage(() => import('./pages/OrgMemberPage').then((m) => m.OrgMemberPage)),
            },
          ],
        },
        {
          path: 'activities',
          handle: handle({
            title: 'Organization Activities',
            crumb: 'Activities',
            name: 'ps-OrgActivities',
          }),
          lazy: lazyPage(() => import('./pages/ActivitiesPage').then((m) => m.ActivitiesPage)),
        },
        {
          path: 'security',
          handle: handle({ title: 'Organization Security', crumb: 'Security' }),
          lazy: lazyPage(() => import('./pages/SecurityPage').then((m) => m.SecurityPage)),
        },
        {
          path: 'data-export',
          handle: handle({ title: 'Organization Data Export', crumb: 'Data export' }),
          lazy: lazyPage(() => import('./pages/DataExportPage').then((m) => m.DataExportPage)),
        },
        {
          path: 'api-keys',
          handle: handle({ title: 'Organization API Keys', crumb: 'API keys' }),
          lazy: lazyPage(() => import('./pages/ApiKeysPage').then((m) => m.ApiKeysPage)),
        },
        {
          path: 'webhooks',
          handle: handle({ title: 'Organization Webhooks', crumb: 'Webhooks' }),
          children: [
            {
              index: true,
              lazy: lazyPage(() => import('./pages/webhook-pages').then((m) => m.WebhooksPage)),
            },
            {
              path: ':webhookId',
              handle: handle({ title: 'Webhook endpoint', crumb: 'Endpoint' }),
              lazy: lazyPage(() => import('./pages/webhook-pages').then((m) => m.WebhookPage)),
            },
          ],
        },
        ...(extra.settings ?? []),
      ],
    },
    {
      path: 'ps/organizations/:orgId/users/:userId/client-access',
      handle: handle({ crumb: 'Workspace access' }),
      children: [
        {
          index: true,
          handle: handle({ title: 'Workspace access', name: 'ps-OrgUserClientAccess' }),
          lazy: lazyPage(() => import('./pages/ClientAccessPage').then((m) => m.ClientAccessPage)),
        },
        // Its child :clientId/permissions/ (one workspace's permissions): the permissions pages.
        ...(extra.clientAccess ?? []),
      ],
    },
  ];
}
