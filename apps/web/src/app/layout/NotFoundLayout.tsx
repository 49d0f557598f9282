import { lazy, Suspense } from 'react';
import { useAuthStore } from '../../lib/auth-store';
import { FullPageLoader } from './FullPageLoader';

const AppLayout = lazy(() => import('./AppLayout').then((m) => ({ default: m.AppLayout })));
const AuthLayout = lazy(() => import('./AuthLayout').then((m) => ({ default: m.AuthLayout })));

/**
 * The frame of the not-found page (/not-found and every unknown path): a signed-in user keeps the
 * app shell (header, sidebar, breadcrumbs), an anonymous visitor gets the standalone public page.
 * Only the layout in use is loaded; while a stored token is being checked, a loader is shown.
 */
export function NotFoundLayout() {
  const token = useAuthStore((s) => s.userToken);
  const isAuth = useAuthStore((s) => s.isAuth);

  if (token && !isAuth) return <FullPageLoader label="Checking your session…" />;
  return (
    <Suspense fallback={<FullPageLoader />}>{token ? <AppLayout /> : <AuthLayout />}</Suspense>
  );
}
