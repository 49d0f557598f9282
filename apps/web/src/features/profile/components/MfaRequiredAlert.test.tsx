import type { MfaStatusResponse } from '@portolan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../../../lib/auth-store';
import { useMfaRequiredStore } from '../../../lib/mfa-required';
import { ada, apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { ids, orgList, page } from '../../../test/tenancy-fixtures';

const HARBOUR = `/ps/${ids.harbour}/dashboard`;
const CREDENTIALS = `GET /v1/clients/${ids.harbour}/credential-status/`;
const SETTINGS = `GET /v1/clients/${ids.harbour}/users/${ada.user_id}/settings/`;
const MESSAGE =
  'Acme requires two-step verification for every member. Set it up under My Settings → Security to continue.';
const refused = (policy: 'any' | 'phishing_resistant' = 'any') =>
  apiError(403, 'MFA_REQUIRED', MESSAGE, { organization_id: ids.acme, require_mfa: policy });

const status = (totp: boolean, passkeys = 0): MfaStatusResponse => ({
  methods: totp ? ['totp', 'recovery_code'] : [],
  totp: { enabled: totp, confirmed_at: totp ? '2026-03-04T10:00:00.000Z' : null },
  passkeys,
  recovery_codes_remaining: totp ? 10 : 0,
  step_up_until: '2099-01-01T00:00:00.000Z',
});
const empty = json({ count: 0, next: null, previous: null, results: [] });

/** A member of Acme (its Harbour workspace current) whose account routes all work. */
function mockMember(handlers: Parameters<typeof mockApi>[0]) {
  useAuthStore.setState({
    current_client: {
      id: ids.harbour,
      name: 'Harbour',
      modules: [{ module: 'TR', enabled: true }],
    },
  });
  return mockApi({
    'GET /v1/rest-auth/user/': json(ada),
    'GET /v1/me/organizations/and/clients/': json(page(orgList())),
    'GET /v1/user/sessions/': empty,
    'GET /v1/user/security-events/': empty,
    'GET /v1/user/mfa/passkeys/': json({ results: [] }),
    ...handlers,
  });
}

describe('a member refused by an organization’s policy (403 MFA_REQUIRED)', () => {
  it('lands on My Settings → Security from the first screen, sets up the app, then continues', async () => {
    const mock = mockMember({
      [CREDENTIALS]: [refused(), json({ is_valid: true, message: null })],
      [SETTINGS]: refused(),
      'GET /v1/user/mfa/': [json(status(false)), json(status(true))],
      'POST /v1/user/mfa/totp/': json({
        secret: 'JBSWY3DPEHPK3PXP',
        otpauth_url: 'otpauth://totp/Portolan:ada?secret=JBSWY3DPEHPK3PXP&issuer=Portolan',
      }),
      'POST /v1/user/mfa/totp/confirm/': json({
        recovery_codes: Array.from({ length: 10 }, (_, i) => `k7p2m-x9c4${i}`),
      }),
    });
    signIn();
    const { location } = renderApp(HARBOUR);
    const user = userEvent.setup();

    await waitFor(() => expect(location()).toBe('/ps/profile?tab=security'));
    expect(
      await screen.findByText('Set up two-step verification to continue to Acme'),
    ).toBeVisible();
    expect(screen.getByText(MESSAGE)).toBeVisible();
    expect(
      screen.getByText('An authenticator app or a passkey will do: set one up below.'),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: /^Continue to/ })).toBeNull();

    const card = await screen.findByRole('region', { name: /^Two-step verification/ });
    await user.click(await within(card).findByRole('button', { name: 'Set up authenticator app' }));
    await user.click(await within(card).findByRole('textbox', { name: /digit 1 of 6/ }));
    await user.keyboard('123456');
    await user.click(within(card).getByRole('button', { name: 'Turn on' }));

    const go = await screen.findByRole('button', { name: 'Continue to Acme' });
    expect(screen.getByText('You can continue to Acme')).toBeVisible();
    await user.click(go);
    await waitFor(() => expect(location()).toBe(HARBOUR));
    // What the policy refused is asked again, and lets the member in now: no way back.
    await waitFor(() => expect(mock.callsTo(CREDENTIALS)).toHaveLength(2));
    expect(useMfaRequiredStore.getState().refusal).toBeNull();
    expect(location()).toBe(HARBOUR);
  });

  it('asks for a passkey where only a passkey will do: an authenticator app is not enough', async () => {
    mockMember({
      [CREDENTIALS]: refused('phishing_resistant'),
      [SETTINGS]: refused('phishing_resistant'),
      'GET /v1/user/mfa/': json(status(true)),
    });
    signIn();
    const { location } = renderApp(HARBOUR);

    await waitFor(() => expect(location()).toBe('/ps/profile?tab=security'));
    expect(await screen.findByText('Set up a passkey to continue to Acme')).toBeVisible();
    expect(screen.getByText(/Only a passkey will do/)).toBeVisible();
    await screen.findByRole('region', { name: /^Two-step verification/ });
    expect(screen.queryByRole('button', { name: /^Continue to/ })).toBeNull();
  });

  it('offers to continue at once to an account that already complies, to the dashboard', async () => {
    useMfaRequiredStore.setState({
      refusal: {
        organizationId: ids.acme,
        requireMfa: 'any',
        message: MESSAGE,
        from: null,
        userId: ada.user_id,
      },
    });
    mockMember({ 'GET /v1/user/mfa/': json(status(false, 1)) });
    signIn();
    const { location } = renderApp('/ps/profile?tab=security');
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Continue to Acme' }));
    await waitFor(() => expect(location()).toBe('/ps/dashboard'));
  });
});
