import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockApi } from '../../../test/api-mock';
import { clientMember, people, roleRef } from '../../../test/member-fixtures';
import { renderApp, signIn } from '../../../test/render-app';
import {
  adaWithView,
  CLIENT_ID,
  ORG_ID,
  organization,
  page,
  workspace,
} from '../../../test/tenant-fixtures';

const BASE = `/ps/client-settings/${CLIENT_ID}`;
const USERS = `GET /v1/clients/${CLIENT_ID}/users/`;
const API = `/v1/clients/${CLIENT_ID}/users`;
type Role = 'OWNER' | 'ADMIN' | 'MANAGER' | 'STAFF' | 'CLIENT';

const members = [
  clientMember(people.ada, 'OWNER', { organization_role: 'OWNER' }),
  clientMember(people.grace, 'MANAGER'),
  clientMember(people.linus, 'STAFF', { organization_role: null }),
  clientMember(people.ken, 'CLIENT', { status: 'PENDING', organization_role: 'CLIENT' }),
];

/** The caller: `role` in the workspace (as the API answers it, effective) and `orgRole`. */
function workspaceApi(
  role: Role,
  orgRole: 'OWNER' | 'ADMIN' | 'STAFF' | 'CLIENT',
  extra: object = {},
) {
  return mockApi({
    'GET /v1/rest-auth/user/': json(adaWithView()),
    [`GET /v1/clients/${CLIENT_ID}/`]: json(workspace({ role })),
    [`GET /v1/organizations/${ORG_ID}/`]: json(organization(orgRole)),
    [USERS]: json(page(members)),
    ...extra,
  });
}

describe('Workspace users', () => {
  it('the Users tab lists workspace role, organization role and Pending; search goes to the query', async () => {
    const mock = workspaceApi('OWNER', 'STAFF');
    signIn();
    renderApp(`${BASE}/user-list`);
    const table = await screen.findByRole('table', { name: 'Users: 4' });
    const nav = screen.getByRole('navigation', { name: 'Workspace settings' });
    expect(within(nav).getByRole('link', { name: 'Users' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    const cells = (name: string) =>
      within(within(table).getByRole('row', { name: new RegExp(name) })).getAllByRole('cell');
    expect(cells('Grace Hopper')[1]).toHaveTextContent('Manager');
    expect(cells('Grace Hopper')[2]).toHaveTextContent('Staff');
    expect(cells('Linus Pauling')[2]).toHaveTextContent('None');
    expect(cells('ken@example.com')[3]).toHaveTextContent('Pending');
    expect(screen.getByRole('link', { name: 'Invite' })).toHaveAttribute(
      'href',
      `/ps/users/${CLIENT_ID}/invite`,
    );
    expect(screen.getByRole('link', { name: 'Add' })).toHaveAttribute(
      'href',
      `/ps/users/${CLIENT_ID}/add`,
    );

    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Search members' }), 'hop');
    await waitFor(() => expect(mock.callsTo(USERS).at(-1)?.url).toContain('key=hop'));
    expect(mock.callsTo(USERS)[0]?.url).toContain('limit=10');
  });

  it('STAFF read the list without Invite or Add', async () => {
    workspaceApi('STAFF', 'STAFF');
    signIn();
    renderApp(`${BASE}/user-list`);
    expect(await screen.findByRole('table', { name: 'Users: 4' })).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Invite' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Add' })).toBeNull();
  });

  it('a client has no Users tab', async () => {
    workspaceApi('CLIENT', 'CLIENT');
    signIn();
    renderApp(`${BASE}/client-detail`);
    // Once the workspace (and the caller's role in it) is loaded.
    expect(await screen.findByText(/you are CLIENT/)).toBeVisible();
    const nav = screen.getByRole('navigation', { name: 'Workspace settings' });
    expect(within(nav).getByRole('link', { name: 'Modules' })).toBeVisible();
    expect(within(nav).queryByRole('link', { name: 'Users' })).toBeNull();
  });
});

