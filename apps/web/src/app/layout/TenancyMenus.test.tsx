import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../../lib/auth-store';
import { ada, json, mockApi } from '../../test/api-mock';
import { renderApp, signIn } from '../../test/render-app';
import { ids, orgList, page } from '../../test/tenancy-fixtures';

const ME_ORGS = 'GET /v1/me/organizations/and/clients/';

function settings(role: string, name: string, enabled = true) {
  return json({
    role: { key: role, name: role },
    client_modules: [{ module: 'TR', enabled }],
    client_information: { name },
  });
}

describe('header: workspace and channel dropdowns, gears', () => {
  it('groups workspaces by organization, current first; gears by role; add-organization entry', async () => {
    const user = userEvent.setup();
    mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [ME_ORGS]: json(page(orgList())),
      [`GET /v1/clients/${ids.zebra}/users/${ada.user_id}/settings/`]: settings('MANAGER', 'Zebra'),
    });
    signIn();
    useAuthStore.setState({ ps_current_channel: { [ids.zebra]: 'TR' } });
    renderApp(`/tr/${ids.zebra}/home`);
    expect(await screen.findByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();

    await user.click(await screen.findByRole('button', { name: 'Workspace: Zebra' }));
    const groups = await screen.findAllByRole('group');
    expect(groups.map((g) => g.getAttribute('aria-label'))).toEqual(['zeta', 'Acme', 'beta']);
    expect(
      within(groups[1]!)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['dock', 'Harbour', 'Quiet', 'Switch to Acme', 'Settings of Acme']);
    // zeta is current (Zebra's organization): no switch to it.
    expect(within(groups[0]!).queryByRole('menuitem', { name: /^Switch to/ })).toBeNull();
    // zeta: STAFF sees the organization gear; beta: CLIENT does not.
    expect(within(groups[0]!).getByRole('menuitem', { name: 'Settings of zeta' })).toHaveAttribute(
      'href',
      `/ps/organization-settings/${ids.zeta}`,
    );
    expect(within(groups[2]!).queryByRole('menuitem', { name: /Settings of/ })).toBeNull();
    expect(screen.getByRole('menuitem', { name: 'Add an organization' })).toHaveAttribute(
      'href',
      '/ps/organizations/create',
    );
    // A MANAGER of Zebra, STAFF of zeta: no workspace gear.
    expect(screen.queryByRole('link', { name: /^Workspace settings/ })).toBeNull();
  });

  it('shows the workspace gear to an OWNER and hides add-organization without can_create_client', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json({ ...ada, can_create_client: false }),
      [ME_ORGS]: json(page(orgList())),
      [`GET /v1/clients/${ids.harbour}/users/${ada.user_id}/settings/`]: settings(
        'OWNER',
        'Harbour',
      ),
    });
    signIn({ ...ada, can_create_client: false });
    renderApp(`/ps/${ids.harbour}/dashboard`);
    expect(
      await screen.findByRole('link', { name: 'Workspace settings: Harbour' }),
    ).toHaveAttribute('href', `/ps/client-settings/${ids.harbour}`);
    expect(screen.getByRole('link', { name: 'Organization settings: Acme' })).toHaveAttribute(
      'href',
      `/ps/organization-settings/${ids.acme}`,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Workspace: Harbour' }));
    await screen.findAllByRole('group');
    expect(screen.queryByRole('menuitem', { name: 'Add an organization' })).toBeNull();
  });

  it('switching organization from the dropdown makes it current, resets the workspace, puts it first', async () => {
    const user = userEvent.setup();
    mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [ME_ORGS]: json(page(orgList())),
      [`GET /v1/clients/${ids.harbour}/users/${ada.user_id}/settings/`]: settings(
        'OWNER',
        'Harbour',
      ),
    });
    signIn();
    const app = renderApp(`/ps/${ids.harbour}/dashboard`);
    await user.click(await screen.findByRole('button', { name: 'Workspace: Harbour' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Switch to beta' }));
    await waitFor(() =>
      expect(useAuthStore.getState().org.current).toEqual({ id: ids.beta, role: 'CLIENT' }),
    );
    expect(app.location()).toBe('/ps/dashboard');
    const state = useAuthStore.getState();
    expect(state.current_client).toBeNull();
    expect(state.org.list[0]!.organization.id).toBe(ids.beta);
    await user.click(await screen.findByRole('button', { name: 'Workspace: none chosen' }));
    const groups = await screen.findAllByRole('group');
    expect(groups.map((g) => g.getAttribute('aria-label'))[0]).toBe('beta');
  });

  it('the channel dropdown lists the enabled modules and switches the channel', async () => {
    const user = userEvent.setup();
    mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [ME_ORGS]: json(page(orgList())),
      [`GET /v1/clients/${ids.harbour}/users/${ada.user_id}/settings/`]: settings(
        'OWNER',
        'Harbour',
      ),
    });
    signIn();
    const app = renderApp(`/ps/${ids.harbour}/dashboard`);
    await user.click(await screen.findByRole('button', { name: 'Module: No module' }));
    await user.click(await screen.findByRole('menuitem', { name: '2D Transit' }));
    await waitFor(() => expect(app.location()).toBe(`/tr/${ids.harbour}/home`));
    expect(useAuthStore.getState().ps_current_channel[ids.harbour]).toBe('TR');
    expect(await screen.findByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();
    // The module's sidebar.
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Home' })).toHaveAttribute(
      'href',
      `/tr/${ids.harbour}/home`,
    );
  });

  it('a module switched off leaves the channel dropdown', async () => {
    const user = userEvent.setup();
    const list = orgList();
    list[1]!.clients[0]!.modules = [{ module: 'TR', enabled: false }];
    mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [ME_ORGS]: json(page(list)),
      [`GET /v1/clients/${ids.harbour}/users/${ada.user_id}/settings/`]: settings(
        'OWNER',
        'Harbour',
        false,
      ),
    });
    signIn();
    renderApp(`/ps/${ids.harbour}/dashboard`);
    await user.click(await screen.findByRole('button', { name: 'Module: No module' }));
    expect(await screen.findByRole('menuitem', { name: 'No module is enabled' })).toBeVisible();
    expect(screen.queryByRole('menuitem', { name: '2D Transit' })).toBeNull();
  });
});

