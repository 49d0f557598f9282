import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../../../lib/auth-store';
import { PasskeyMessages } from '../../../lib/passkeys';
import { ada, apiError, json, mockApi, publicConfig } from '../../../test/api-mock';
import { renderApp } from '../../../test/render-app';
import { signInWithPassword } from '../../../test/second-step';
import {
  assertionJson,
  passkeyOptions,
  promptClosed,
  startAuthentication,
  withWebAuthn,
} from '../../../test/webauthn-mock';
import { MfaSignInMessages } from '../components/MfaSignInStep';
import { PasskeySignInMessages } from '../components/PasskeySignInButton';

vi.mock('@simplewebauthn/browser', () => import('../../../test/webauthn-mock'));

const OPTIONS = 'POST /v1/rest-auth/passkey/options/';
const PASSKEY = 'POST /v1/rest-auth/passkey/';
const LOGIN = 'POST /v1/rest-auth/app/login/';
const MFA = 'POST /v1/rest-auth/app/login/mfa/';
const MFA_OPTIONS = 'POST /v1/rest-auth/app/login/mfa/passkey-options/';
const challenge = (methods: string[]) => ({ mfa_required: true, mfa_token: 'mfa-1', methods });

const passkeyButton = () => screen.findByRole('button', { name: 'Sign in with a passkey' });

describe('LoginPage: signing in with a passkey alone', () => {
  it('signs the challenge with the passkey the browser offers, then goes to the path', async () => {
    withWebAuthn();
    const mock = mockApi({
      'GET /v1/config': json(publicConfig),
      [OPTIONS]: json(passkeyOptions()),
      [PASSKEY]: json({ token: 'passkey-token' }),
      'GET /v1/rest-auth/user/': json(ada),
    });
    startAuthentication.mockResolvedValueOnce(assertionJson);
    const app = renderApp('/login?path=%2Fps%2Fprofile');
    const user = userEvent.setup();

    // A button of its own, reached by the keyboard after the form.
    const button = await passkeyButton();
    button.focus();
    await user.keyboard('{Enter}');

    await waitFor(() => expect(app.location()).toBe('/ps/profile'));
    expect(mock.callsTo(OPTIONS)[0]?.body).toBeUndefined();
    expect(startAuthentication).toHaveBeenCalledWith({
      optionsJSON: passkeyOptions().options,
    });
    expect(mock.callsTo(PASSKEY)[0]?.body).toEqual({
      challenge_id: passkeyOptions().challenge_id,
      response: assertionJson,
    });
    expect(mock.callsTo('GET /v1/rest-auth/user/')[0]?.headers.get('Authorization')).toBe(
      'Bearer passkey-token',
    );
    expect(useAuthStore.getState()).toMatchObject({ userToken: 'passkey-token', isAuth: true });
  });

  it('a closed prompt is only a note; a passkey the server refuses is said in the alert', async () => {
    withWebAuthn();
    const mock = mockApi({
      'GET /v1/config': json(publicConfig),
      [OPTIONS]: json(passkeyOptions()),
      [PASSKEY]: apiError(400, 'INVALID_CREDENTIALS', 'This passkey could not sign you in.'),
    });
    startAuthentication.mockRejectedValueOnce(promptClosed());
    startAuthentication.mockResolvedValueOnce(assertionJson);
    renderApp('/login');
    const user = userEvent.setup();

    await user.click(await passkeyButton());
    const note = await screen.findByText(PasskeyMessages.cancelled);
    expect(note.closest('[role="status"]')).not.toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(mock.callsTo(PASSKEY)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(PasskeySignInMessages.refused);
    expect(screen.queryByText(PasskeyMessages.cancelled)).toBeNull();
    expect(useAuthStore.getState().userToken).toBeNull();
  });

  it('is not offered by a browser without WebAuthn', async () => {
    mockApi({ 'GET /v1/config': json(publicConfig) });
    renderApp('/login');
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).toBeNull();
  });
});

