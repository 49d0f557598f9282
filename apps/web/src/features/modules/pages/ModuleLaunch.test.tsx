import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../../../lib/auth-store';
import { ada, apiError, json, mockApi, publicConfig } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { ids, orgList, page } from '../../../test/tenancy-fixtures';

const LAUNCH = `POST /v1/clients/${ids.harbour}/modules/TR/launch/`;
const launched = {
  token: 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl',
  url: 'https://tr.example.com/launch',
  expires_at: '2030-01-01T00:05:00.000Z',
};

/** Issue 21 item 4: a module configured in MODULE_URLS opens its own app with a launch token. */
describe('a module home', () => {
  let submitted: HTMLFormElement[];

  beforeEach(() => {
    submitted = [];
    // jsdom does not navigate: record the form the page posts instead.
    vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (
      this: HTMLFormElement,
    ) {
      submitted.push(this);
    });
  });
  afterEach(() => vi.restoreAllMocks());

  const open = (launchable: string[], launch?: Response | Response[]) => {
    const api = mockApi({
      'GET /v1/config': json({ ...publicConfig, launchable_modules: launchable }),
      'GET /v1/rest-auth/user/': json(ada),
      'GET /v1/me/organizations/and/clients/': json(page(orgList())),
      ...(launch && { [LAUNCH]: launch }),
    });
    signIn();
    useAuthStore.setState({ ps_current_channel: { [ids.harbour]: 'TR' } });
    renderApp(`/tr/${ids.harbour}/home`);
    return api;
  };

  it('of a configured module asks for a launch and posts the token to the module’s app', async () => {
    const api = open(['TR'], json(launched));
    expect(await screen.findByText('Opening 2D Transit…')).toBeVisible();
    await waitFor(() => expect(submitted).toHaveLength(1));
    const form = submitted[0]!;
    expect(form.method).toBe('post');
    expect(form.action).toBe(launched.url);
    const fields = [...new FormData(form).entries()];
    expect(fields).toEqual([['token', launched.token]]);
    expect(api.callsTo(LAUNCH)).toHaveLength(1);
    expect(screen.queryByText(/tools live outside Portolan/)).not.toBeInTheDocument();
  });

  it('of a module without its own app keeps the page it had, and asks for no launch', async () => {
    const api = open([]);
    expect(await screen.findByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();
    expect(await screen.findByText('The 2D Transit tools live outside Portolan')).toBeVisible();
    expect(api.callsTo(LAUNCH)).toHaveLength(0);
    expect(submitted).toHaveLength(0);
  });

  it('says why a launch failed and tries again on request', async () => {
    const message =
      '2D Transit is switched off in this workspace. An OWNER, ADMIN or MANAGER of the workspace can switch it on in the workspace settings.';
    const api = open(['TR'], [apiError(409, 'MODULE_NOT_ENABLED', message), json(launched)]);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('2D Transit could not be opened');
    expect(alert).toHaveTextContent(message);
    expect(submitted).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(api.callsTo(LAUNCH)).toHaveLength(2);
  });
});
