import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { adaWithView, CLIENT_ID, workspace } from '../../../test/tenant-fixtures';

const BASE = `/ps/client-settings/${CLIENT_ID}`;
const modules = [{ id: CLIENT_ID, module: 'TR', name: '2D Transit', enabled: true }];

describe('Workspace settings', () => {
  it('redirects to client-detail; an OWNER saves name and colour (PATCH); NAME_TAKEN on the name', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(adaWithView()),
      [`GET /v1/clients/${CLIENT_ID}/`]: json(workspace()),
      [`PATCH /v1/clients/${CLIENT_ID}/`]: [
        apiError(409, 'NAME_TAKEN', 'A workspace of this organization already has this name.'),
        (call) => json({ ...workspace(), ...(call.body as object) }),
      ],
    });
    signIn();
    const { location } = renderApp(BASE);
    await waitFor(() => expect(location()).toBe(`${BASE}/client-detail`));
    const user = userEvent.setup();
    const name = await screen.findByRole('textbox', { name: /Workspace name/ });
    await user.clear(name);
    await user.type(name, 'Pacific Freight Lanes');
    const colour = screen.getByRole('textbox', { name: /Dashboard button colour/ });
    await user.clear(colour);
    await user.type(colour, '#2F9E44');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(
      await screen.findByText('A workspace of this organization already has this name.'),
    ).toBeVisible();
    expect(name).toHaveAttribute('aria-invalid', 'true');

    await user.clear(name);
    await user.type(name, 'Baltic Lanes');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('The workspace has been saved.')).toBeVisible();
    expect(mock.callsTo(`PATCH /v1/clients/${CLIENT_ID}/`)[1]?.body).toEqual({
      name: 'Baltic Lanes',
      logo: null,
      dashboard_button_color: '#2f9e44',
    });
  });

  it('a STAFF member reads it: no save button, switches disabled', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(adaWithView()),
      [`GET /v1/clients/${CLIENT_ID}/`]: json(workspace({ role: 'STAFF' })),
      [`GET /v1/clients/${CLIENT_ID}/modules/`]: json(modules),
    });
    signIn();
    renderApp(`${BASE}/client-detail`);
    expect(await screen.findByRole('textbox', { name: /Workspace name/ })).toHaveAttribute(
      'readonly',
    );
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();

    const user = userEvent.setup();
    await user.click(screen.getByRole('link', { name: 'Modules' }));
    expect(await screen.findByRole('switch', { name: '2D Transit module' })).toBeDisabled();
  });

  it('Modules: switching off sends PATCH {enabled: false}', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(adaWithView()),
      [`GET /v1/clients/${CLIENT_ID}/`]: json(workspace()),
      [`GET /v1/clients/${CLIENT_ID}/modules/`]: json(modules),
      [`PATCH /v1/clients/${CLIENT_ID}/modules/TR/`]: json({ ...modules[0], enabled: false }),
    });
    signIn();
    renderApp(`${BASE}/client-module`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('switch', { name: '2D Transit module' }));
    expect(await screen.findByText('2D Transit is now off.')).toBeVisible();
    expect(mock.callsTo(`PATCH /v1/clients/${CLIENT_ID}/modules/TR/`)[0]?.body).toEqual({
      enabled: false,
    });
  });

  it('a failed load says what to do', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(adaWithView()),
      [`GET /v1/clients/${CLIENT_ID}/`]: apiError(404, 'NOT_FOUND', 'Not found.'),
    });
    signIn();
    renderApp(`${BASE}/client-detail`);
    expect(await screen.findByText('The workspace could not be loaded')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeVisible();
  });
});
