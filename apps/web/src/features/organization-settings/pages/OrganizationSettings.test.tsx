import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../../../lib/auth-store';
import { apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import {
  adaWithView,
  CLIENT_ID,
  ORG_ID,
  organization,
  page,
  PENDING_ID,
  workspace,
} from '../../../test/tenant-fixtures';

const BASE = `/ps/organization-settings/${ORG_ID}`;
const ORG = `GET /v1/organizations/${ORG_ID}/`;
const CLIENTS = `GET /v1/organizations/${ORG_ID}/clients/`;

function orgApi(
  role: 'OWNER' | 'ADMIN' | 'STAFF' | 'CLIENT',
  extra: Record<string, never> | object = {},
) {
  return mockApi({
    'GET /v1/rest-auth/user/': json(adaWithView()),
    [ORG]: json(organization(role)),
    [CLIENTS]: json(
      page([
        workspace({ role: role === 'OWNER' || role === 'ADMIN' ? role : 'STAFF' }),
        workspace({
          id: PENDING_ID,
          name: 'Staff Lane',
          active: false,
          role: 'OWNER',
          modules: [{ module: 'TR', enabled: false }],
        }),
      ]),
    ),
    ...extra,
  });
}

describe('Organization settings', () => {
  it('redirects to Information; an OWNER edits the name (PUT), NAME_TAKEN-free', async () => {
    const mock = orgApi('OWNER', {
      [`PUT /v1/organizations/${ORG_ID}/`]: (call: { body: unknown }) =>
        json({ ...organization('OWNER'), ...(call.body as object) }),
    });
    signIn();
    const { location } = renderApp(BASE);
    await waitFor(() => expect(location()).toBe(`${BASE}/detail`));
    const name = await screen.findByRole('textbox', { name: /Organization name/ });
    const user = userEvent.setup();
    await user.clear(name);
    await user.type(name, 'Harbour Ltd');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('The organization has been saved.')).toBeVisible();
    expect(mock.callsTo(`PUT /v1/organizations/${ORG_ID}/`)[0]?.body).toEqual({
      name: 'Harbour Ltd',
      logo: null,
    });
    const nav = screen.getByRole('navigation', { name: 'Organization settings' });
    expect(within(nav).getByRole('link', { name: 'Activities' })).toBeVisible();
  });

  it('STAFF read the information, cannot save, and see no Activities', async () => {
    orgApi('STAFF');
    signIn();
    renderApp(`${BASE}/detail`);
    const name = await screen.findByRole('textbox', { name: /Organization name/ });
    expect(name).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
    const nav = screen.getByRole('navigation', { name: 'Organization settings' });
    expect(within(nav).queryByRole('link', { name: 'Activities' })).toBeNull();
  });

  it('Workspaces: an OWNER approves a pending one and deletes one after confirming', async () => {
    const mock = orgApi('OWNER', {
      [`POST /v1/organizations/${ORG_ID}/clients/${PENDING_ID}/approve/`]: json(
        workspace({ id: PENDING_ID, name: 'Staff Lane', active: true }),
      ),
      [`DELETE /v1/organizations/${ORG_ID}/clients/${CLIENT_ID}/`]: new Response(null, {
        status: 204,
      }),
    });
    signIn();
    useAuthStore.setState({
      current_client: { id: CLIENT_ID, name: 'North Atlantic Transit', modules: [] },
    });
    renderApp(`${BASE}/clients`);
    const user = userEvent.setup();

    expect(await screen.findByText('Pending approval')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Add a workspace' })).toHaveAttribute(
      'href',
      `/ps/organizations/${ORG_ID}/clients/add`,
    );
    await user.click(screen.getByRole('button', { name: 'Approve Staff Lane' }));
    expect(await screen.findByText(/Staff Lane is approved/)).toBeVisible();
    expect(
      mock.callsTo(`POST /v1/organizations/${ORG_ID}/clients/${PENDING_ID}/approve/`),
    ).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Actions for North Atlantic Transit' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete North Atlantic Transit?' });
    expect(mock.callsTo(`DELETE /v1/organizations/${ORG_ID}/clients/${CLIENT_ID}/`)).toHaveLength(
      0,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete workspace' }));
    expect(await screen.findByText('North Atlantic Transit has been deleted.')).toBeVisible();
    expect(mock.callsTo(`DELETE /v1/organizations/${ORG_ID}/clients/${CLIENT_ID}/`)).toHaveLength(
      1,
    );
    // It was the current workspace: it is forgotten.
    expect(useAuthStore.getState().current_client).toBeNull();
  });

  it('Workspaces: STAFF see no approve, delete, edit nor modules; the add link stays', async () => {
    orgApi('STAFF');
    signIn();
    renderApp(`${BASE}/clients`);
    expect(await screen.findByText('Pending approval')).toBeVisible();
    expect(screen.queryByRole('button', { name: /^Approve/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Add a workspace' })).toBeVisible();
    // STAFF's own pending workspace (role OWNER in it) may be edited; the other has no menu.
    expect(screen.queryByRole('button', { name: 'Actions for North Atlantic Transit' })).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Actions for Staff Lane' }));
    expect(await screen.findByRole('menuitem', { name: 'Edit' })).toBeVisible();
    expect(screen.queryByRole('menuitem', { name: 'Delete' })).toBeNull();
  });

  it('Workspaces: the grid view is saved as clientsViewOption; filters go to the query', async () => {
    const mock = orgApi('OWNER', {
      'PATCH /v1/rest-auth/user/': json(adaWithView('ClientsGridView')),
    });
    signIn();
    renderApp(`${BASE}/clients`);
    const user = userEvent.setup();
    expect(
      await screen.findByRole('table', { name: 'Workspaces of the organization' }),
    ).toBeVisible();
    await user.click(screen.getByRole('radio', { name: 'Grid' }));
    expect(
      await screen.findByRole('list', { name: 'Workspaces of the organization' }),
    ).toBeVisible();
    expect(mock.callsTo('PATCH /v1/rest-auth/user/')[0]?.body).toEqual({
      clientsViewOption: 'ClientsGridView',
    });

    await user.click(screen.getByRole('radio', { name: 'Pending' }));
    await user.type(screen.getByRole('textbox', { name: 'Search workspaces' }), 'lane');
    await waitFor(() =>
      expect(
        mock
          .callsTo(CLIENTS)
          .some((c) => c.url.includes('status=pending') && c.url.includes('key=lane')),
      ).toBe(true),
    );
  });

  it('Workspaces: more than a page of them brings page buttons; a filter starts again at page 1', async () => {
    const many = { ...page([workspace({ role: 'OWNER' })]), count: 260 };
    const mock = orgApi('OWNER', { [CLIENTS]: json(many) });
    signIn();
    renderApp(`${BASE}/clients`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Page 2' }));
    await waitFor(() =>
      expect(mock.callsTo(CLIENTS).some((c) => c.url.includes('page=2'))).toBe(true),
    );
    expect(mock.callsTo(CLIENTS)[0]?.url).toContain('limit=250');
    await user.click(screen.getByRole('radio', { name: 'Pending' }));
    await waitFor(() =>
      expect(mock.callsTo(CLIENTS).at(-1)?.url).toMatch(
        /status=pending.*page=1|page=1.*status=pending/,
      ),
    );
  });

  it('Workspaces: an empty organization says "No workspace yet"', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(adaWithView()),
      [ORG]: json(organization('OWNER')),
      [CLIENTS]: json(page([])),
    });
    signIn();
    renderApp(`${BASE}/clients`);
    expect(await screen.findByText('No workspace yet')).toBeVisible();
  });

  it('Modules: a switch per module, PATCH {enabled}', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(adaWithView()),
      [ORG]: json(organization('OWNER')),
      [`GET /v1/clients/${CLIENT_ID}/`]: json(workspace()),
      [`GET /v1/clients/${CLIENT_ID}/modules/`]: json([
        { id: CLIENT_ID, module: 'TR', name: '2D Transit', enabled: true },
      ]),
      [`PATCH /v1/clients/${CLIENT_ID}/modules/TR/`]: json({
        id: CLIENT_ID,
        module: 'TR',
        name: '2D Transit',
        enabled: false,
      }),
    });
    signIn();
    renderApp(`${BASE}/clients/${CLIENT_ID}/modules`);
    const user = userEvent.setup();
    const toggle = await screen.findByRole('switch', { name: '2D Transit module' });
    expect(toggle).toBeChecked();
    await user.click(toggle);
    expect(await screen.findByText('2D Transit is now off.')).toBeVisible();
    expect(mock.callsTo(`PATCH /v1/clients/${CLIENT_ID}/modules/TR/`)[0]?.body).toEqual({
      enabled: false,
    });
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: '2D Transit module' })).not.toBeChecked(),
    );
  });

  it('Applications: LAST_ENABLED_MODULE is explained', async () => {
    const app = (name: string, enabled: boolean) =>
      json({ app: name, modules: [{ module: 'TR', name: '2D Transit', enabled }], enabled });
    const handlers: Record<string, Response> = {};
    for (const name of ['mwrw', 'matrix', 'data_central', 'precise_financial', 'skuflex'])
      handlers[`GET /v1/organizations/${ORG_ID}/clients/${CLIENT_ID}/apps/${name}/`] = app(
        name,
        false,
      );
    mockApi({
      'GET /v1/rest-auth/user/': json(adaWithView()),
      [ORG]: json(organization('OWNER')),
      [`GET /v1/clients/${CLIENT_ID}/`]: json(workspace()),
      ...handlers,
      [`GET /v1/organizations/${ORG_ID}/clients/${CLIENT_ID}/apps/transit/`]: app('transit', true),
      [`POST /v1/organizations/${ORG_ID}/clients/${CLIENT_ID}/apps/transit/`]: apiError(
        409,
        'LAST_ENABLED_MODULE',
        'Last.',
      ),
    });
    signIn();
    renderApp(`${BASE}/clients/${CLIENT_ID}/applications`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('switch', { name: 'Transit application' }));
    expect(await screen.findByText(/last application with a module on/)).toBeVisible();
  });

  it('Activities: rows with MM/DD/YYYY dates, the action filter, pages; "No activity yet"', async () => {
    const activity = {
      id: CLIENT_ID,
      user: { id: CLIENT_ID, email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
      action: 'CREATE_WORKSPACE',
      object_id: CLIENT_ID,
      object_type: 'client',
      data: { client_name: 'North Atlantic Transit' },
      created: '2026-03-04T12:00:00.000Z',
    };
    const mock = orgApi('OWNER', {
      [`GET /v1/organizations/${ORG_ID}/activities/`]: (call: { url: string }) =>
        call.url.includes('action=SIGN_IN')
          ? json(page([]))
          : json({ count: 25, next: 2, previous: null, results: [activity] }),
    });
    signIn();
    renderApp(`${BASE}/activities`);
    const user = userEvent.setup();
    expect(await screen.findByText('03/04/2026')).toBeVisible();
    expect(screen.getByRole('cell', { name: /^Created a workspace/ })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(mock.calls.some((c) => c.url.includes('page=2'))).toBe(true));

    await user.click(screen.getByPlaceholderText('All actions'));
    await user.click(await screen.findByRole('option', { name: 'Signed in' }));
    expect(await screen.findByText('No activity matches')).toBeVisible();
  });
});
