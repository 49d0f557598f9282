import { Navigate, useSearchParams } from 'react-router';
import { redirectTarget } from '../lib/navigation';

/**
 * `/redirect?path=…` (spec §1, the helper route of the default container): goes on at once, in
 * place of itself in the history, to the path given when it is a safe in-app path (one leading
 * slash, same origin), else to the dashboard. Used to re-enter the page on screen (`hopPath`).
 */
export function RedirectHop() {
  const [params] = useSearchParams();
  return <Navigate to={redirectTarget(params.get('path'))} replace />;
}
