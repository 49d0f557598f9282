import { describe, expect, it, vi } from 'vitest';
import { ada, json, mockApi } from '../../test/api-mock';
import { ids, orgList } from '../../test/tenancy-fixtures';
import { useAuthStore } from '../auth-store';
import { registerNavigator } from '../navigation';
import { defaultChannel, moduleHomePath, moduleOfPath } from './modules';
import {
  applyOrganizationList,
  forgetWorkspace,
  orderOrganizations,
  switchChannel,
  switchOrganization,
  switchWorkspace,
} from './tenancy';

const names = () =>
  useAuthStore
    .getState()
    .org.list.map((e) => `${e.organization.name}: ${e.clients.map((c) => c.name).join(',')}`);

function signedIn() {
  useAuthStore.setState({
    userToken: 't',
    isAuth: true,
    user: { user_id: ada.user_id, email: ada.email, can_create_client: true },
  });
}

describe('module paths', () => {
  it('maps path segments to modules, ours included', () => {
    expect(moduleOfPath('/rw/x/home')).toBe('ROG');
    expect(moduleOfPath('/mw/x/home')).toBe('MAP');
    expect(moduleOfPath('/a/ra/b')).toBe('RA');
    expect(moduleOfPath('/ds/x')).toBe('DS');
    expect(moduleOfPath('/mt/x')).toBe('MT');
    expect(moduleOfPath('/dc/x')).toBe('DC');
    expect(moduleOfPath('/tr/x/home')).toBe('TR');
    expect(moduleOfPath('/pf/x/home')).toBe('PF');
    expect(moduleOfPath('/skuf/x/home')).toBe('SKUF');
    expect(moduleOfPath('/ps/dashboard')).toBeNull();
    expect(moduleHomePath('TR', 'abc')).toBe('/tr/abc/home');
  });

  it('defaults the channel to the first enabled module, skipping ROG', () => {
    expect(
      defaultChannel([
        { module: 'ROG', enabled: true },
        { module: 'MAP', enabled: true },
      ]),
    ).toBe('MAP');
    expect(defaultChannel([{ module: 'TR', enabled: false }])).toBeNull();
  });
});

describe('organization list', () => {
  it('sorts by name case-insensitively, current organization and workspace first', () => {
    const sorted = orderOrganizations(orgList(), null, null);
    expect(sorted.map((e) => e.organization.name)).toEqual(['Acme', 'beta', 'zeta']);
    expect(sorted[0]!.clients.map((c) => c.name)).toEqual(['dock', 'Harbour', 'Quiet']);
    const current = orderOrganizations(orgList(), ids.zeta, ids.harbour);
    expect(current.map((e) => e.organization.name)).toEqual(['zeta', 'Acme', 'beta']);
    const inAcme = orderOrganizations(orgList(), ids.acme, ids.harbour);
    expect(inAcme[0]!.clients.map((c) => c.name)).toEqual(['Harbour', 'dock', 'Quiet']);
  });

  it('an empty list resets the current organization and workspace', () => {
    useAuthStore.setState({
      current_client: { id: ids.harbour, name: 'Harbour', modules: [] },
      org: { current: { id: ids.acme, role: 'OWNER' }, list: [], param: null },
      role: { userRole: 'OWNER', currentEditClientId: ids.harbour },
    });
    expect(applyOrganizationList([]).empty).toBe(true);
    const s = useAuthStore.getState();
    expect(s.current_client).toBeNull();
    expect(s.org.current).toBeNull();
    expect(s.role.userRole).toBeNull();
  });

  it('picks no workspace unless auto-pick is on', () => {
    applyOrganizationList(orgList());
    expect(useAuthStore.getState().current_client).toBeNull();
    mockApi({});
    signedIn();
    applyOrganizationList(orgList(), { autoPick: true });
    expect(useAuthStore.getState().current_client?.name).toBe('dock');
  });

  it('forgets a current workspace that is no longer listed, with its channel', () => {
    useAuthStore.setState({
      current_client: { id: 'gone', name: 'Gone', modules: [] },
      role: { userRole: 'OWNER', currentEditClientId: 'gone' },
      ps_current_channel: { gone: 'TR', [ids.dock]: 'TR' },
    });
    applyOrganizationList(orgList());
    const s = useAuthStore.getState();
    expect(s.current_client).toBeNull();
    expect(s.role).toEqual({ userRole: null, currentEditClientId: null });
    expect(s.ps_current_channel).toEqual({ [ids.dock]: 'TR' });
  });
});

