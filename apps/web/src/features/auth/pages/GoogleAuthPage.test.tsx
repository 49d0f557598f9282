import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../../../lib/auth-store';
import { ada, apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp } from '../../../test/render-app';

describe('GoogleAuthPage', () => {
  it('posts code and state once, signs in and goes to the path the server remembered', async () => {
    const mock = mockApi({
      'POST /v1/social-auth/google/': json({ token: 'google-token', path: '/ps/profile' }),
      'GET /v1/rest-auth/user/': json(ada),
    });
    const app = renderApp('/google-auth?code=the-code&state=the-state');

    await waitFor(() => expect(app.location()).toBe('/ps/profile'));
    const posts = mock.callsTo('POST /v1/social-auth/google/');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.body).toEqual({ code: 'the-code', state: 'the-state' });
    expect(useAuthStore.getState()).toMatchObject({ userToken: 'google-token', isAuth: true });
  });

  it('goes to the dashboard when no path comes back', async () => {
    mockApi({
      'POST /v1/social-auth/google/': json({ token: 'google-token', path: null }),
      'GET /v1/rest-auth/user/': json(ada),
    });
    const app = renderApp('/google-auth?code=c&state=s');
    await waitFor(() => expect(app.location()).toBe('/ps/dashboard'));
  });

  it('shows an alert with the way back to sign-in when Google fails', async () => {
    mockApi({
      'POST /v1/social-auth/google/': apiError(400, 'OIDC_FAILED', 'Could not verify.'),
    });
    renderApp('/google-auth?code=c&state=s');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Google could not confirm who you are',
    );
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');
    expect(useAuthStore.getState().userToken).toBeNull();
  });

  it('does not call the API when Google sent the user back with an error', async () => {
    const mock = mockApi();
    renderApp('/google-auth?error=access_denied');
    expect(await screen.findByRole('alert')).toHaveTextContent('cancelled or refused');
    expect(mock.calls).toHaveLength(0);
  });
});
