import type { MyOrganizationEntry } from '@portolan/contract';
import { useAuthStore, type OrgListEntry } from '../auth-store';
import { currentPath, hopPath, navigateTo, pathnameOf } from '../navigation';
import { queryClient } from '../query-client';
import { fetchUserClientSettings, myOrganizationsKey, recordWorkspaceAccess } from './api';
import {
  defaultChannel,
  enabledModules,
  isModuleCode,
  moduleHomePath,
  workspaceHomePath,
  type ModuleState,
} from './modules';

/**
 * The current organization, workspace and channel (spec §3 `org`, `current_client`, `role`,
 * `ps_current_channel`) and how they change (spec §4 "Organization list", "Workspace switch").
 * Everything is kept in the persisted auth store; these functions are the only writers.
 */

type Entry = MyOrganizationEntry | OrgListEntry;
type ClientOf<E extends Entry> = E['clients'][number];

// One collator for every comparison: `localeCompare` with options builds a new one per call,
// which showed up as 30 ms of the dashboard's first render on a throttled phone profile.
const caseless = new Intl.Collator(undefined, { sensitivity: 'base' });
const exact = new Intl.Collator();
const byName = (a: { name: string }, b: { name: string }) =>
  caseless.compare(a.name, b.name) || exact.compare(a.name, b.name);

/**
 * Spec §4: organizations by name, case-insensitively; the current organization first, and within
 * it the current workspace first. Workspaces of an organization are by name too.
 */
export function orderOrganizations<E extends Entry>(
  list: readonly E[],
  currentOrgId: string | null | undefined,
  currentClientId: string | null | undefined,
): E[] {
  const first = <T extends { id: string }>(items: T[], id: string | null | undefined) => {
    const index = id ? items.findIndex((item) => item.id === id) : -1;
    if (index <= 0) return items;
    return [items[index]!, ...items.slice(0, index), ...items.slice(index + 1)];
  };
  const entries = list.map((entry) => ({
    ...entry,
    clients: first([...entry.clients].sort(byName) as ClientOf<E>[], currentClientId),
  })) as E[];
  entries.sort((a, b) => byName(a.organization, b.organization));
  const index = currentOrgId ? entries.findIndex((e) => e.organization.id === currentOrgId) : -1;
  if (index > 0) entries.unshift(...entries.splice(index, 1));
  return entries;
}

/** The organization entry and workspace of a workspace id in the stored list. */
export function findWorkspace(
  clientId: string,
  list: readonly OrgListEntry[] = useAuthStore.getState().org.list,
): { entry: OrgListEntry; client: OrgListEntry['clients'][number] } | null {
  for (const entry of list) {
    const client = entry.clients.find((c) => c.id === clientId);
    if (client) return { entry, client };
  }
  return null;
}

function toStored(entry: Entry): OrgListEntry {
  const org = entry.organization as OrgListEntry['organization'] & { has_access?: boolean };
  return {
    ...entry,
    organization: { ...org, role: org.role ?? { key: 'CLIENT' } },
    clients: entry.clients.map((c) => ({
      ...c,
      role: c.role ?? undefined,
      modules: c.modules ?? [],
    })),
  } as OrgListEntry;
}

/** The API's entries in the stored shape (a null role is read as CLIENT). */
export function toStoredList(entries: readonly Entry[]): OrgListEntry[] {
  return entries.map(toStored);
}

function reorderStored(): void {
  const { org, current_client } = useAuthStore.getState();
  useAuthStore.setState({
    org: { ...org, list: orderOrganizations(org.list, org.current?.id, current_client?.id) },
  });
}

export interface ApplyResult {
  /** The list is empty: the current organization and workspace were reset (go to the dashboard). */
  empty: boolean;
}

/**
 * A freshly loaded list of the caller's organizations (spec §4 "Organization list"): store it in
 * order; an empty list resets the current organization and workspace; a current workspace no
 * longer listed is forgotten; with auto-pick on and no valid current workspace, the first
 * workspace of the first organization becomes current.
 */
