import type { ApiKey, ApiKeyCreated } from '@portolan/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi } from '../../../test/api-mock';
import { renderApp, signIn } from '../../../test/render-app';
import {
  adaWithView,
  CLIENT_ID,
  ORG_ID,
  organization,
  page,
  workspace,
} from '../../../test/tenant-fixtures';
import { CreateApiKeyMessages } from '../components/CreateApiKeyModal';
import { ApiKeysMessages } from './ApiKeysPage';

const BASE = `/ps/organization-settings/${ORG_ID}`;
const KEYS = `/v1/organizations/${ORG_ID}/api-keys/`;
const CLIENTS = `/v1/organizations/${ORG_ID}/clients/`;
const SECRET = 'ptl_Zm9vYmFyYmF6cXV4cXV1eHF1dXpxdXV4cXV1eHF1dXg';

const creator = { id: 'u-ada', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' };

function apiKey(fields: Partial<ApiKey> = {}): ApiKey {
  return {
    id: '3f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0',
    name: 'ERP sync',
    hint: 'ptl_abcd',
    permissions: ['organization.members.read'],
    workspace_ids: null,
    created_by: { ...creator, avatar: null } as ApiKey['created_by'],
    created: '2026-03-02T10:00:00.000Z',
    expires_at: null,
    last_used_at: null,
    last_used_ip: null,
    ...fields,
  };
}

const erp = apiKey({
  permissions: [
    'organization.members.read',
    'organization.clients.read',
    'client.read',
    'client.members.read',
  ],
  last_used_at: new Date(Date.now() - 5 * 60_000).toISOString(),
  last_used_ip: '203.0.113.7',
});
const transit = apiKey({
  id: '4a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  name: 'Transit back end',
  hint: 'ptl_wxyz',
  permissions: ['client.read'],
  workspace_ids: [CLIENT_ID],
  expires_at: '2099-12-31T22:59:59.000Z',
});

function mockKeys(role: 'OWNER' | 'ADMIN' | 'STAFF', handlers: Parameters<typeof mockApi>[0]) {
  return mockApi({
    'GET /v1/rest-auth/user/': json(adaWithView()),
    [`GET /v1/organizations/${ORG_ID}/`]: json(organization(role)),
    [`GET ${CLIENTS}`]: json(page([workspace(), workspace({ id: 'w-2', name: 'Dock' })])),
    ...handlers,
  });
}

const keysRegion = () => screen.findByRole('region', { name: 'API keys' });
const createDialog = async () => screen.findByRole('dialog', { name: 'Create API key' });

describe('Organization settings, API keys', () => {
  it('lists the keys from its own tab: hint, permissions, workspaces, creator, last use', async () => {
    mockKeys('ADMIN', { [`GET ${KEYS}`]: json({ results: [erp, transit] }) });
    signIn();
    const { router } = renderApp(`${BASE}/detail`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'API keys' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}/api-keys`));

    const region = await keysRegion();
    const table = await within(region).findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    const [, first, second] = rows as [HTMLElement, HTMLElement, HTMLElement];
    // Each detail is said twice: in its column and, for a phone, under the name.
    expect(within(first).getByText('ERP sync')).toBeVisible();
    expect(within(first).getByText('ptl_abcd…')).toBeVisible();
    expect(within(first).getAllByText('Read members')).toHaveLength(2);
    expect(
      within(first).getAllByRole('button', { name: 'All 4 permissions of ERP sync' }),
    ).toHaveLength(2);
    expect(within(first).getAllByText('All workspaces')).toHaveLength(2);
    expect(within(first).getAllByText('by Ada Lovelace')).toHaveLength(2);
    expect(within(first).getAllByText('5 minutes ago')).toHaveLength(2);
    expect(within(first).getAllByText('203.0.113.7')).toHaveLength(2);
    expect(within(first).getAllByText('Never')).toHaveLength(2); // expires

    // The workspaces a key is limited to, by name; its expiry; never used.
    expect(await within(second).findAllByText('North Atlantic Transit')).toHaveLength(2);
    expect(within(second).getAllByText('12/31/2099').length).toBeGreaterThan(0);
    expect(within(second).getAllByText('Never')).toHaveLength(2); // last used

    await user.click(within(first).getAllByRole('button', { name: /^All 4 permissions/ })[0]!);
    expect(await screen.findByText('Read workspace members')).toBeInTheDocument();
  });

  it('explains keys when there are none, and offers to create one', async () => {
    mockKeys('OWNER', { [`GET ${KEYS}`]: json({ results: [] }) });
    signIn();
    renderApp(`${BASE}/api-keys`);
    const region = await keysRegion();
    expect(await within(region).findByText('No API keys yet')).toBeVisible();
    expect(region).toHaveTextContent('without a person’s password');
    expect(within(region).queryByRole('table')).toBeNull();
    await userEvent.setup().click(within(region).getByRole('button', { name: 'Create API key' }));
    expect(await createDialog()).toBeVisible();
  });

  it('creates a key for some workspaces and shows it once, with copy', async () => {
    const created: ApiKeyCreated = {
      ...apiKey({
        id: '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e',
        name: 'Carrier feed',
        hint: SECRET.slice(0, 8),
        permissions: ['organization.members.read', 'client.read'],
        workspace_ids: [CLIENT_ID],
        expires_at: '2099-06-30T21:59:59.000Z',
      }),
      key: SECRET,
    };
    const mock = mockKeys('OWNER', {
      [`GET ${KEYS}`]: [json({ results: [erp] }), json({ results: [created, erp] })],
      [`POST ${KEYS}`]: json(created, 201),
    });
    signIn();
    renderApp(`${BASE}/api-keys`);
    const user = userEvent.setup();
    const region = await keysRegion();
    await within(region).findByRole('table');
    await user.click(within(region).getByRole('button', { name: 'Create API key' }));

    const dialog = await createDialog();
    // Nothing chosen: each field says what it needs, and nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(await within(dialog).findByText(CreateApiKeyMessages.name)).toBeVisible();
    expect(within(dialog).getByText(CreateApiKeyMessages.permissions)).toBeVisible();
    expect(mock.callsTo(`POST ${KEYS}`)).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), '  Carrier feed ');
    const org = within(dialog).getByRole('group', { name: 'Organization permissions' });
    const ws = within(dialog).getByRole('group', { name: 'Workspace permissions' });
    // Only what a key may carry: never making keys, nor the security policy.
    expect(within(org).queryByRole('checkbox', { name: /Manage API keys/ })).toBeNull();
    expect(within(org).queryByRole('checkbox', { name: /Security policy/ })).toBeNull();
    await user.click(within(org).getByRole('checkbox', { name: /^Read members/ }));
    await user.click(within(ws).getByRole('checkbox', { name: /^Read workspaces/ }));
    await user.click(within(dialog).getByRole('radio', { name: /^Only some workspaces/ }));
    const picker = await within(dialog).findByRole('group', { name: /^Choose workspaces/ });
    await user.click(
      await within(picker).findByRole('checkbox', { name: 'North Atlantic Transit' }),
    );
    expect(picker).toHaveAccessibleDescription('1 chosen');
    await user.type(within(dialog).getByLabelText(/^Expires/), '2099-06-30');
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));

    const shown = await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(mock.callsTo(`POST ${KEYS}`).map((c) => c.body)).toEqual([
      {
        name: 'Carrier feed',
        permissions: ['organization.members.read', 'client.read'],
        workspace_ids: [CLIENT_ID],
        expires_at: new Date('2099-06-30T23:59:59').toISOString(),
      },
    ]);
    expect(shown).toHaveTextContent('it will not be shown again');
    expect(within(shown).getByRole('textbox', { name: 'API key “Carrier feed”' })).toHaveValue(
      SECRET,
    );
    await user.click(within(shown).getByRole('button', { name: 'Copy key' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(within(shown).getByText('The API key is copied to the clipboard.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Create API key' })).toBeNull();

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The list has the new key, never the key itself.
    expect(await within(region).findByText('Carrier feed')).toBeVisible();
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
    expect(document.body).not.toHaveTextContent(SECRET);
  });

  it('puts the server’s field errors on their fields (400) and keeps the form', async () => {
    const mock = mockKeys('OWNER', {
      [`GET ${KEYS}`]: json({ results: [] }),
      [`POST ${KEYS}`]: apiError(400, 'VALIDATION_ERROR', 'Check the fields.', [
        { field: 'expires_at', message: 'Choose a time in the future.' },
        { field: 'permissions.0', message: 'Not a permission a key may carry.' },
      ]),
    });
    signIn();
    renderApp(`${BASE}/api-keys`);
    const user = userEvent.setup();
    const region = await keysRegion();
    await user.click(await within(region).findByRole('button', { name: 'Create API key' }));
    const dialog = await createDialog();
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Nightly');
    await user.click(within(dialog).getByRole('checkbox', { name: /^Read events/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));

    expect(await within(dialog).findByText('Choose a time in the future.')).toBeVisible();
    expect(within(dialog).getByLabelText(/^Expires/)).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByText('Not a permission a key may carry.')).toBeVisible();
    expect(mock.callsTo(`POST ${KEYS}`)).toHaveLength(1);
    expect(screen.queryByRole('dialog', { name: 'Your new API key' })).toBeNull();
    expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveValue('Nightly');
  });

  it('revokes a key after asking, naming it; the row goes, with a toast', async () => {
    const mock = mockKeys('OWNER', {
      [`GET ${KEYS}`]: [json({ results: [erp, transit] }), json({ results: [transit] })],
      [`DELETE ${KEYS}${erp.id}/`]: new Response(null, { status: 204 }),
    });
    signIn();
    renderApp(`${BASE}/api-keys`);
    const user = userEvent.setup();
    const table = await within(await keysRegion()).findByRole('table');

    // Cancelled: nothing is revoked.
    await user.click(within(table).getByRole('button', { name: 'Revoke ERP sync' }));
    let confirm = await screen.findByRole('dialog', { name: 'Revoke “ERP sync”?' });
    expect(confirm).toHaveTextContent('Every system using ptl_abcd… is refused from now on.');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mock.callsTo(`DELETE ${KEYS}${erp.id}/`)).toHaveLength(0);

    await user.click(within(table).getByRole('button', { name: 'Revoke ERP sync' }));
    confirm = await screen.findByRole('dialog', { name: 'Revoke “ERP sync”?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke key' }));

    expect(await screen.findByText(ApiKeysMessages.revoked('ERP sync'))).toBeVisible();
    expect(mock.callsTo(`DELETE ${KEYS}${erp.id}/`)).toHaveLength(1);
    await waitFor(() => expect(within(table).queryByText('ERP sync')).toBeNull());
    expect(within(table).getByText('Transit back end')).toBeVisible();
  });

  it('shows a load failure with a way to try again', async () => {
    const mock = mockKeys('OWNER', {
      [`GET ${KEYS}`]: [apiError(400, 'BAD_REQUEST', 'Nope.'), json({ results: [erp] })],
    });
    signIn();
    renderApp(`${BASE}/api-keys`);
    const region = await keysRegion();
    expect(await within(region).findByText('The API keys could not be loaded')).toBeVisible();
    await userEvent.setup().click(within(region).getByRole('button', { name: 'Try again' }));
    expect(await within(region).findByText('ERP sync')).toBeVisible();
    expect(mock.callsTo(`GET ${KEYS}`)).toHaveLength(2);
  });

  it('shows a STAFF member no tab and no keys', async () => {
    const mock = mockKeys('STAFF', {});
    signIn();
    renderApp(`${BASE}/api-keys`);
    expect(await screen.findByText('Only owners and admins manage API keys')).toBeVisible();
    expect(screen.queryByRole('link', { name: 'API keys' })).toBeNull();
    expect(mock.callsTo(`GET ${KEYS}`)).toHaveLength(0);
  });
});
