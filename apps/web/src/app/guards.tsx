import { useEffect } from 'react';
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import {
  dashboardPath,
  forgetRememberedPath,
  signInDestination,
  useAuthStore,
} from '../lib/auth-store';
import { isSharePath, loginPathFor, recordPage } from '../lib/navigation';
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
