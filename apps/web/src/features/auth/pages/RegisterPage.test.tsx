import { Messages } from '@portolan/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../../../lib/auth-store';
import { useBillingStore } from '../../../lib/billing-store';
import { ada, apiError, json, mockApi, publicConfig } from '../../../test/api-mock';
import { renderApp } from '../../../test/render-app';
import { ACTIVATION_STORAGE_KEY } from '../api/activation-storage';
import {
  ACTIVATED_MESSAGE,
  ACTIVATED_WELCOME,
  ActivationMessages,
} from '../components/ActivationStep';

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

function savePending() {
  window.sessionStorage.setItem(
    ACTIVATION_STORAGE_KEY,
    JSON.stringify({ token: 'activation-token', email: 'ada@example.com' }),
  );
}

describe('RegisterPage', () => {
  it('keeps the plan of /register?plan= only when it is one of the four types (spec §4)', async () => {
    mockApi({ 'GET /v1/config': json(publicConfig) });
    useBillingStore.getState().reset();
    const first = renderApp('/register?plan=BUSINESS');
    await screen.findByRole('textbox', { name: 'E-mail' });
    expect(useBillingStore.getState().registerPlan).toBe('BUSINESS');
    first.unmount();
    renderApp('/register?plan=PLATINUM');
    await screen.findByRole('textbox', { name: 'E-mail' });
    expect(useBillingStore.getState().registerPlan).toBeNull();
  });

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
    expect(screen.getByText(/We sent a code to/)).toHaveTextContent(
      'We sent a code to ada@example.com.',
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

  it('goes on to the code step whatever the API says (no "account exists" path)', async () => {
    // Registration is enumeration-safe: an address with an account gets the same 201 answer.
    mockApi({
      'GET /v1/config': json(publicConfig),
      'POST /v1/rest-auth/registration/': json(
        {
          token: 'activation-token',
          email: 'ada@example.com',
          detail: 'Something the page does not repeat.',
        },
        201,
      ),
    });
    renderApp('/register');

    await fillRegistration();

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Check your e-mail' }),
    ).toBeVisible();
    expect(screen.getByText(/We sent a code to/)).toHaveTextContent(
      'We sent a code to ada@example.com.',
    );
    expect(screen.queryByText('Something the page does not repeat.')).toBeNull();
    expect(screen.queryByText(/already exists/)).toBeNull();
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

  it("activates with the code, then signs in with the answer's token and lands on the dashboard", async () => {
    savePending();
    const mock = mockApi({
      'GET /v1/config': json(publicConfig),
      'PATCH /v1/rest-auth/registration/activation/': [
        apiError(400, 'INVALID_CODE', 'Invalid code.'),
        json({ detail: 'Your account is active.', token: 'session-token' }),
      ],
      'GET /v1/rest-auth/user/': json({ ...ada, avatar: '/uploads/ada.png' }),
    });
    const app = renderApp('/register');
    const user = userEvent.setup();

    // A reload keeps the code step: the token is in sessionStorage.
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Check your e-mail' }),
    ).toBeVisible();

    await typeCode(user, '111111');
    await user.click(screen.getByRole('button', { name: 'Activate account' }));
    const problem = await screen.findByText(ActivationMessages.invalidCode);
    expect(problem).toBeVisible();

    await typeCode(user, '123456');
    await user.click(screen.getByRole('button', { name: 'Activate account' }));

    await waitFor(() => expect(app.location()).toBe('/ps/dashboard'));
    const calls = mock.callsTo('PATCH /v1/rest-auth/registration/activation/');
    expect(calls).toHaveLength(2);
    expect(calls[1]?.body).toEqual({ code: '123456' });
    expect(calls[1]?.headers.get('Authorization')).toBe('Bearer activation-token');
    // Exactly what the login page stores: the user loaded with the new token, then all at once.
    expect(mock.callsTo('GET /v1/rest-auth/user/')[0]?.headers.get('Authorization')).toBe(
      'Bearer session-token',
    );
    expect(useAuthStore.getState()).toMatchObject({
      userToken: 'session-token',
      isAuth: true,
      avatarURL: '/uploads/ada.png',
      user: { user_id: ada.user_id, email: 'ada@example.com', can_create_client: true },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada' })).toBeVisible();
    expect(await screen.findByText(ACTIVATED_WELCOME)).toBeVisible();
    expect(window.sessionStorage.getItem(ACTIVATION_STORAGE_KEY)).toBeNull();
    // Nobody asked for the password again.
    expect(mock.callsTo('POST /v1/rest-auth/app/login/')).toHaveLength(0);
  });

  it('after activation goes to the path query, as sign-in does', async () => {
    savePending();
    mockApi({
      'GET /v1/config': json(publicConfig),
      'PATCH /v1/rest-auth/registration/activation/': json({
        detail: 'Your account is active.',
        token: 'session-token',
      }),
      'GET /v1/rest-auth/user/': json(ada),
    });
    const app = renderApp('/register?path=%2Fps%2Fprofile');
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1, name: 'Check your e-mail' });

    await typeCode(user, '123456');
    await user.click(screen.getByRole('button', { name: 'Activate account' }));

    await waitFor(() => expect(app.location()).toBe('/ps/profile'));
    expect(await screen.findByRole('heading', { level: 1, name: 'My Settings' })).toBeVisible();
  });

  it('without a token in the answer, goes to /login with the e-mail filled in', async () => {
    savePending();
    mockApi({
      'GET /v1/config': json(publicConfig),
      'PATCH /v1/rest-auth/registration/activation/': json({ detail: ACTIVATED_MESSAGE }),
    });
    const app = renderApp('/register');
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1, name: 'Check your e-mail' });

    await typeCode(user, '123456');
    await user.click(screen.getByRole('button', { name: 'Activate account' }));

    await waitFor(() => expect(app.location()).toBe('/login'));
    expect(await screen.findByText(ACTIVATED_MESSAGE)).toBeVisible();
    expect(await screen.findByRole('textbox', { name: 'E-mail' })).toHaveValue('ada@example.com');
    expect(useAuthStore.getState().userToken).toBeNull();
  });

  it('says the account is active when the user cannot be loaded after activation', async () => {
    savePending();
    mockApi({
      'GET /v1/config': json(publicConfig),
      'PATCH /v1/rest-auth/registration/activation/': json({
        detail: 'Your account is active.',
        token: 'session-token',
      }),
      'GET /v1/rest-auth/user/': apiError(503, 'SERVICE_UNAVAILABLE', 'Down.'),
    });
    const app = renderApp('/register');
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1, name: 'Check your e-mail' });

    await typeCode(user, '123456');
    await user.click(screen.getByRole('button', { name: 'Activate account' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Your account is active' }),
    ).toBeVisible();
    expect(screen.getByText(ActivationMessages.signInFailed)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');
    expect(app.location()).toBe('/register');
    expect(useAuthStore.getState()).toMatchObject({ userToken: null, isAuth: false });
    expect(window.sessionStorage.getItem(ACTIVATION_STORAGE_KEY)).toBeNull();
  });

  it('a wrong code is a field error: red, aria-invalid, described by the message', async () => {
    savePending();
    mockApi({
      'GET /v1/config': json(publicConfig),
      'PATCH /v1/rest-auth/registration/activation/': apiError(400, 'INVALID_CODE', 'No.'),
    });
    renderApp('/register');
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1, name: 'Check your e-mail' });

    await typeCode(user, '111111');
    await user.click(screen.getByRole('button', { name: 'Activate account' }));

    const problem = await screen.findByText(ActivationMessages.invalidCode);
    // Mantine's field error element (the red of every other field error), not plain text.
    expect(problem.className).toMatch(/mantine-InputWrapper-error|mantine-Input-error/);
    for (const digit of screen.getAllByRole('textbox', { name: /Activation code, digit/ })) {
      expect(digit).toHaveAttribute('aria-invalid', 'true');
      expect(digit).toHaveAccessibleDescription(ActivationMessages.invalidCode);
    }
    // Typing again clears it.
    await typeCode(user, '2');
    expect(screen.queryByText(ActivationMessages.invalidCode)).toBeNull();
    expect(screen.getByRole('textbox', { name: /digit 1 of 6/ })).not.toHaveAttribute(
      'aria-invalid',
    );
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

  it('a failed settings load names the cause: the server, not the connection', async () => {
    mockApi({ 'GET /v1/config': apiError(500, 'INTERNAL_ERROR', 'Internal error.') });
    renderApp('/register');
    const alert = await screen.findByText(/We could not load the sign-up settings/, undefined, {
      timeout: 8000,
    });
    expect(alert).toHaveTextContent('The server ran into a problem on its side.');
    expect(alert).not.toHaveTextContent(/connection/);
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