describe('module home and no-module page', () => {
  it('the home says what the member may do, and tells an administrator the tools plug in here', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [ME_ORGS]: json(page(orgList())),
      [`GET /v1/clients/${ids.harbour}/users/${ada.user_id}/settings/`]: settings(
        'OWNER',
        'Harbour',
      ),
    });
    signIn();
    useAuthStore.setState({ ps_current_channel: { [ids.harbour]: 'TR' } });
    renderApp(`/tr/${ids.harbour}/home`);
    expect(await screen.findByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();
    expect(screen.getByText(/This page is where the 2D Transit tools plug in/)).toBeVisible();
    const access = screen.getByRole('region', { name: 'What you may do here' });
    expect(access).toHaveTextContent('Switch the workspace’s modules on and off');
  });

  it('a MANAGER is told the tools live elsewhere, and what is not for their role', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [ME_ORGS]: json(page(orgList())),
      [`GET /v1/clients/${ids.zebra}/users/${ada.user_id}/settings/`]: settings('MANAGER', 'Zebra'),
    });
    signIn();
    useAuthStore.setState({ ps_current_channel: { [ids.zebra]: 'TR' } });
    renderApp(`/tr/${ids.zebra}/home`);
    expect(await screen.findByText(/The 2D Transit tools are not part of Portolan/)).toBeVisible();
    expect(screen.getByText('Not with your role')).toBeVisible();
  });

  it('the no-module page offers Manage modules to an OWNER', async () => {
    mockApi({
      'GET /v1/rest-auth/user/': json(ada),
      [ME_ORGS]: json(page(orgList())),
      [`GET /v1/clients/${ids.quiet}/users/${ada.user_id}/settings/`]: settings(
        'OWNER',
        'Quiet',
        false,
      ),
    });
    signIn();
    renderApp(`/ps/${ids.quiet}/no-module`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'No module is active in Quiet' }),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Manage modules' })).toHaveAttribute(
      'href',
      `/ps/client-settings/${ids.quiet}/client-module`,
    );
    vi.restoreAllMocks();
  });
});
