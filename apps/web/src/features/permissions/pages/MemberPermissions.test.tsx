import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ada, json, mockApi, type Reply } from '../../../test/api-mock';
import {
  explanation,
  memberPermissions,
  memberRoles,
  ROLE_IDS,
  roles,
} from '../../../test/permission-fixtures';
import { clientMember, orgMember, people } from '../../../test/member-fixtures';
import { renderApp, signIn } from '../../../test/render-app';
import {
  adaWithView,
  CLIENT_ID,
  ORG_ID,
  organization,
  page,
  workspace,
} from '../../../test/tenant-fixtures';

const GRACE = people.grace.id;
const MEMBER_API = `/v1/clients/${CLIENT_ID}/users/${GRACE}`;
const PAGE = `/ps/${CLIENT_ID}/user-permissions/${GRACE}`;

/** The API as an OWNER (`myRole`) of the workspace sees Grace, a STAFF member. */
function memberApi(
  myRole: string,
  extra: Record<string, Reply | Reply[]> = {},
  settings: Partial<Parameters<typeof memberPermissions>[0]> = {},
) {
  const member = { userId: GRACE, role: 'STAFF' as const, ...settings };
  return mockApi({
    'GET /v1/rest-auth/user/': json(adaWithView()),
    [`GET /v1/clients/${CLIENT_ID}/`]: json(workspace({ role: myRole })),
    [`GET /v1/organizations/${ORG_ID}/`]: json(
      organization(myRole === 'OWNER' ? 'OWNER' : 'STAFF'),
    ),
    [`GET /v1/organizations/${ORG_ID}/users/${GRACE}/`]: json(
      orgMember(people.grace, 'STAFF', { client_count: 1 }),
    ),
    [`GET ${MEMBER_API}/permissions/`]: json(memberPermissions(member)),
    [`GET ${MEMBER_API}/custom-roles/`]: json(memberRoles(member.customRoles ?? [])),
    [`GET /v1/clients/${CLIENT_ID}/custom-roles/`]: json(page([roles.packers, roles.auditors])),
    [`GET ${MEMBER_API}/permissions/explain`]: (call) =>
      json(
        explanation(member, new URL(call.url, 'http://localhost').searchParams.get('permission')!),
      ),
    ...extra,
  });
}

/** The part of the page that shows one permission group. */
const group = (name: string) => screen.getByRole('region', { name });
/** One permission's row in a group. */
const row = (groupName: string, permission: string) =>
  within(group(groupName)).getByText(permission).closest('div[class*="Group-root"]') as HTMLElement;

