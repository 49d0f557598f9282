import { render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from '../app/providers';
import { connectRouter, routes, type AppRouter } from '../app/router';
import { useAuthStore, type AuthUser } from '../lib/auth-store';
import { ada, tokenExpiringIn } from './api-mock';

/** The app's providers, for a test of one feature's component (features never import app/). */
export { AppProviders };

/** Renders the whole app (real routes, guards, providers) in memory at `path`. */
export function renderApp(path: string) {
  const router: AppRouter = createMemoryRouter(routes, { initialEntries: [path] });
  connectRouter(router);
  const view = render(
    <AppProviders env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  const location = () => {
    const { pathname, search } = router.state.location;
    return `${pathname}${search}`;
  };
  return { ...view, router, location };
}

/** A signed-in tab: a token with hours to live, the stored user, isAuth true. */
export function signIn(user: AuthUser = ada, minutesLeft = 600): string {
  const token = tokenExpiringIn(minutesLeft);
  useAuthStore.setState({
    userToken: token,
    user: { user_id: user.user_id, email: user.email, can_create_client: user.can_create_client },
    isAuth: true,
  });
  return token;
}
