import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ada, apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { ids, orgList, page } from '../../../test/tenancy-fixtures';
import { useAuthStore } from '../../../lib/auth-store';
import { queryClient } from '../../../lib/query-client';
import { CREDENTIAL_ALERT_NO_MESSAGE, CREDENTIAL_ALERT_TITLE } from './CredentialAlert';

const ME_ORGS = 'GET /v1/me/organizations/and/clients/';
const statusKey = (clientId: string) => `GET /v1/clients/${clientId}/credential-status/`;
const MESSAGE = 'The Amazon seller token has expired. <b>Reconnect</b> it in Seller Central.';

function workspaceApi(statuses: Record<string, Response | Response[]>) {
  const settings = (id: string, name: string) => [
    `GET /v1/clients/${id}/users/${ada.user_id}/settings/`,
    json({
      role: { key: 'OWNER', name: 'Owner' },
      client_modules: [{ module: 'TR', enabled: true }],
      client_information: { name },
    }),
  ];
  return mockApi({
    'GET /v1/rest-auth/user/': json(ada),
    [ME_ORGS]: json(page(orgList())),
    ...Object.fromEntries([settings(ids.harbour, 'Harbour'), settings(ids.dock, 'dock')]),
    ...Object.fromEntries(Object.entries(statuses).map(([id, reply]) => [statusKey(id), reply])),
  });
}

const findAlert = () => screen.findByRole('alert', { name: CREDENTIAL_ALERT_TITLE });
const queryAlert = () => screen.queryByRole('alert', { name: CREDENTIAL_ALERT_TITLE });

/** Waits until the workspace's status was asked for and answered (no alert may follow). */
async function settled(mock: ReturnType<typeof mockApi>, clientId: string) {
  await waitFor(() => expect(mock.callsTo(statusKey(clientId)).length).toBeGreaterThan(0));
  await screen.findByRole('heading', { level: 1 });
  await act(async () => {
    await new Promise((r) => setTimeout(r, 50));
  });
}

describe('the credential alert on workspace pages', () => {
  it('shows the server’s message as text on the workspace dashboard; dismissed, it stays gone on the module pages', async () => {
    const user = userEvent.setup();
    const mock = workspaceApi({ [ids.harbour]: json({ is_valid: false, message: MESSAGE }) });
    signIn();
    useAuthStore.setState({ ps_current_channel: { [ids.harbour]: 'TR' } });
    const app = renderApp(`/ps/${ids.harbour}/dashboard`);

    const alert = await findAlert();
    expect(alert).toBeVisible();
    // The message is text: its markup shows as typed and makes no element.
    expect(within(alert).getByText(MESSAGE)).toBeVisible();
    expect(alert.querySelector('b')).toBeNull();
    // Asked with the session’s token.
    expect(mock.callsTo(statusKey(ids.harbour))[0]!.headers.get('authorization')).toMatch(
      /^Bearer /,
    );

    await user.click(within(alert).getByRole('button', { name: 'Dismiss the credential alert' }));
    expect(queryAlert()).toBeNull();

    await act(() => app.router.navigate(`/tr/${ids.harbour}/home`));
    expect(await screen.findByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();
    expect(queryAlert()).toBeNull();
    await act(() => app.router.navigate(`/ps/${ids.harbour}/dashboard`));
    await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada' });
    expect(queryAlert()).toBeNull();
  });

  it('a dismissal holds for the session, for that workspace and that message only', async () => {
    const user = userEvent.setup();
    workspaceApi({
      [ids.harbour]: json({ is_valid: false, message: 'Expired.' }),
      [ids.dock]: json({ is_valid: false, message: 'Expired.' }),
    });
    signIn();
    const app = renderApp(`/ps/${ids.harbour}/dashboard`);
    await user.click(
      within(await findAlert()).getByRole('button', { name: 'Dismiss the credential alert' }),
    );
    expect(queryAlert()).toBeNull();

    // Another workspace with the same failure still shows it.
    await act(() => app.router.navigate(`/ps/${ids.dock}/dashboard`));
    expect(within(await findAlert()).getByText('Expired.')).toBeVisible();
    app.unmount();
    queryClient.clear();

    // A new page load in the same tab (sessionStorage kept): Harbour's stays dismissed…
    const mock = workspaceApi({ [ids.harbour]: json({ is_valid: false, message: 'Expired.' }) });
    renderApp(`/ps/${ids.harbour}/dashboard`);
    await settled(mock, ids.harbour);
    expect(queryAlert()).toBeNull();
  });

  it('shows again when the failure’s message changes', async () => {
    window.sessionStorage.setItem(
      `portolan.credential-alert.dismissed:${ids.harbour}`,
      'The old reason.',
    );
    workspaceApi({ [ids.harbour]: json({ is_valid: false, message: 'A new reason.' }) });
    signIn();
    renderApp(`/ps/${ids.harbour}/dashboard`);
    expect(within(await findAlert()).getByText('A new reason.')).toBeVisible();
  });

  it('says so plainly when the checker gave no message', async () => {
    workspaceApi({ [ids.harbour]: json({ is_valid: false, message: null }) });
    signIn();
    renderApp(`/ps/${ids.harbour}/dashboard`);
    expect(within(await findAlert()).getByText(CREDENTIAL_ALERT_NO_MESSAGE)).toBeVisible();
  });

  it('shows nothing for a valid credential, nor when the status could not be loaded (and no toast)', async () => {
    const valid = workspaceApi({
      [ids.harbour]: json({ is_valid: true, message: 'Checked just now.' }),
    });
    signIn();
    const app = renderApp(`/ps/${ids.harbour}/dashboard`);
    await settled(valid, ids.harbour);
    expect(queryAlert()).toBeNull();
    app.unmount();
    queryClient.clear();

    const failing = workspaceApi({
      [ids.harbour]: apiError(500, 'INTERNAL_ERROR', 'Something went wrong.'),
    });
    renderApp(`/ps/${ids.harbour}/dashboard`);
    await settled(failing, ids.harbour);
    expect(queryAlert()).toBeNull();
    expect(screen.queryByText(/Oops! There is something wrong/)).toBeNull();
  });

  it('is not asked for on pages outside a workspace', async () => {
    const mock = workspaceApi({});
    signIn();
    renderApp('/ps/profile');
    expect(await screen.findByRole('heading', { level: 1, name: 'My Settings' })).toBeVisible();
    expect(mock.calls.filter((c) => c.path.endsWith('/credential-status/'))).toEqual([]);
  });
});
