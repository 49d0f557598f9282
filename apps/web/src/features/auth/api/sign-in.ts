import { useAuthStore } from '../../../lib/auth-store';
import { currentUserKey, fetchCurrentUser } from '../../../lib/current-user';
import { queryClient } from '../../../lib/query-client';

/**
 * What every successful sign-in does (e-mail or Google): store the token, load the user
 * (GET /v1/rest-auth/user/), store {user_id, email, can_create_client} and the avatar, and mark
 * the tab signed in. The public-page guard then takes the user to `destination`.
 */
export async function completeSignIn(token: string, destination: string): Promise<void> {
  const store = useAuthStore.getState();
  store.setToken(token);
  try {
    const user = await fetchCurrentUser();
    queryClient.setQueryData(currentUserKey, user);
    useAuthStore.getState().signedIn(user, user.avatar ?? null, destination);
  } catch (error) {
    useAuthStore.getState().clear();
    throw error;
  }
}
