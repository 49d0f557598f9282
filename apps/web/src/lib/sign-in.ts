import { useAuthStore } from './auth-store';
import { currentUserKey, fetchCurrentUser } from './current-user';
import { queryClient } from './query-client';

/**
 * What every successful sign-in does (e-mail or Google): load the user with the new token
 * (GET /v1/rest-auth/user/), then store the token, {user_id, email, can_create_client} and the
 * avatar and mark the tab signed in, all at once. The public-page guard then takes the user to
 * `destination`. Nothing is stored when loading the user fails, so the page can say why.
 */
export async function completeSignIn(token: string, destination: string): Promise<void> {
  const user = await fetchCurrentUser(undefined, token);
  queryClient.setQueryData(currentUserKey, user);
  useAuthStore.getState().signedIn(token, user, user.avatar ?? null, destination);
}
