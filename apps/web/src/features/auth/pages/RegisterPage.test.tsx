import { Messages } from '@portolan/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi, publicConfig } from '../../../test/api-mock';
import { renderApp } from '../../../test/render-app';
import { ACTIVATION_STORAGE_KEY } from '../api/activation-storage';
import { ACTIVATED_MESSAGE, ActivationMessages } from '../components/ActivationStep';
import { EMAIL_TAKEN_MESSAGE } from './RegisterPage';

const PASSWORD = 'tidal compass rose';

async function fillRegistration(email = 'ada@example.com') {
  const user = userEvent.setup();
  await user.type(await screen.findByRole('textbox', { name: 'E-mail' }), email);
  await user.type(screen.getByRole('textbox', { name: 'First name' }), 'Ada');
  await user.type(screen.getByRole('textbox', { name: 'Last name' }), 'Lovelace');
  await user.type(screen.getByLabelText(/^Password/), PASSWORD);
  await user.type(screen.getByLabelText(/^Confirm password/), PASSWORD);
  await user.click(screen.getByRole('button', { name: 'Create account' }));
  return user;
}

async function typeCode(user: ReturnType<typeof userEvent.setup>, code: string) {
  await user.click(screen.getByRole('textbox', { name: /digit 1 of 6/ }));
  await user.keyboard(code);
}