describe('A member’s permissions', () => {
  it('shows each permission’s status and source by group; Why? explains it step by step', async () => {
    const mock = memberApi('OWNER');
    signIn();
    renderApp(PAGE);
    expect(
      await screen.findByRole('heading', { name: 'Permissions of Grace Hopper' }),
    ).toBeVisible();
    expect(screen.getByText(/workspace role Staff/)).toBeVisible();
    expect(await screen.findByRole('region', { name: 'History' })).toBeVisible();
    const view = row('History', 'View the shipment history');
    expect(view).toHaveTextContent('Allowed');
    expect(view).toHaveTextContent('Default role Staff (the staff rule)');
    expect(row('Settings', 'Change the 2D Transit settings')).toHaveTextContent('Denied');

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Why? Delete shipment boxes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Why? Delete shipment boxes' });
    expect(
      await within(dialog).findByText('Denied by the default role Staff (the staff rule).'),
    ).toBeVisible();
    const steps = within(within(dialog).getByRole('list', { name: 'Steps looked at, in order' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(steps).toEqual([
      'The module 2D Transit: switched on in this workspace',
      'The member’s own override: none (Inherit)',
      'Default role Staff (the staff rule): DenyDecided here',
    ]);
    expect(mock.callsTo(`GET ${MEMBER_API}/permissions/explain`)[0]?.url).toContain(
      'permission=tr.shipment_box.delete',
    );
  });

  it('saves a group’s overrides with the group PUT: every permission of the group with its status', async () => {
    const after = memberPermissions({
      userId: GRACE,
      role: 'STAFF',
      overrides: [
        { permission: 'tr.history.view', status: 'DENY' },
        { permission: 'tr.history.extract', status: 'INHERIT' },
      ],
    });
    const mock = memberApi('OWNER', { [`PUT ${MEMBER_API}/permissions/TR/history/`]: json(after) });
    signIn();
    renderApp(PAGE);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit the overrides of History' }));
    // Only that group is being edited.
    expect(screen.getAllByRole('radiogroup')).toHaveLength(2);
    await user.click(
      within(screen.getByRole('radiogroup', { name: 'View the shipment history' })).getByRole(
        'radio',
        { name: 'Deny' },
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Save History' }));
    expect(await screen.findByText('The overrides of History have been saved.')).toBeVisible();
    expect(mock.callsTo(`PUT ${MEMBER_API}/permissions/TR/history/`)[0]?.body).toEqual({
      permissions: [
        { permission: 'tr.history.view', status: 'DENY' },
        { permission: 'tr.history.extract', status: 'INHERIT' },
      ],
    });
    // The answer is shown: the override now decides.
    await waitFor(() =>
      expect(row('History', 'View the shipment history')).toHaveTextContent('Denied'),
    );
    expect(row('History', 'View the shipment history')).toHaveTextContent('Own override');
    expect(screen.queryAllByRole('radiogroup')).toHaveLength(0);
  });

  it('previews a new custom-role order (differences highlighted, nothing saved), then applies it', async () => {
    const previewed = memberPermissions({
      userId: GRACE,
      role: 'STAFF',
      customRoles: [roles.auditors, roles.packers],
    });
    const mock = memberApi('OWNER', {
      [`POST ${MEMBER_API}/custom-roles/preview/`]: json(previewed),
      [`PUT ${MEMBER_API}/custom-roles/`]: json(memberRoles([roles.auditors, roles.packers])),
    });
    signIn();
    renderApp(PAGE);
    const user = userEvent.setup();
    expect(
      await screen.findByText('No custom role: the overrides and the default role decide.'),
    ).toBeVisible();
    const add = async (name: string) => {
      await user.click(screen.getByRole('combobox', { name: 'Add a custom role' }));
      await user.click(await screen.findByRole('option', { name }));
      await user.click(screen.getByRole('button', { name: 'Add' }));
    };
    await add('Packers');
    await add('Auditors');
    await user.click(screen.getByRole('button', { name: 'Move Auditors up' }));
    expect(mock.callsTo(`POST ${MEMBER_API}/custom-roles/preview/`)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Preview' }));
    const panel = await screen.findByRole('alert', { name: 'Preview: nothing is saved yet' });
    expect(mock.callsTo(`POST ${MEMBER_API}/custom-roles/preview/`)[0]?.body).toEqual({
      roles: [
        { role: ROLE_IDS.auditors, priority: 1 },
        { role: ROLE_IDS.packers, priority: 2 },
      ],
    });
    expect(panel).toHaveTextContent('With this order, 2 permissions change');
    expect(panel).toHaveTextContent('Delete shipment boxes: Denied → Allowed');
    expect(panel).toHaveTextContent('Buy and print shipping labels: Allowed → Denied');
    // Highlighted where they stand, the current status kept beside.
    const boxes = row('Shipment boxes', 'Delete shipment boxes');
    expect(within(boxes).getByText('Would be Allowed')).toBeVisible();
    expect(boxes).toHaveTextContent('Custom role Packers, rule Packing floor');
    expect(within(row('History', 'View the shipment history')).queryByText(/Would be/)).toBeNull();
    expect(mock.callsTo(`PUT ${MEMBER_API}/custom-roles/`)).toHaveLength(0);

    // Another change makes the preview stale: preview again before applying.
    await user.click(screen.getByRole('button', { name: 'Move Packers up' }));
    expect(screen.queryByRole('button', { name: 'Apply' })).toBeNull();
    expect(screen.queryByText('Would be Allowed')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Move Auditors up' }));
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    await user.click(await screen.findByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('The custom roles have been applied.')).toBeVisible();
    expect(mock.callsTo(`PUT ${MEMBER_API}/custom-roles/`)[0]?.body).toEqual({
      roles: [
        { role: ROLE_IDS.auditors, priority: 1 },
        { role: ROLE_IDS.packers, priority: 2 },
      ],
    });
    expect(mock.callsTo(`POST ${MEMBER_API}/custom-roles/preview/`)).toHaveLength(2);
  });

  it('is the same page under the workspace settings’ users: linked from the member, tabs, breadcrumbs', async () => {
    memberApi('MANAGER', {
      [`GET /v1/clients/${CLIENT_ID}/users/${people.grace.id}/`]: json(
        clientMember(people.grace, 'STAFF'),
      ),
    });
    signIn();
    const { location } = renderApp(`/ps/client-settings/${CLIENT_ID}/user-list/${GRACE}`);
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('link', {
        name: 'Permissions, custom roles and overrides of Grace Hopper',
      }),
    );
    expect(location()).toBe(`/ps/client-settings/${CLIENT_ID}/user-list/${GRACE}/permissions`);
    // The layout holds the h1; the page is its part.
    expect(
      await screen.findByRole('heading', { name: 'Permissions of Grace Hopper', level: 2 }),
    ).toBeVisible();
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toHaveTextContent(
      'Workspace Settings›Users›Permissions',
    );
    expect(screen.getByRole('link', { name: 'Back to the member' })).toHaveAttribute(
      'href',
      `/ps/client-settings/${CLIENT_ID}/user-list/${GRACE}`,
    );
    const tabs = screen.getByRole('navigation', { name: 'Workspace settings' });
    expect(within(tabs).getByRole('link', { name: 'Users' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(tabs).getByRole('link', { name: 'Access rules' })).toBeVisible();
    // A manager acts on a STAFF member's permissions.
    expect(
      await screen.findByRole('button', { name: 'Edit the overrides of History' }),
    ).toBeVisible();
  });

  it('is linked from the member’s workspace access, one link per workspace they are in', async () => {
    memberApi('OWNER', {
      [`GET /v1/organizations/${ORG_ID}/users/${GRACE}/client/`]: json([
        {
          client: { id: CLIENT_ID, name: 'North Atlantic Transit', logo: null, active: true },
          role: { key: 'STAFF', name: 'Staff' },
          status: 'MEMBER',
        },
      ]),
    });
    signIn();
    const { location } = renderApp(`/ps/organizations/${ORG_ID}/users/${GRACE}/client-access`);
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('link', { name: 'Permissions in North Atlantic Transit' }),
    );
    expect(location()).toBe(
      `/ps/organizations/${ORG_ID}/users/${GRACE}/client-access/${CLIENT_ID}/permissions/`,
    );
    expect(
      await screen.findByRole('heading', { name: 'Permissions of Grace Hopper', level: 1 }),
    ).toBeVisible();
  });

  it('hides what a role may not use: a STAFF member reads their own, with Why? but no edits', async () => {
    const ME = `/v1/clients/${CLIENT_ID}/users/${ada.user_id}`;
    const own = {
      userId: ada.user_id,
      role: 'STAFF' as const,
      customRoles: [roles.packers],
      enabled: false,
    };
    const mock = mockApi({
      'GET /v1/rest-auth/user/': json(adaWithView()),
      [`GET /v1/clients/${CLIENT_ID}/`]: json(workspace({ role: 'STAFF' })),
      [`GET /v1/organizations/${ORG_ID}/`]: json(organization('STAFF')),
      [`GET ${ME}/permissions/`]: json(memberPermissions(own)),
      [`GET ${ME}/custom-roles/`]: json(memberRoles([roles.packers])),
      [`GET ${ME}/permissions/explain`]: json(explanation(own, 'tr.history.view')),
    });
    signIn();
    renderApp(`/ps/${CLIENT_ID}/user-permissions/${ada.user_id}`);
    expect(
      await screen.findByRole('heading', { name: 'Your permissions', level: 1 }),
    ).toBeVisible();
    expect(
      await screen.findByRole('list', { name: 'Custom roles of the member, in priority order' }),
    ).toHaveTextContent('Packers');
    // The module is off: everything is disabled, and said so.
    expect(row('History', 'View the shipment history')).toHaveTextContent('Disabled');
    expect(screen.getByText(/2D Transit is switched off in this workspace/)).toBeVisible();
    expect(screen.queryByRole('button', { name: /Edit the overrides/ })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Add a custom role' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Move|Remove/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Preview' })).toBeNull();
    // The list of roles to choose from is not even asked for.
    expect(mock.callsTo(`GET /v1/clients/${CLIENT_ID}/custom-roles/`)).toHaveLength(0);

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Why? View the shipment history' }));
    expect(
      await screen.findByText('Disabled: the module 2D Transit is switched off in this workspace.'),
    ).toBeVisible();
  });

  it('a MANAGER may not change an ADMIN’s permissions (spec §6), from the client-access route too', async () => {
    memberApi('MANAGER', {}, { role: 'ADMIN' });
    signIn();
    renderApp(`/ps/organizations/${ORG_ID}/users/${GRACE}/client-access/${CLIENT_ID}/permissions/`);
    expect(await screen.findByRole('region', { name: 'History' })).toBeVisible();
    // The way back and the breadcrumb lead to the member's workspace access.
    for (const link of screen.getAllByRole('link', { name: 'Workspace access' })) {
      expect(link).toHaveAttribute(
        'href',
        `/ps/organizations/${ORG_ID}/users/${GRACE}/client-access`,
      );
    }
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toHaveTextContent(
      'Workspace access›Permissions',
    );
    expect(screen.getByRole('button', { name: 'Why? View the shipment history' })).toBeVisible();
    expect(screen.queryByRole('button', { name: /Edit the overrides/ })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Add a custom role' })).toBeNull();
  });

  it.each([
    ['ADMIN', false],
    ['OWNER', true],
  ] as const)(
    'the organization OWNER’s permissions: an organization %s (a workspace OWNER) may change them: %s (§6)',
    async (orgRole, editable) => {
      memberApi(
        'OWNER',
        {
          [`GET /v1/organizations/${ORG_ID}/`]: json(organization(orgRole)),
          [`GET /v1/organizations/${ORG_ID}/users/${GRACE}/`]: json(
            orgMember(people.grace, 'OWNER', { client_count: 1 }),
          ),
        },
        { role: 'OWNER' },
      );
      signIn();
      renderApp(
        `/ps/organizations/${ORG_ID}/users/${GRACE}/client-access/${CLIENT_ID}/permissions/`,
      );
      expect(await screen.findByRole('region', { name: 'History' })).toBeVisible();
      // Both organization roles are in: the member's name shows once the organization's are read.
      expect((await screen.findAllByText(/Grace Hopper/)).length).toBeGreaterThan(0);
      expect(screen.queryAllByRole('button', { name: /Edit the overrides/ }).length > 0).toBe(
        editable,
      );
    },
  );
});