describe('LoginPage: a passkey as the second step', () => {
  it('offers the passkey first when the account has no app, and signs in with it', async () => {
    withWebAuthn();
    const mock = mockApi({
      'GET /v1/config': json(publicConfig),
      [LOGIN]: json(challenge(['passkey', 'recovery_code'])),
      [MFA_OPTIONS]: json(passkeyOptions()),
      [MFA]: json({ token: 'the-token' }),
      'GET /v1/rest-auth/user/': json(ada),
    });
    startAuthentication.mockResolvedValueOnce(assertionJson);
    const app = renderApp('/login');
    const user = await signInWithPassword();

    const use = screen.getByRole('button', { name: 'Use a passkey' });
    expect(use).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Use a recovery code instead' })).toBeVisible();
    expect(screen.queryByRole('textbox')).toBeNull();
    await user.click(use);

    await waitFor(() => expect(app.location()).toBe('/ps/dashboard'));
    expect(mock.callsTo(MFA_OPTIONS)[0]?.body).toEqual({ mfa_token: 'mfa-1' });
    expect(mock.callsTo(MFA)[0]?.body).toEqual({
      mfa_token: 'mfa-1',
      passkey: { challenge_id: passkeyOptions().challenge_id, response: assertionJson },
    });
    expect(useAuthStore.getState()).toMatchObject({ userToken: 'the-token', isAuth: true });
  });

  it('after the app’s code, offers "Use a passkey instead"; a refused passkey is said above', async () => {
    withWebAuthn();
    const refused = 'The passkey could not be verified. Try again, or use another way.';
    const mock = mockApi({
      'GET /v1/config': json(publicConfig),
      [LOGIN]: json(challenge(['totp', 'passkey', 'recovery_code'])),
      [MFA_OPTIONS]: json(passkeyOptions()),
      [MFA]: apiError(400, 'INVALID_CODE', refused, [{ field: 'passkey', message: refused }]),
    });
    startAuthentication.mockResolvedValue(assertionJson);
    renderApp('/login');
    const user = await signInWithPassword();

    expect(screen.getByRole('textbox', { name: /digit 1 of 6/ })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Use a passkey instead' }));
    expect(screen.queryByRole('textbox')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Use a passkey' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(refused);
    expect(screen.getByRole('heading', { level: 1, name: 'Two-step verification' })).toBeVisible();
    expect(mock.callsTo(MFA)).toHaveLength(1);
    // Back to the code: the alert goes, the field comes back.
    await user.click(
      screen.getByRole('button', { name: 'Use a code from your authenticator app instead' }),
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('textbox', { name: /digit 1 of 6/ })).toHaveFocus();
  });

  it('an expired challenge met while asking for the passkey goes back to the password step', async () => {
    withWebAuthn();
    mockApi({
      'GET /v1/config': json(publicConfig),
      [LOGIN]: json(challenge(['passkey', 'recovery_code'])),
      [MFA_OPTIONS]: apiError(400, 'INVALID_TOKEN', 'The sign-in step has expired.'),
    });
    renderApp('/login');
    const user = await signInWithPassword();
    await user.click(screen.getByRole('button', { name: 'Use a passkey' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(MfaSignInMessages.expired);
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in to Portolan' })).toBeVisible();
    expect(startAuthentication).not.toHaveBeenCalled();
  });

  it('a passkey alone, in a browser without WebAuthn, says so and goes back', async () => {
    mockApi({
      'GET /v1/config': json(publicConfig),
      [LOGIN]: json(challenge(['passkey'])),
    });
    renderApp('/login');
    const user = await signInWithPassword();
    expect(screen.getByText(MfaSignInMessages.passkeyUnsupported)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Sign in to Portolan' }),
    ).toBeVisible();
  });

  it('without WebAuthn, the recovery code is what is asked for', async () => {
    mockApi({
      'GET /v1/config': json(publicConfig),
      [LOGIN]: json(challenge(['passkey', 'recovery_code'])),
    });
    renderApp('/login');
    await signInWithPassword();
    expect(screen.getByRole('textbox', { name: 'Recovery code' })).toHaveFocus();
    const main = screen.getByRole('main');
    expect(within(main).queryByRole('button', { name: /passkey/ })).toBeNull();
  });
});