export function applyOrganizationList(
  entries: readonly MyOrganizationEntry[],
  options: { autoPick?: boolean } = {},
): ApplyResult {
  const state = useAuthStore.getState();
  const list = entries.map(toStored);
  if (list.length === 0) {
    useAuthStore.setState({
      org: { ...state.org, current: null, list: [] },
      current_client: null,
      role: { userRole: null, currentEditClientId: null },
    });
    return { empty: true };
  }

  let current = state.org.current;
  let currentClient = state.current_client;
  let role = state.role;
  let channels = state.ps_current_channel;
  const found = currentClient ? findWorkspace(currentClient.id, list) : null;
  if (currentClient && !found) {
    // Gone (deleted, or the user lost access): forget it, its role and its channel.
    const { [currentClient.id]: _gone, ...rest } = channels;
    channels = rest;
    currentClient = null;
    role = { userRole: null, currentEditClientId: null };
  } else if (currentClient && found) {
    // Keep name and modules fresh (a module switched off leaves the channel dropdown).
    currentClient = {
      id: currentClient.id,
      name: found.client.name,
      modules: found.client.modules ?? [],
    };
    current = { id: found.entry.organization.id, role: found.entry.organization.role.key };
  }
  if (current && !list.some((e) => e.organization.id === current!.id)) current = null;

  useAuthStore.setState({
    org: { ...state.org, current, list: orderOrganizations(list, current?.id, currentClient?.id) },
    current_client: currentClient,
    role,
    ps_current_channel: channels,
  });

  if (!currentClient && options.autoPick) {
    const first = useAuthStore.getState().org.list[0]?.clients[0];
    if (first) selectWorkspace(first.id);
  }
  return { empty: false };
}

/**
 * Makes a workspace current (spec §4 "Workspace switch", first half): its organization moves to
 * the top, the role and modules listed are used at once, then the user's role, modules and name
 * are loaded from the server; the channel defaults to the first enabled module (ROG skipped)
 * unless a module still enabled was chosen before (`keepChannel`: the route decides, as the
 * navigation guard does). Returns false when the workspace is not listed.
 */
export function selectWorkspace(
  clientId: string,
  options: { keepChannel?: boolean } = {},
): boolean {
  const found = findWorkspace(clientId);
  if (!found) return false;
  const { entry, client } = found;
  const state = useAuthStore.getState();
  const modules = client.modules ?? [];
  const channels = { ...state.ps_current_channel };
  const remembered = channels[clientId];
  if (
    !options.keepChannel &&
    (!remembered || !enabledModules(modules).includes(remembered as never))
  ) {
    const channel = defaultChannel(modules);
    if (channel) channels[clientId] = channel;
    else delete channels[clientId];
  }
  useAuthStore.setState({
    current_client: { id: client.id, name: client.name, modules },
    role: { userRole: client.role?.key ?? null, currentEditClientId: client.id },
    org: {
      ...state.org,
      current: { id: entry.organization.id, role: entry.organization.role.key },
    },
    ps_current_channel: channels,
  });
  reorderStored();
  void loadWorkspaceSettings(clientId);
  return true;
}

/** GET .../users/{userId}/settings/: the user's role, the modules and the name, for the current workspace. */
export async function loadWorkspaceSettings(clientId: string): Promise<void> {
  const userId = useAuthStore.getState().user?.user_id;
  if (!userId) return;
  try {
    const settings = await fetchUserClientSettings(clientId, userId);
    const state = useAuthStore.getState();
    if (state.current_client?.id !== clientId) return;
    useAuthStore.setState({
      current_client: {
        id: clientId,
        name: settings.client_information.name,
        modules: settings.client_modules,
      },
      role: {
        userRole: settings.role?.key ?? state.role.userRole,
        currentEditClientId: clientId,
      },
    });
  } catch {
    // The listed role and modules stay; the API client has already said what went wrong.
  }
}

/** Opens a path of this app in a new tab through a hidden link (spec §4). */
export function openInNewTab(path: string): void {
  const link = document.createElement('a');
  link.href = path;
  link.target = '_blank';
  link.rel = 'noopener';
  link.hidden = true;
  document.body.appendChild(link);
  link.click();
  link.remove();
}

