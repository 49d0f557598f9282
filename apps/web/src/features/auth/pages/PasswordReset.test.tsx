import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi, publicConfig } from '../../../test/api-mock';
import { renderApp } from '../../../test/render-app';
import { PASSWORD_RESET_DONE } from '../components/NewPasswordForm';

const NEW_PASSWORD = 'a brand new passphrase';

describe('ForgotPasswordPage', () => {
  it('e-mail → code → new password, then sign-in with the e-mail filled in', async () => {
    const mock = mockApi({
      'GET /v1/config': json(publicConfig),
      'POST /v1/rest-auth/password/reset/': json({ detail: 'Sent.', token: 'request-token' }),
      'POST /v1/rest-auth/password/reset/identity/': [
        apiError(400, 'INVALID_CODE', 'Wrong code.'),
        json({ token: 'reset-token' }),
      ],
      'POST /v1/rest-auth/password/reset/confirm/': json({ detail: 'Password changed.' }),
    });
    const app = renderApp('/forgot-password');
    const user = userEvent.setup();

    const backToSignIn = () => screen.queryByRole('link', { name: 'Back to sign in' });
    await user.type(await screen.findByRole('textbox', { name: 'E-mail' }), ' ada@example.com ');
    expect(backToSignIn()).toHaveAttribute('href', '/login');
    await user.click(screen.getByRole('button', { name: 'Send code' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Enter the code' })).toBeVisible();
    expect(mock.callsTo('POST /v1/rest-auth/password/reset/')[0]?.body).toEqual({
      email: 'ada@example.com',
    });

    await user.click(screen.getByRole('textbox', { name: /digit 1 of 6/ }));
    await user.keyboard('999999');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(/That code is not right/)).toBeVisible();
    expect(screen.getByRole('textbox', { name: /digit 1 of 6/ })).toHaveAccessibleDescription(
      /That code is not right/,
    );
    expect(backToSignIn()).toBeInTheDocument();

    await user.click(screen.getByRole('textbox', { name: /digit 1 of 6/ }));
    await user.keyboard('123456');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Choose a new password' }),
    ).toBeVisible();
    // The last step: no "Remembered it? Back to sign in" any more.
    expect(backToSignIn()).toBeNull();
    expect(screen.queryByText(/Remembered it/)).toBeNull();
    expect(mock.callsTo('POST /v1/rest-auth/password/reset/identity/')[1]?.body).toEqual({
      code: '123456',
      token: 'request-token',
    });

    await user.type(screen.getByLabelText(/^New password/), NEW_PASSWORD);
    await user.type(screen.getByLabelText(/^Confirm new password/), NEW_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    await waitFor(() => expect(app.location()).toBe('/login'));
    expect(mock.callsTo('POST /v1/rest-auth/password/reset/confirm/')[0]?.body).toEqual({
      token: 'reset-token',
      password: NEW_PASSWORD,
    });
    expect(await screen.findByText(PASSWORD_RESET_DONE)).toBeVisible();
    expect(await screen.findByRole('textbox', { name: 'E-mail' })).toHaveValue('ada@example.com');
  });
});

describe('ResetPasswordPage', () => {
  it('uses the token of the link and explains an expired one', async () => {
    const mock = mockApi({
      'POST /v1/rest-auth/password/reset/confirm/': apiError(400, 'INVALID_TOKEN', 'Expired.'),
    });
    renderApp('/reset-password?token=from-the-link');
    const user = userEvent.setup();
    await screen.findByLabelText(/^New password/);
    expect(screen.queryByRole('link', { name: 'Back to sign in' })).toBeNull();

    await user.type(await screen.findByLabelText(/^New password/), NEW_PASSWORD);
    await user.type(screen.getByLabelText(/^Confirm new password/), NEW_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This reset link has expired or was already used.',
    );
    expect(screen.getByRole('link', { name: 'Start the reset again' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    expect(mock.calls[0]?.body).toEqual({ token: 'from-the-link', password: NEW_PASSWORD });
  });

  it('says what to do when the link has no token', async () => {
    mockApi();
    renderApp('/reset-password');
    expect(await screen.findByRole('alert')).toHaveTextContent('it has no reset token');
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');
  });
});
