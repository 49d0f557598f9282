import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi } from '../../../test/api-mock';
import { orgMember, people, roleRef } from '../../../test/member-fixtures';
import { renderApp, signIn } from '../../../test/render-app';
import {
  adaWithView,
  CLIENT_ID,
  ORG_ID,
  organization,
  PENDING_ID,
} from '../../../test/tenant-fixtures';

const PAGE = `/ps/organizations/${ORG_ID}/users/${people.linus.id}/client-access`;
const API = `/v1/organizations/${ORG_ID}/users/${people.linus.id}`;
const THIRD_ID = '3c4d5e6f-7a8b-4c9d-8e0f-112233445566';

const access = [
  {
    client: { id: CLIENT_ID, name: 'North Atlantic Transit', logo: null, active: true },
    role: roleRef('STAFF'),
    status: 'MEMBER',
  },
  {
    client: { id: PENDING_ID, name: 'Staff Lane', logo: null, active: false },
    role: null,
    status: null,
  },
  {
    client: { id: THIRD_ID, name: 'Baltic Lanes', logo: null, active: true },
    role: null,
    status: null,
  },
];

function accessApi(myRole: 'OWNER' | 'ADMIN' | 'STAFF', extra: object = {}, status = 'MEMBER') {
  return mockApi({
    'GET /v1/rest-auth/user/': json(adaWithView()),
    [`GET /v1/organizations/${ORG_ID}/`]: json(organization(myRole)),
    [`GET ${API}/`]: json(
      orgMember(people.linus, 'STAFF', { client_count: 1, status: status as 'MEMBER' }),
    ),
    [`GET ${API}/client/`]: json(access),
    ...extra,
  });
}

describe('Workspace access of a member', () => {
  it('lists each workspace with the member’s role; an ADMIN grants two at once with roles they may give', async () => {
    const mock = accessApi('ADMIN', {
      [`POST ${API}/clients/grant_access/`]: [
        apiError(403, 'PERMISSION_DENIED', 'No.'),
        json(access.map((a) => ({ ...a, role: a.role ?? roleRef('MANAGER'), status: 'MEMBER' }))),
      ],
    });
    signIn();
    renderApp(PAGE);
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Workspaces of the organization' });
    const row = (name: string) => within(table).getByRole('row', { name: new RegExp(name) });
    const accessCell = (name: string) => within(row(name)).getAllByRole('cell')[1];
    expect(accessCell('North Atlantic Transit')).toHaveTextContent('Staff');
    expect(accessCell('Staff Lane')).toHaveTextContent('No access');
    expect(within(row('Staff Lane')).getByText('Pending approval')).toBeVisible();
    const grant = screen.getByRole('button', { name: 'Grant access' });
    expect(grant).toBeDisabled();

    await user.click(screen.getByRole('checkbox', { name: 'Select Staff Lane' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Baltic Lanes' }));
    const role = screen.getByRole('combobox', { name: 'Role in Baltic Lanes' });
    await user.click(role);
    const listbox = await screen.findByRole('listbox');
    // An ADMIN cannot give the Owner role.
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Admin', 'Manager', 'Staff', 'Client']);
    await user.click(within(listbox).getByRole('option', { name: 'Manager' }));
    await user.click(screen.getByRole('button', { name: 'Grant access (2)' }));
    expect(
      await screen.findByText(/Your role does not allow this. Ask an owner or an admin/),
    ).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Grant access (2)' }));
    expect(await screen.findByText(/Linus Pauling has access to 2 more workspaces/)).toBeVisible();
    const calls = mock.callsTo(`POST ${API}/clients/grant_access/`);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.body).toEqual({
      clients: [
        { client_id: PENDING_ID, role: 'STAFF' },
        { client_id: THIRD_ID, role: 'MANAGER' },
      ],
    });
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Grant access' })).toBeDisabled(),
    );
  });

  it('STAFF see the access but cannot grant', async () => {
    accessApi('STAFF');
    signIn();
    renderApp(PAGE);
    expect(
      await screen.findByRole('table', { name: 'Workspaces of the organization' }),
    ).toBeVisible();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('button', { name: /Grant access/ })).toBeNull();
  });

  it('a pending member gets access once they accept', async () => {
    accessApi('OWNER', {}, 'PENDING');
    signIn();
    renderApp(PAGE);
    expect(await screen.findByText('The invitation is still pending')).toBeVisible();
    expect(screen.queryByRole('button', { name: /Grant access/ })).toBeNull();
  });
});
