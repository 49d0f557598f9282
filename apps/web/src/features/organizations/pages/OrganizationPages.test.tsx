import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { myOrganizationsKey } from '../../../lib/tenancy';
import { ada, apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import { ORG_ID, organization, page, workspace } from '../../../test/tenant-fixtures';

const ME_ORGS = 'GET /v1/me/organizations/and/clients/';

describe('Create an organization (ps/organizations/create)', () => {
  it('creates it (POST /v1/organizations/), refreshes the lists, toasts, then offers a workspace', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [ME_ORGS]: json(page([])),
      'POST /v1/organizations/': (call) =>
        json({ ...organization('OWNER'), name: (call.body as { name: string }).name }, 201),
    });
    signIn();
    renderApp('/ps/organizations/create');
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Create organization' }));
    expect(await screen.findByText('Enter the organization name.')).toBeVisible();
    expect(mock.callsTo('POST /v1/organizations/')).toHaveLength(0);

    await user.type(screen.getByRole('textbox', { name: /Organization name/ }), '  Harbour Ltd ');
    queryClient.setQueryData(myOrganizationsKey, []);
    const loadsBefore = mock.callsTo(ME_ORGS).length;
    await user.click(screen.getByRole('button', { name: 'Create organization' }));

    expect(await screen.findByText('The organization Harbour Ltd has been created.')).toBeVisible();
    expect(mock.callsTo('POST /v1/organizations/')[0]?.body).toEqual({ name: 'Harbour Ltd' });
    expect(screen.getByRole('heading', { name: 'Harbour Ltd is ready' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Add a workspace' })).toHaveAttribute(
      'href',
      `/ps/organizations/${ORG_ID}/clients/add`,
    );
    // The header's and the dashboard's list is stale now, so they reload it (the header's
    // workspace menu observes it, so it is fetched again at once).
    await waitFor(() => expect(mock.callsTo(ME_ORGS).length).toBeGreaterThan(loadsBefore));
  });

  it('uploads the logo first (POST /v1/upload/) and sends its URL; refuses other file types', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      'POST /v1/upload/': json({ url: '/uploads/logo.png' }, 201),
      'POST /v1/organizations/': json({ ...organization('OWNER'), logo: '/uploads/logo.png' }, 201),
    });
    signIn();
    const { container } = renderApp('/ps/organizations/create');
    const user = userEvent.setup({ applyAccept: false });
    await user.type(await screen.findByRole('textbox', { name: /Organization name/ }), 'Harbour');
    const input = container.ownerDocument.querySelector('input[type="file"]') as HTMLInputElement;

    await user.upload(input, new File(['%PDF'], 'logo.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText(/This file type is not supported/)).toBeVisible();
    expect(mock.callsTo('POST /v1/upload/')).toHaveLength(0);

    await user.upload(input, new File(['png'], 'logo.png', { type: 'image/png' }));
    expect(await screen.findByRole('img', { name: 'Logo of Harbour' })).toBeVisible();
    expect(((mock.callsTo('POST /v1/upload/')[0]?.body as FormData).get('file') as File).name).toBe(
      'logo.png',
    );
    await user.click(screen.getByRole('button', { name: 'Create organization' }));
    await screen.findByText(/has been created/);
    expect(mock.callsTo('POST /v1/organizations/')[0]?.body).toEqual({
      name: 'Harbour',
      logo: '/uploads/logo.png',
    });
  });

  it('says so when billing allows only one organization (ORGANIZATION_LIMIT)', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      'POST /v1/organizations/': apiError(403, 'ORGANIZATION_LIMIT', 'Only one.'),
    });
    signIn();
    renderApp('/ps/organizations/create');
    const user = userEvent.setup();
    await user.type(
      await screen.findByRole('textbox', { name: /Organization name/ }),
      'Second one',
    );
    await user.click(screen.getByRole('button', { name: 'Create organization' }));
    expect(await screen.findByText(/Your plan allows one organization/)).toBeVisible();
  });

  it('a user without can_create_client is told, with no form', async () => {
    mockApi({ 'GET /v1/rest-auth/user/': json({ ...ada, can_create_client: false }) });
    signIn({ ...ada, can_create_client: false });
    renderApp('/ps/organizations/create');
    expect(await screen.findByText('You cannot create an organization')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Create organization' })).toBeNull();
  });
});

describe('Add a workspace (ps/organizations/:orgId/clients/add)', () => {
  const path = `/ps/organizations/${ORG_ID}/clients/add`;

  it('NAME_TAKEN goes on the name field; success goes to the workspaces with a toast', async () => {
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [`GET /v1/organizations/${ORG_ID}/`]: json(organization('OWNER')),
      [`GET /v1/organizations/${ORG_ID}/clients/`]: json(page([workspace()])),
      [`POST /v1/organizations/${ORG_ID}/clients/`]: [
        apiError(409, 'NAME_TAKEN', 'A workspace of this organization already has this name.'),
        json(workspace({ name: 'Baltic Lanes' }), 201),
      ],
    });
    signIn();
    const { location } = renderApp(path);
    const user = userEvent.setup();

    const name = await screen.findByRole('textbox', { name: /Workspace name/ });
    await user.type(name, 'North Atlantic Transit');
    await user.click(screen.getByRole('button', { name: 'Add workspace' }));
    expect(
      await screen.findByText('A workspace of this organization already has this name.'),
    ).toBeVisible();
    expect(name).toHaveAttribute('aria-invalid', 'true');

    await user.clear(name);
    await user.type(name, 'Baltic Lanes');
    await user.click(screen.getByRole('button', { name: 'Add workspace' }));
    expect(await screen.findByText('The workspace Baltic Lanes has been created.')).toBeVisible();
    expect(mock.callsTo(`POST /v1/organizations/${ORG_ID}/clients/`)[1]?.body).toEqual({
      name: 'Baltic Lanes',
    });
    await waitFor(() => expect(location()).toBe(`/ps/organization-settings/${ORG_ID}/clients`));
  });

  it('a STAFF creator is told the workspace waits for approval', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [`GET /v1/organizations/${ORG_ID}/`]: json(organization('STAFF')),
      [`POST /v1/organizations/${ORG_ID}/clients/`]: json(
        workspace({ name: 'Staff Lane', active: false }),
        201,
      ),
    });
    signIn();
    renderApp(path);
    const user = userEvent.setup();
    expect(await screen.findByText('It will wait for approval')).toBeVisible();
    await user.type(screen.getByRole('textbox', { name: /Workspace name/ }), 'Staff Lane');
    await user.click(screen.getByRole('button', { name: 'Add workspace' }));
    expect(await screen.findByText(/waits for approval by an owner or an admin/)).toBeVisible();
  });

  it('a CLIENT member cannot add workspaces: no form', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [`GET /v1/organizations/${ORG_ID}/`]: json(organization('CLIENT')),
    });
    signIn();
    renderApp(path);
    expect(await screen.findByText('You cannot add workspaces here')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Add workspace' })).toBeNull();
  });
});