describe('RegisterPage', () => {
  it('registers, then asks for the code sent to the e-mail', async () => {
    const mock = mockApi({
      'GET /v1/config': json(publicConfig),
      'POST /v1/rest-auth/registration/': json(
        { token: 'activation-token', email: 'ada@example.com', detail: 'Code sent.' },
        201,
      ),
    });
    renderApp('/register');

    await fillRegistration('  ada@example.com ');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Check your e-mail' }),
    ).toBeVisible();
    expect(screen.getByText(/We sent a 6-digit code to/)).toHaveTextContent(
      'We sent a 6-digit code to ada@example.com',
    );
    expect(mock.callsTo('POST /v1/rest-auth/registration/')[0]?.body).toEqual({
      email: 'ada@example.com',
      password1: PASSWORD,
      password2: PASSWORD,
      first_name: 'Ada',
      last_name: 'Lovelace',
    });
    expect(screen.getAllByRole('textbox', { name: /Activation code, digit/ })).toHaveLength(6);
    expect(JSON.parse(window.sessionStorage.getItem(ACTIVATION_STORAGE_KEY) ?? '{}')).toEqual({
      token: 'activation-token',
      email: 'ada@example.com',
    });
  });

  it('EMAIL_TAKEN puts an error on the e-mail field', async () => {
    mockApi({
      'GET /v1/config': json(publicConfig),
      'POST /v1/rest-auth/registration/': apiError(409, 'EMAIL_TAKEN', 'E-mail taken.'),
    });
    renderApp('/register');

    await fillRegistration();

    const email = screen.getByRole('textbox', { name: 'E-mail' });
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(email).toHaveAccessibleDescription(EMAIL_TAKEN_MESSAGE);
  });

  it('maps WEAK_PASSWORD and validation details to their fields', async () => {
    mockApi({
      'GET /v1/config': json(publicConfig),
      'POST /v1/rest-auth/registration/': apiError(400, 'WEAK_PASSWORD', 'Weak password.', [
        { field: 'password1', message: 'This password is too common. Choose another one.' },
        { field: 'last_name', message: 'Enter your last name.' },
      ]),
    });
    renderApp('/register');

    await fillRegistration();

    expect(
      await screen.findByText('This password is too common. Choose another one.'),
    ).toBeVisible();
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: 'Last name' })).toHaveAccessibleDescription(
      'Enter your last name.',
    );
  });

  it('checks matching passwords before calling the API', async () => {
    const mock = mockApi({ 'GET /v1/config': json(publicConfig) });
    renderApp('/register');
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'E-mail' }), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), PASSWORD);
    await user.type(screen.getByLabelText(/^Confirm password/), 'something else');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('The passwords do not match.')).toBeVisible();
    expect(screen.getByText('Enter your first name.')).toBeVisible();
    expect(mock.callsTo('POST /v1/rest-auth/registration/')).toHaveLength(0);
  });

  it('activates with the code and the activation token, then goes to /login with the e-mail', async () => {
    window.sessionStorage.setItem(
      ACTIVATION_STORAGE_KEY,
      JSON.stringify({ token: 'activation-token', email: 'ada@example.com' }),
    );
    const mock = mockApi({
      'GET /v1/config': json(publicConfig),
      'PATCH /v1/rest-auth/registration/activation/': [
        apiError(400, 'INVALID_CODE', 'Invalid code.'),
        json({ detail: 'Activated.' }),
      ],
    });
    const app = renderApp('/register');
    const user = userEvent.setup();

    // A reload keeps the code step: the token is in sessionStorage.
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Check your e-mail' }),
    ).toBeVisible();

    await typeCode(user, '111111');
    await user.click(screen.getByRole('button', { name: 'Activate account' }));
    expect(await screen.findByText(ActivationMessages.invalidCode)).toBeVisible();

    await typeCode(user, '123456');
    await user.click(screen.getByRole('button', { name: 'Activate account' }));

    await waitFor(() => expect(app.location()).toBe('/login'));
    const calls = mock.callsTo('PATCH /v1/rest-auth/registration/activation/');
    expect(calls).toHaveLength(2);
    expect(calls[1]?.body).toEqual({ code: '123456' });
    expect(calls[1]?.headers.get('Authorization')).toBe('Bearer activation-token');
    expect(await screen.findByText(ACTIVATED_MESSAGE)).toBeVisible();
    expect(ACTIVATED_MESSAGE).toBe('Your account is active. Sign in to continue.');
    expect(await screen.findByRole('textbox', { name: 'E-mail' })).toHaveValue('ada@example.com');
    expect(window.sessionStorage.getItem(ACTIVATION_STORAGE_KEY)).toBeNull();
  });

  it('shows CODE_EXPIRED and TOO_MANY_ATTEMPTS under the code input', async () => {
    window.sessionStorage.setItem(
      ACTIVATION_STORAGE_KEY,
      JSON.stringify({ token: 'activation-token', email: 'ada@example.com' }),
    );
    mockApi({
      'GET /v1/config': json(publicConfig),
      'PATCH /v1/rest-auth/registration/activation/': [
        apiError(400, 'CODE_EXPIRED', 'Expired.'),
        apiError(429, 'TOO_MANY_ATTEMPTS', 'Too many.'),
      ],
    });
    renderApp('/register');
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1, name: 'Check your e-mail' });

    await typeCode(user, '123456');
    await user.click(screen.getByRole('button', { name: 'Activate account' }));
    expect(await screen.findByText(ActivationMessages.codeExpired)).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Activate account' }));
    expect(await screen.findByText(ActivationMessages.tooManyAttempts)).toBeVisible();
    expect(screen.getByRole('textbox', { name: /digit 1 of 6/ })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
  });

  it('resends the code with the activation token; ALREADY_ACTIVATED says to sign in', async () => {
    window.sessionStorage.setItem(
      ACTIVATION_STORAGE_KEY,
      JSON.stringify({ token: 'activation-token', email: 'ada@example.com' }),
    );
    const mock = mockApi({
      'GET /v1/config': json(publicConfig),
      'GET /v1/rest-auth/registration/activation/resend-code/': [
        json({ detail: 'A new code is on its way.' }),
        apiError(409, 'ALREADY_ACTIVATED', 'Already active.'),
      ],
    });
    renderApp('/register');
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Resend code' }));
    expect(await screen.findByText('A new code is on its way.')).toBeVisible();
    const [call] = mock.callsTo('GET /v1/rest-auth/registration/activation/resend-code/');
    expect(call?.headers.get('Authorization')).toBe('Bearer activation-token');

    await user.click(screen.getByRole('button', { name: 'Resend code' }));
    expect(await screen.findByText(/This account is already active/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');
  });

  it('explains that registration is closed when the switch is off', async () => {
    mockApi({
      'GET /v1/config': json({
        ...publicConfig,
        features: { ...publicConfig.features, registration: false },
      }),
    });
    renderApp('/register');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Registration is closed' }),
    ).toBeVisible();
    expect(screen.queryByRole('textbox', { name: 'E-mail' })).toBeNull();
    expect(screen.queryByText(Messages.serverError)).toBeNull();
  });
});
