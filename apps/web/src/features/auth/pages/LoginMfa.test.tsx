import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../../../lib/auth-store';
import { ada, apiError, json, mockApi, publicConfig } from '../../../test/api-mock';
import { renderApp } from '../../../test/render-app';
import { signInWithPassword } from '../../../test/second-step';
import { MfaSignInMessages } from '../components/MfaSignInStep';

const LOGIN = 'POST /v1/rest-auth/app/login/';
const MFA = 'POST /v1/rest-auth/app/login/mfa/';
const challenge = { mfa_required: true, mfa_token: 'mfa-1', methods: ['totp', 'recovery_code'] };

const digit = (n: number) => screen.getByRole('textbox', { name: new RegExp(`digit ${n} of 6`) });

describe('LoginPage: the second step', () => {
  it('takes the code from the authenticator app, then signs in and goes to the path', async () => {
    const mock = mockApi({
      'GET /v1/config': json(publicConfig),
      [LOGIN]: json(challenge),
      [MFA]: json({ token: 'the-token' }),
      'GET /v1/rest-auth/user/': json(ada),
    });
    const app = renderApp('/login?path=%2Fps%2Fprofile');
    const user = await signInWithPassword();

    // No session yet: nothing stored, still on /login.
    expect(useAuthStore.getState().userToken).toBeNull();
    expect(digit(1)).toHaveFocus();
    expect(digit(1)).toHaveAttribute('autocomplete', 'one-time-code');
    // Checked here first: an incomplete code is not sent.
    await user.keyboard('123');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText('Enter the 6-digit code from your authenticator app.'),
    ).toBeVisible();
    expect(mock.callsTo(MFA)).toHaveLength(0);

    await user.click(digit(4));
    await user.keyboard('456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    await waitFor(() => expect(app.location()).toBe('/ps/profile'));
    expect(mock.callsTo(MFA)[0]?.body).toEqual({ mfa_token: 'mfa-1', code: '123456' });
    expect(mock.callsTo('GET /v1/rest-auth/user/')[0]?.headers.get('Authorization')).toBe(
      'Bearer the-token',
    );
    expect(useAuthStore.getState()).toMatchObject({ userToken: 'the-token', isAuth: true });
  });

  it('takes a recovery code instead; a wrong one is said on the field', async () => {
    const mock = mockApi({
      'GET /v1/config': json(publicConfig),
      [LOGIN]: json(challenge),
      [MFA]: [
        apiError(400, 'INVALID_CODE', 'This recovery code is not valid or was used.', [
          { field: 'recovery_code', message: 'This recovery code is not valid or was used.' },
        ]),
        json({ token: 'the-token' }),
      ],
      'GET /v1/rest-auth/user/': json(ada),
    });
    const app = renderApp('/login');
    const user = await signInWithPassword();

    await user.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    const field = screen.getByRole('textbox', { name: 'Recovery code' });
    expect(field).toHaveFocus();
    await user.type(field, 'k7p2m-x9c4t');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription(
      expect.stringContaining('This recovery code is not valid or was used.'),
    );

    await user.clear(field);
    await user.type(field, ' a1b2c-d3e4f ');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(app.location()).toBe('/ps/dashboard'));
    expect(mock.callsTo(MFA).map((c) => c.body)).toEqual([
      { mfa_token: 'mfa-1', recovery_code: 'k7p2m-x9c4t' },
      { mfa_token: 'mfa-1', recovery_code: 'a1b2c-d3e4f' },
    ]);
  });

  it('an expired or spent challenge goes back to the password step and says why; Back too', async () => {
    mockApi({
      'GET /v1/config': json(publicConfig),
      [LOGIN]: json(challenge),
      [MFA]: apiError(400, 'INVALID_TOKEN', 'The sign-in step has expired.'),
    });
    const app = renderApp('/login');
    let user = await signInWithPassword();

    await user.keyboard('123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(MfaSignInMessages.expired);
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in to Portolan' })).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'E-mail' })).toHaveValue('ada@example.com');
    expect(app.location()).toBe('/login');

    // Back leaves the code step for the password step, without a message.
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('heading', { level: 1, name: 'Two-step verification' });
    user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Sign in to Portolan' }),
    ).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says to wait when there were too many attempts', async () => {
    mockApi({
      'GET /v1/config': json(publicConfig),
      [LOGIN]: json(challenge),
      [MFA]: apiError(429, 'TOO_MANY_ATTEMPTS', 'Too many attempts.'),
    });
    renderApp('/login');
    const user = await signInWithPassword();
    await user.keyboard('123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many attempts. Try again in a few minutes.',
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Two-step verification' })).toBeVisible();
  });
});

describe('GoogleAuthPage: the second step', () => {
  it('answers the challenge, then goes to the path Google sign-in remembered', async () => {
    const mock = mockApi({
      'POST /v1/social-auth/google/': json({ ...challenge, path: '/ps/profile' }),
      [MFA]: json({ token: 'google-token' }),
      'GET /v1/rest-auth/user/': json(ada),
    });
    const app = renderApp('/google-auth?code=c&state=s');
    const user = userEvent.setup();

    await screen.findByRole('heading', { level: 1, name: 'Two-step verification' });
    await user.keyboard('654321');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    await waitFor(() => expect(app.location()).toBe('/ps/profile'));
    expect(mock.callsTo(MFA)[0]?.body).toEqual({ mfa_token: 'mfa-1', code: '654321' });
    expect(mock.callsTo('POST /v1/social-auth/google/')).toHaveLength(1);
    expect(useAuthStore.getState()).toMatchObject({ userToken: 'google-token', isAuth: true });
  });

  it('an expired challenge says to sign in again, with the way back', async () => {
    mockApi({
      'POST /v1/social-auth/google/': json({ ...challenge, path: null }),
      [MFA]: apiError(400, 'INVALID_TOKEN', 'The sign-in step has expired.'),
    });
    renderApp('/google-auth?code=c&state=s');
    const user = userEvent.setup();

    await screen.findByRole('heading', { level: 1, name: 'Two-step verification' });
    await user.keyboard('654321');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(MfaSignInMessages.expired);
    expect(within(document.body).getByRole('link', { name: 'Back to sign in' })).toHaveAttribute(
      'href',
      '/login',
    );
  });
});