describe('Workspace user role page', () => {
  it.each([
    {
      me: 'OWNER',
      org: 'STAFF',
      them: 'STAFF',
      roles: ['Owner', 'Admin', 'Manager', 'Staff', 'Client'],
      remove: true,
    },
    {
      me: 'MANAGER',
      org: 'STAFF',
      them: 'STAFF',
      roles: ['Manager', 'Staff', 'Client'],
      remove: true,
    },
    { me: 'STAFF', org: 'STAFF', them: 'STAFF', roles: null, remove: false },
    { me: 'OWNER', org: 'STAFF', them: 'OWNER', roles: null, remove: false },
    {
      me: 'ADMIN',
      org: 'ADMIN',
      them: 'OWNER',
      roles: ['Owner', 'Admin', 'Manager', 'Staff', 'Client'],
      remove: false,
    },
  ] as const)(
    'workspace $me (organization $org) on a $them: roles offered and Remove by the contract',
    async ({ me, org, them, roles, remove }) => {
      workspaceApi(me, org, {
        [`GET ${API}/${people.linus.id}/`]: json(clientMember(people.linus, them)),
      });
      signIn();
      renderApp(`${BASE}/user-list/${people.linus.id}`);
      expect(await screen.findByText('linus@example.com')).toBeVisible();
      if (roles) {
        const user = userEvent.setup();
        await user.click(await screen.findByRole('combobox', { name: 'Workspace role' }));
        const listbox = await screen.findByRole('listbox');
        expect(
          within(listbox)
            .getAllByRole('option')
            .map((o) => o.textContent),
        ).toEqual(roles);
      } else {
        expect(screen.queryByRole('combobox', { name: 'Workspace role' })).toBeNull();
        expect(
          screen.getByText(
            them === 'OWNER'
              ? /Only the organization's Owner or an Admin can change the role of a workspace Owner/
              : /Your role does not allow changing or removing members/,
          ),
        ).toBeVisible();
      }
      expect(Boolean(screen.queryByRole('button', { name: 'Remove member' }))).toBe(remove);
    },
  );

  it.each([
    { me: 'OWNER', org: 'ADMIN', them: 'OWNER' },
    { me: 'OWNER', org: 'ADMIN', them: 'MANAGER' },
    { me: 'MANAGER', org: 'STAFF', them: 'MANAGER' },
  ] as const)(
    'workspace $me (organization $org) on an organization OWNER who is the workspace’s $them: neither role nor Remove (§6)',
    async ({ me, org, them }) => {
      workspaceApi(me, org, {
        [`GET ${API}/${people.linus.id}/`]: json(
          clientMember(people.linus, them, { organization_role: 'OWNER' }),
        ),
      });
      signIn();
      renderApp(`${BASE}/user-list/${people.linus.id}`);
      expect(await screen.findByText('linus@example.com')).toBeVisible();
      expect(screen.queryByRole('combobox', { name: 'Workspace role' })).toBeNull();
      expect(screen.getByText(/Your role cannot act on a member with this role/)).toBeVisible();
      expect(screen.queryByRole('button', { name: 'Remove member' })).toBeNull();
    },
  );

  it('changes the role (PUT …/roles/ {role}) and removes the member (DELETE), back to the list', async () => {
    const linus = clientMember(people.linus, 'STAFF');
    const mock = workspaceApi('OWNER', 'OWNER', {
      [`GET ${API}/${people.linus.id}/`]: json(linus),
      [`PUT ${API}/${people.linus.id}/roles/`]: json({ ...linus, role: roleRef('MANAGER') }),
      [`DELETE ${API}/${people.linus.id}/`]: new Response(null, { status: 204 }),
    });
    signIn();
    const { location } = renderApp(`${BASE}/user-list/${people.linus.id}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('combobox', { name: 'Workspace role' }));
    await user.click(await screen.findByRole('option', { name: 'Manager' }));
    await user.click(screen.getByRole('button', { name: 'Change role' }));
    expect(
      await screen.findByText('Linus Pauling is now Manager in North Atlantic Transit.'),
    ).toBeVisible();
    expect(mock.callsTo(`PUT ${API}/${people.linus.id}/roles/`)[0]?.body).toEqual({
      role: 'MANAGER',
    });
    // The member is read by GET …/users/{userId}/, not looked up in the list.
    expect(mock.callsTo(`GET ${API}/${people.linus.id}/`).length).toBeGreaterThan(0);

    await user.click(screen.getByRole('button', { name: 'Remove member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Linus Pauling?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove member' }));
    expect(
      await screen.findByText('Linus Pauling has been removed from North Atlantic Transit.'),
    ).toBeVisible();
    expect(mock.callsTo(`DELETE ${API}/${people.linus.id}/`)).toHaveLength(1);
    await waitFor(() => expect(location()).toBe(`${BASE}/user-list`));
  });

  it('a pending member: resend the invitation (POST …/resend-invitation/)', async () => {
    const ken = clientMember(people.ken, 'CLIENT', { status: 'PENDING' });
    const mock = workspaceApi('MANAGER', 'STAFF', {
      [`GET ${API}/${people.ken.id}/`]: json(ken),
      [`POST ${API}/${people.ken.id}/resend-invitation/`]: json(ken),
    });
    signIn();
    renderApp(`${BASE}/user-list/${people.ken.id}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Resend invitation' }));
    expect(
      await screen.findByText('The invitation has been sent again to ken@example.com.'),
    ).toBeVisible();
    expect(mock.callsTo(`POST ${API}/${people.ken.id}/resend-invitation/`)).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Cancel invitation' })).toBeVisible();
  });

  it('someone not in the workspace: said plainly', async () => {
    // GET …/users/{grace}/ answers 404.
    workspaceApi('OWNER', 'OWNER');
    signIn();
    renderApp(`${BASE}/user-list/${people.grace.id}`);
    expect(await screen.findByText('Not a member of the workspace')).toBeVisible();
  });
});
