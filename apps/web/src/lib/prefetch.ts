import { useAuthStore } from './auth-store';
import { publicConfigQueryOptions } from './config';
import { currentUserQueryOptions } from './current-user';
import { queryClient } from './query-client';
import { myOrganizationsQueryOptions } from './tenancy/api';

/**
 * Starts the reads every first screen needs as soon as the entry script runs, instead of after
 * the route's lazy chunks have loaded and rendered: the build switches for everyone; for a
 * signed-in visitor also the user (the dashboard's heading, the avatar) and their organizations
 * (the header's workspace menu, the dashboard). The hooks that need them later find them in the
 * query cache, on their way or done. This took one network round trip off the dashboard's LCP.
 */
export function prefetchFirstScreen(): void {
  void queryClient.prefetchQuery(publicConfigQueryOptions());
  if (!useAuthStore.getState().userToken) return;
  void queryClient.prefetchQuery(currentUserQueryOptions());
  void queryClient.prefetchQuery(myOrganizationsQueryOptions());
}
