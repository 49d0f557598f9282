import { Messages } from '@portolan/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../../../lib/auth-store';
import {
  ada,
  apiError,
  json,
  mockApi,
  publicConfig,
  tokenExpiringIn,
} from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';

const ACCEPT_CLIENT = 'POST /v1/clients/users/invitation/accept/';
const ACCEPT_ORG = 'POST /v1/organizations/users/invitation/accept/';
const harbour = { id: '0c000000-0000-4000-8000-000000000001', name: 'Harbour' };
const org = { id: '0a000000-0000-4000-8000-000000000001', name: 'Acme' };
const base = { 'GET /v1/config': json(publicConfig) };

describe('the invitation confirm pages', () => {
  it('say a link without a token is incomplete', async () => {
    mockApi(base);
    renderApp('/ps/clients/invitation');
    expect(await screen.findByText(/This link is incomplete/)).toBeVisible();
  });

  it('a newcomer sets names and a password, and lands signed in in the workspace', async () => {
    const session = tokenExpiringIn(600);
    const mock = mockApi({
      ...base,
      [ACCEPT_CLIENT]: (call) =>
        (call.body as { password?: string }).password
          ? json({
              detail: Messages.invitationAcceptedWorkspace,
              needs_password: false,
              type: 'client',
              organization: org,
              client: harbour,
              token: session,
            })
          : json({
              needs_password: true,
              email: 'new@example.com',
              first_name: 'Nia',
              last_name: '',
              type: 'client',
              organization: org,
              client: harbour,
            }),
      'GET /v1/rest-auth/user/': json({ ...ada, email: 'new@example.com' }),
      'GET /v1/me/organizations/and/clients/': json({ count: 0, results: [] }),
    });
    const app = renderApp('/ps/clients/invitation?token=tok-9');
    expect(await screen.findByRole('heading', { level: 1, name: 'Join Harbour' })).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'First name' })).toHaveValue('Nia');
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Last name' }), 'Okafor');
    await user.type(
      screen.getByLabelText('Password', { selector: 'input' }),
      'long enough passphrase 42',
    );
    await user.type(
      screen.getByLabelText('Confirm password', { selector: 'input' }),
      'long enough passphrase 42',
    );
    await user.click(screen.getByRole('button', { name: 'Join and sign in' }));
    await waitFor(() => expect(app.location()).toBe(`/ps/${harbour.id}/dashboard`));
    expect(mock.callsTo(ACCEPT_CLIENT).map((c) => c.body)).toEqual([
      { token: 'tok-9' },
      {
        token: 'tok-9',
        first_name: 'Nia',
        last_name: 'Okafor',
        password: 'long enough passphrase 42',
      },
    ]);
    expect(useAuthStore.getState().userToken).toBe(session);
  });

  it('someone with an account, not signed in, is told it worked and asked to sign in', async () => {
    mockApi({
      ...base,
      [ACCEPT_ORG]: json({
        detail: Messages.invitationAcceptedOrganization,
        needs_password: false,
        type: 'organization',
        organization: org,
        client: null,
      }),
    });
    renderApp('/ps/organizations/invitation?token=tok-2');
    expect(await screen.findByText(Messages.invitationAcceptedOrganization)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Sign in to continue' })).toHaveAttribute(
      'href',
      `/login?path=${encodeURIComponent('/ps/dashboard')}`,
    );
  });

  it('a signed-in invitee accepts in one click and goes to the workspace', async () => {
    const mock = mockApi({
      ...base,
      'GET /v1/rest-auth/user/': json(ada),
      'GET /v1/me/organizations/and/clients/': json({ count: 0, results: [] }),
      [ACCEPT_CLIENT]: json({
        detail: Messages.invitationAcceptedWorkspace,
        needs_password: false,
        type: 'client',
        organization: org,
        client: harbour,
      }),
    });
    signIn();
    const app = renderApp('/ps/clients/invitation?token=tok-3');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Accept the invitation' }));
    expect(await screen.findByText(Messages.invitationAcceptedWorkspace)).toBeVisible();
    await waitFor(() => expect(app.location()).toBe(`/ps/${harbour.id}/dashboard`));
    expect(mock.callsTo(ACCEPT_CLIENT)[0]?.headers.get('authorization')).toMatch(/^Bearer /);
  });

  it('a used or expired token gets the §8 failure text and the reason', async () => {
    mockApi({
      ...base,
      [ACCEPT_CLIENT]: apiError(
        409,
        'INVITATION_ALREADY_ACCEPTED',
        'This invitation was already accepted.',
      ),
    });
    renderApp('/ps/clients/invitation?token=tok-4');
    expect(await screen.findByText(/There may be a problem with the verification/)).toBeVisible();
    expect(screen.getByText(/This invitation was already accepted\./)).toBeVisible();
  });
});