/**
 * The user chose a workspace (spec §4): it becomes current. A workspace other than the current
 * one records ACCESS_WORKSPACE, then opens its first enabled module's home (or the no-module
 * page) in a new tab; the current one opens in this tab (re-entered through `/redirect` when it
 * is already on screen).
 */
export function switchWorkspace(clientId: string): void {
  const previous = useAuthStore.getState().current_client?.id;
  if (!selectWorkspace(clientId)) return;
  const { current_client, ps_current_channel } = useAuthStore.getState();
  const modules = current_client?.modules ?? [];
  const channel = ps_current_channel[clientId];
  const home =
    channel && isModuleCode(channel)
      ? moduleHomePath(channel, clientId)
      : workspaceHomePath(clientId, modules);
  if (previous === clientId) {
    // Already on its home: re-entered through the redirect hop, so the page loads afresh.
    if (pathnameOf(currentPath()) === home) navigateTo(hopPath(home), { replace: true });
    else navigateTo(home);
    return;
  }
  const module = defaultChannel(modules);
  void recordWorkspaceAccess(clientId, module ? { module } : {}).catch(() => {});
  openInNewTab(home);
}

/**
 * Spec §4: switching organization saves it and resets the current workspace; the organization
 * goes first in the stored list, and the dashboard opens (the workspace page on screen does not
 * take its workspace back: the guard adopts a page's workspace once, on arrival).
 */
export function switchOrganization(orgId: string): void {
  const state = useAuthStore.getState();
  const entry = state.org.list.find((e) => e.organization.id === orgId);
  if (!entry) return;
  useAuthStore.setState({
    org: { ...state.org, current: { id: orgId, role: entry.organization.role.key } },
    current_client: null,
    role: { userRole: null, currentEditClientId: null },
  });
  reorderStored();
  navigateTo('/ps/dashboard');
}

/**
 * A workspace was deleted (call it after DELETE .../clients/{clientId}/ succeeds): when it was
 * current, the current workspace, the role and its channel are cleared; it leaves the stored
 * list, and the caller's lists are reloaded.
 */
export function forgetWorkspace(clientId: string): void {
  const state = useAuthStore.getState();
  const list = state.org.list.map((e) => ({
    ...e,
    clients: e.clients.filter((c) => c.id !== clientId),
  }));
  const { [clientId]: _gone, ...channels } = state.ps_current_channel;
  if (state.current_client?.id === clientId) {
    useAuthStore.setState({
      current_client: null,
      role: { userRole: null, currentEditClientId: null },
      ps_current_channel: channels,
      org: { ...state.org, list },
    });
  } else {
    useAuthStore.setState({ ps_current_channel: channels, org: { ...state.org, list } });
  }
  void queryClient.invalidateQueries({ queryKey: myOrganizationsKey });
}

/** The channel dropdown (spec §4): remember the module for the current workspace and open its home. */
export function switchChannel(module: string): void {
  const state = useAuthStore.getState();
  const client = state.current_client;
  if (!client || !isModuleCode(module)) return;
  if (!enabledModules(client.modules as ModuleState[]).includes(module)) return;
  useAuthStore.setState({
    ps_current_channel: { ...state.ps_current_channel, [client.id]: module },
  });
  navigateTo(moduleHomePath(module, client.id));
}

/**
 * `org.param` (spec §3) is the organization the open page is about: the route's `orgId`, or null on
 * a page without one. The guard keeps it in step with the location.
 */
export function setOrganizationParam(orgId: string | null): void {
  const state = useAuthStore.getState();
  if (state.org.param === orgId) return;
  useAuthStore.setState({ org: { ...state.org, param: orgId } });
}

/** Remember a module as the channel of a workspace without navigating (the guard's path rule). */
export function rememberChannel(clientId: string, module: string): void {
  const state = useAuthStore.getState();
  useAuthStore.setState({
    ps_current_channel: { ...state.ps_current_channel, [clientId]: module },
  });
}
