import { Messages } from '@portolan/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../../../lib/auth-store';
import { ada, apiError, json, mockApi, publicConfig } from '../../../test/api-mock';
import { renderApp } from '../../../test/render-app';
import { ACTIVATION_STORAGE_KEY } from '../api/activation-storage';
import { LoginMessages } from './LoginPage';

async function fillAndSubmit(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByRole('textbox', { name: 'E-mail' }), email);
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

describe('LoginPage', () => {
  it('trims the e-mail, signs in, stores the user and goes to the dashboard', async () => {
    const mock = mockApi({
      'GET /v1/config': json(publicConfig),
      'POST /v1/rest-auth/app/login/': json({ token: 'the-token' }),
      'GET /v1/rest-auth/user/': json({ ...ada, avatar: '/uploads/ada.png' }),
    });
    const app = renderApp('/login');

    await fillAndSubmit('   ada@example.com  ', 'correct horse battery');

    await waitFor(() => expect(app.location()).toBe('/ps/dashboard'));
    expect(mock.callsTo('POST /v1/rest-auth/app/login/')[0]?.body).toEqual({
      email: 'ada@example.com',
      password: 'correct horse battery',
    });
    const userCall = mock.callsTo('GET /v1/rest-auth/user/')[0];
    expect(userCall?.headers.get('Authorization')).toBe('Bearer the-token');
    expect(useAuthStore.getState()).toMatchObject({
      userToken: 'the-token',
      isAuth: true,
      avatarURL: '/uploads/ada.png',
      user: { user_id: ada.user_id, email: 'ada@example.com', can_create_client: true },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada' })).toBeVisible();
  });

  it('stores nothing and says so when the user cannot be loaded after sign-in', async () => {
    mockApi({
      'GET /v1/config': json(publicConfig),
      'POST /v1/rest-auth/app/login/': json({ token: 'the-token' }),
      'GET /v1/rest-auth/user/': apiError(503, 'SERVICE_UNAVAILABLE', 'Down for a moment.'),
    });
    const app = renderApp('/login');

    await fillAndSubmit('ada@example.com', 'correct horse battery');

    expect(
      await screen.findByText('We could not sign you in right now. Please try again in a moment.'),
    ).toBeVisible();
    // The server-error toast of §8 is shown too (503 is a 5xx).
    expect(await screen.findByText(Messages.serverError)).toBeVisible();
    expect(app.location()).toBe('/login');
    expect(useAuthStore.getState()).toMatchObject({ userToken: null, isAuth: false });
    expect(screen.getByRole('textbox', { name: 'E-mail' })).toHaveValue('ada@example.com');
  });

  it('goes to the path query after signing in', async () => {
    mockApi({
      'GET /v1/config': json(publicConfig),
      'POST /v1/rest-auth/app/login/': json({ token: 'the-token' }),
      'GET /v1/rest-auth/user/': json(ada),
    });
    const app = renderApp('/login?path=%2Fps%2Fprofile');
    await fillAndSubmit('ada@example.com', 'correct horse battery');
    await waitFor(() => expect(app.location()).toBe('/ps/profile'));
  });

  it('shows INVALID_CREDENTIALS as "The e-mail or password is incorrect."', async () => {
    mockApi({
      'GET /v1/config': json(publicConfig),
      'POST /v1/rest-auth/app/login/': apiError(400, 'INVALID_CREDENTIALS', 'Invalid credentials.'),
    });
    const app = renderApp('/login');

    await fillAndSubmit('ada@example.com', 'wrong password');

    expect(await screen.findByRole('alert')).toHaveTextContent(LoginMessages.invalidCredentials);
    expect(LoginMessages.invalidCredentials).toBe('The e-mail or password is incorrect.');
    expect(app.location()).toBe('/login');
    expect(useAuthStore.getState().userToken).toBeNull();
  });

  it('puts the server validation details on the fields', async () => {
    mockApi({
      'GET /v1/config': json(publicConfig),
      'POST /v1/rest-auth/app/login/': apiError(400, 'VALIDATION_ERROR', 'Check the form.', [
        { field: 'email', message: 'This e-mail domain does not accept mail.' },
        { field: 'password', message: 'Use at most 256 characters.' },
      ]),
    });
    renderApp('/login');

    await fillAndSubmit('ada@example.com', 'pw');

    const email = screen.getByRole('textbox', { name: 'E-mail' });
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(email).toHaveAccessibleDescription('This e-mail domain does not accept mail.');
    expect(screen.getByText('Use at most 256 characters.')).toBeVisible();
  });

  it('checks the fields before calling the API', async () => {
    const mock = mockApi({ 'GET /v1/config': json(publicConfig) });
    renderApp('/login');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter your e-mail address.')).toBeVisible();
    expect(screen.getByText('Enter your password.')).toBeVisible();
    expect(mock.callsTo('POST /v1/rest-auth/app/login/')).toHaveLength(0);
  });

  it('says to wait on RATE_LIMITED', async () => {
    mockApi({
      'GET /v1/config': json(publicConfig),
      'POST /v1/rest-auth/app/login/': apiError(429, 'RATE_LIMITED', 'Slow down.'),
    });
    renderApp('/login');
    await fillAndSubmit('ada@example.com', 'whatever1');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many attempts. Try again in a few minutes.',
    );
  });

  it('ACCOUNT_NOT_ACTIVATED leads to the code step of the register page', async () => {
    mockApi({
      'GET /v1/config': json(publicConfig),
      'POST /v1/rest-auth/app/login/': apiError(409, 'ACCOUNT_NOT_ACTIVATED', 'Not activated.', {
        token: 'activation-token',
        email: 'ada@example.com',
      }),
    });
    const app = renderApp('/login?path=%2Fps%2Fprofile');
    // The way to register keeps the page to come back to, as does this detour.
    expect(await screen.findByRole('link', { name: 'Create an account' })).toHaveAttribute(
      'href',
      '/register?path=%2Fps%2Fprofile',
    );

    await fillAndSubmit('ada@example.com', 'correct horse battery');

    await waitFor(() => expect(app.location()).toBe('/register?path=%2Fps%2Fprofile'));
    expect(await screen.findByText(/We sent a code to/)).toHaveTextContent(
      'We sent a code to ada@example.com.',
    );
    expect(JSON.parse(window.sessionStorage.getItem(ACTIVATION_STORAGE_KEY) ?? '{}')).toEqual({
      token: 'activation-token',
      email: 'ada@example.com',
    });
  });

  it('shows Register and Google only when the config allows them', async () => {
    mockApi({
      'GET /v1/config': json({
        ...publicConfig,
        features: { ...publicConfig.features, google_login: true, registration: false },
      }),
    });
    renderApp('/login?path=%2Fps%2Fprofile');

    const google = await screen.findByRole('link', { name: 'Sign in with Google' });
    expect(google).toHaveAttribute('href', '/v1/social-auth/google/start/?path=%2Fps%2Fprofile');
    expect(screen.queryByRole('link', { name: 'Create an account' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });

  it('shows the Register link and no Google button with the default switches', async () => {
    mockApi({ 'GET /v1/config': json(publicConfig) });
    renderApp('/login');
    expect(await screen.findByRole('link', { name: 'Create an account' })).toHaveAttribute(
      'href',
      '/register',
    );
    expect(screen.queryByRole('link', { name: 'Sign in with Google' })).toBeNull();
  });
});
