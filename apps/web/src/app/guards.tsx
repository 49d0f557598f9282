import { Center, Loader } from '@mantine/core';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useMatches, useSearchParams } from 'react-router';
import {
  dashboardPath,
  forgetRememberedPath,
  signInDestination,
  useAuthStore,
} from '../lib/auth-store';
import { isBillingPath, usePaymentMethodMode } from '../lib/payment-method-mode';
import { isSharePath, loginPathFor, recordPage } from '../lib/navigation';
import {
  enabledModules,
  findWorkspace,
  moduleOfPath,
  rememberChannel,
  selectWorkspace,
  setOrganizationParam,
  toStoredList,
  useTenancySync,
  workspaceDashboardPath,
} from '../lib/tenancy';
import { FullPageLoader } from './layout/FullPageLoader';

/**
 * Protected pages (spec §2 navigation guard): anonymous visitors go to the sign-in page with the
 * wanted path in `path`; while the stored token is being checked a loader is shown.
 */
export function RequireAuth() {
  const location = useLocation();
  const token = useAuthStore((s) => s.userToken);
  const isAuth = useAuthStore((s) => s.isAuth);
  const here = `${location.pathname}${location.search}${location.hash}`;
  const ready = Boolean(token) && isAuth;

  useEffect(() => {
    if (!ready) return;
    recordPage(here);
    // The user is back where they wanted to be: the remembered path has served its purpose.
    forgetRememberedPath();
    if (useAuthStore.getState().signInRedirect) useAuthStore.getState().clearSignInRedirect();
  }, [ready, here]);

  if (isSharePath(location.pathname)) return <Outlet />;
  if (!token) return <Navigate to={loginPathFor(here)} replace />;
  if (!isAuth) return <FullPageLoader label="Checking your session…" />;
  return <Outlet />;
}

/**
 * Sign-in, registration, password reset and Google pages: a signed-in user is sent back to the
 * page they came from (the `path` query, else history), else to the dashboard.
 */
export function PublicOnly() {
  const [params] = useSearchParams();
  const token = useAuthStore((s) => s.userToken);
  const isAuth = useAuthStore((s) => s.isAuth);
  const signInRedirect = useAuthStore((s) => s.signInRedirect);

  if (token && isAuth) {
    return <Navigate to={signInRedirect ?? signInDestination(params.get('path'))} replace />;
  }
  if (token) return <FullPageLoader label="Checking your session…" />;
  return <Outlet />;
}

/** `/`: the dashboard for a signed-in user (the current workspace's if any), else sign-in. */
export function RootRedirect() {
  const token = useAuthStore((s) => s.userToken);
  return <Navigate to={token ? dashboardPath() : '/login'} replace />;
}

/**
 * The workspace rules of the navigation guard (spec §2), around every page of the signed-in
 * container:
 * - a route with `orgId` not in the user's organization list reloads the list once; still
 *   missing, it goes to the dashboard;
 * - a route with `client_id`: the same check and reload; still missing, PSErrorPage. When it
 *   differs from the current workspace, that workspace and the user's role in it are loaded;
 * - a module path with no remembered channel for the workspace goes to the dashboard; a path
 *   whose module differs from the remembered one makes the first enabled module matching the path
 *   the channel, and goes to the dashboard when none matches;
 * - an empty organization list (spec §4) sends workspace pages to the dashboard, except an
 *   organization's billing pages when it is in payment-method mode (a card on file or an invoice).
 * It also keeps `org.param` (spec §3) equal to the route's `orgId`.
 */
export function WorkspaceGuard({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const params = useMatches().at(-1)?.params ?? {};
  const orgId = params.orgId;
  const clientId = params.client_id;
  const module = moduleOfPath(pathname);
  const { query } = useTenancySync();
  const currentClientId = useAuthStore((s) => s.current_client?.id);
  const channels = useAuthStore((s) => s.ps_current_channel);
  const [reloaded, setReloaded] = useState<ReadonlySet<string>>(() => new Set());
  const list = query.data;
  const refetch = query.refetch;
  // Spec §4: billing pages stay, even with an empty organization list, in payment-method mode.
  const billingPage = isBillingPath(pathname);
  const paymentMode = usePaymentMethodMode(orgId, billingPage && list?.length === 0);

  const workspace = clientId && list ? findWorkspace(clientId, toStoredList(list)) : null;
  const orgMissing = Boolean(orgId && list && !list.some((e) => e.organization.id === orgId));
  const clientMissing = Boolean(clientId && list && !workspace);
  const missingKey = orgMissing ? `org:${orgId}` : clientMissing ? `client:${clientId}` : null;
  const needsReload = missingKey !== null && !reloaded.has(missingKey);

  useEffect(() => {
    if (!needsReload || !missingKey) return;
    void refetch().finally(() => setReloaded((prev) => new Set(prev).add(missingKey)));
  }, [needsReload, missingKey, refetch]);

  const remembered = clientId ? channels[clientId] : undefined;
  const enabled = workspace ? enabledModules(workspace.client.modules) : [];
  const adoptChannel =
    module &&
    clientId &&
    workspace &&
    remembered &&
    remembered !== module &&
    enabled.includes(module)
      ? module
      : null;

  const known = Boolean(workspace);
  // The page's workspace becomes current on arrival, and again when another one is made current
  // while the page stays; a reset to none (an organization switch, on its way to the dashboard) is
  // not undone.
  const adopted = useRef<string | null>(null);
  useEffect(() => {
    if (!known || !clientId) return;
    if (clientId === currentClientId || (!currentClientId && adopted.current === clientId)) {
      adopted.current = clientId;
      return;
    }
    adopted.current = clientId;
    selectWorkspace(clientId, { keepChannel: true });
  }, [known, clientId, currentClientId]);

  useEffect(() => {
    if (adoptChannel && clientId) rememberChannel(clientId, adoptChannel);
  }, [adoptChannel, clientId]);

  useEffect(() => setOrganizationParam(orgId ?? null), [orgId]);

  const scoped = Boolean(orgId || clientId || module);
  if (!scoped) return children;
  if (!list) {
    if (query.isError) return children;
    return <PageLoader />;
  }
  if (list.length === 0) {
    if (billingPage && paymentMode.on === null) return <PageLoader />;
    if (billingPage && paymentMode.on) return children;
    return <Navigate to="/ps/dashboard" replace />;
  }
  if (needsReload || (missingKey && query.isFetching)) return <PageLoader />;
  if (orgMissing) return <Navigate to={dashboardPath()} replace />;
  if (clientMissing) {
    return <Navigate to={`/ps/error?client=${encodeURIComponent(clientId!)}`} replace />;
  }
  if (module) {
    const target = workspaceDashboardPath(clientId ?? currentClientId);
    if (!clientId || !remembered) return <Navigate to={target} replace />;
    if (remembered !== module && !enabled.includes(module)) return <Navigate to={target} replace />;
    if (remembered === module && !enabled.includes(module)) return <Navigate to={target} replace />;
  }
  return children;
}

function PageLoader() {
  return (
    <Center py="xl" role="status" aria-label="Loading your workspaces">
      <Loader size="sm" />
    </Center>
  );
}