describe('switches', () => {
  it('workspace switch: current, its organization on top, role loaded, activity, new tab', async () => {
    const mock = mockApi({
      'POST /v1/activities/': json({ id: 'a1' }, 201),
    });
    mock.on(
      `GET /v1/clients/${ids.zebra}/users/${ada.user_id}/settings/`,
      json({
        role: { key: 'MANAGER', name: 'Manager' },
        client_modules: [{ module: 'TR', enabled: true }],
        client_information: { name: 'Zebra Renamed' },
      }),
    );
    signedIn();
    applyOrganizationList(orgList());
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      expect(this.target).toBe('_blank');
      expect(this.getAttribute('href')).toBe(`/tr/${ids.zebra}/home`);
    });

    switchWorkspace(ids.zebra);

    const s = useAuthStore.getState();
    expect(s.current_client?.id).toBe(ids.zebra);
    expect(s.org.current).toEqual({ id: ids.zeta, role: 'STAFF' });
    expect(s.org.list[0]!.organization.name).toBe('zeta');
    expect(s.ps_current_channel[ids.zebra]).toBe('TR');
    expect(click).toHaveBeenCalledTimes(1);
    const [activity] = mock.callsTo('POST /v1/activities/');
    expect(activity?.body).toEqual({
      action: 'ACCESS_WORKSPACE',
      object_id: ids.zebra,
      object_type: 'client',
      data: { module: 'TR' },
    });
    await vi.waitFor(() =>
      expect(useAuthStore.getState().current_client?.name).toBe('Zebra Renamed'),
    );
    expect(useAuthStore.getState().role).toEqual({
      userRole: 'MANAGER',
      currentEditClientId: ids.zebra,
    });
  });

  it('a workspace with no enabled module opens the no-module page', () => {
    mockApi({ 'POST /v1/activities/': json({ id: 'a1' }, 201) });
    signedIn();
    applyOrganizationList(orgList());
    const hrefs: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      hrefs.push(this.getAttribute('href')!);
    });
    switchWorkspace(ids.quiet);
    expect(hrefs).toEqual([`/ps/${ids.quiet}/no-module`]);
    expect(useAuthStore.getState().ps_current_channel[ids.quiet]).toBeUndefined();
  });

  it('choosing the current workspace again records nothing and stays in this tab', () => {
    const mock = mockApi({});
    signedIn();
    applyOrganizationList(orgList());
    const navigate = vi.fn();
    registerNavigator({ navigate, currentPath: () => '/' });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    useAuthStore.setState({ current_client: { id: ids.dock, name: 'dock', modules: [] } });
    switchWorkspace(ids.dock);
    expect(click).not.toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith(`/tr/${ids.dock}/home`, undefined);
    expect(mock.callsTo('POST /v1/activities/')).toHaveLength(0);
  });

  it('choosing the current workspace on its own home re-enters it through the redirect hop', () => {
    mockApi({});
    signedIn();
    applyOrganizationList(orgList());
    const navigate = vi.fn();
    registerNavigator({ navigate, currentPath: () => `/tr/${ids.dock}/home` });
    useAuthStore.setState({ current_client: { id: ids.dock, name: 'dock', modules: [] } });
    switchWorkspace(ids.dock);
    expect(navigate).toHaveBeenCalledWith(
      `/redirect?path=${encodeURIComponent(`/tr/${ids.dock}/home`)}`,
      { replace: true },
    );
  });

  it('organization switch saves it and resets the current workspace', () => {
    applyOrganizationList(orgList());
    useAuthStore.setState({ current_client: { id: ids.dock, name: 'dock', modules: [] } });
    switchOrganization(ids.beta);
    const s = useAuthStore.getState();
    expect(s.org.current).toEqual({ id: ids.beta, role: 'CLIENT' });
    expect(s.current_client).toBeNull();
    expect(names()[0]).toBe('beta: ');
  });

  it('deleting the current workspace clears it, the role and the channel', () => {
    applyOrganizationList(orgList());
    useAuthStore.setState({
      current_client: { id: ids.dock, name: 'dock', modules: [] },
      role: { userRole: 'OWNER', currentEditClientId: ids.dock },
      ps_current_channel: { [ids.dock]: 'TR', [ids.zebra]: 'TR' },
    });
    forgetWorkspace(ids.dock);
    const s = useAuthStore.getState();
    expect(s.current_client).toBeNull();
    expect(s.role).toEqual({ userRole: null, currentEditClientId: null });
    expect(s.ps_current_channel).toEqual({ [ids.zebra]: 'TR' });
    expect(names().join('|')).not.toContain('dock');
  });

  it('channel switch stores the module and opens its home', () => {
    const navigate = vi.fn();
    registerNavigator({ navigate, currentPath: () => '/' });
    useAuthStore.setState({
      current_client: { id: ids.dock, name: 'dock', modules: [{ module: 'TR', enabled: true }] },
    });
    switchChannel('TR');
    expect(useAuthStore.getState().ps_current_channel[ids.dock]).toBe('TR');
    expect(navigate).toHaveBeenCalledWith(`/tr/${ids.dock}/home`, undefined);
    switchChannel('MAP');
    expect(navigate).toHaveBeenCalledTimes(1);
  });
});
