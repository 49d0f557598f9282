import type { ModuleCode, Role } from '@portolan/contract';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import {
  currentPath,
  forgetLastPage,
  isPublicOnlyPath,
  isSharePath,
  lastPage,
  loginPathFor,
  navigateTo,
  pathnameOf,
  safeRedirectPath,
} from './navigation';
import { queryClient } from './query-client';

/** localStorage key of the persisted auth state (spec §3). */
export const AUTH_STORAGE_KEY = 'auth';
/** localStorage key written on logout; other tabs react to its `storage` event. */
export const LOGOUT_STORAGE_KEY = 'logout';
/** sessionStorage key holding the path to come back to after signing in again. */
export const REMEMBERED_PATH_KEY = 'portolan.relogin-path';
/** id of the workspace's custom stylesheet link, removed on relogin. */
export const CUSTOM_CSS_ID = 'custom-css';

export interface AuthUser {
  user_id: string;
  email: string;
  can_create_client: boolean;
}

export interface WorkspaceModule {
  module: ModuleCode | string;
  enabled: boolean;
}

export interface CurrentClient {
  id: string;
  name: string;
  modules: WorkspaceModule[];
}

export interface AuthRole {
  userRole: Role | string | null;
  currentEditClientId: string | null;
}

export interface OrgListEntry {
  organization: {
    id: string;
    name: string;
    role: { key: Role | string; name?: string };
    has_access?: boolean;
    logo?: string | null;
  };
  clients: {
    id: string;
    name: string;
    role?: { key: Role | string; name?: string };
    modules?: WorkspaceModule[];
    active?: boolean;
    logo?: string | null;
    dashboard_button_color?: string;
  }[];
}

export interface OrgState {
  current: { id: string; role: Role | string } | null;
  list: OrgListEntry[];
  param: string | null;
}

/** The persisted part: exactly the shape of spec §3. */
export interface PersistedAuth {
  userToken: string | null;
  user: AuthUser | null;
  avatarURL: string | null;
  current_client: CurrentClient | null;
  role: AuthRole;
  /** Workspace id → the module code last chosen in it. */
  ps_current_channel: Record<string, ModuleCode | string>;
  org: OrgState;
}

export interface AuthState extends PersistedAuth {
  /** Not persisted: false until the stored token has been checked in this tab. */
  isAuth: boolean;
  /** Not persisted: where the sign-in that just succeeded wants to go. */
  signInRedirect: string | null;
  setToken: (token: string) => void;
  setUser: (user: AuthUser, avatarURL?: string | null) => void;
  setAvatarURL: (url: string | null) => void;
  setIsAuth: (value: boolean) => void;
  /** A sign-in succeeded: store token and user, mark the tab signed in and say where to go. */
  signedIn: (token: string, user: AuthUser, avatarURL: string | null, destination: string) => void;
  clearSignInRedirect: () => void;
  clear: () => void;
}

export function initialAuth(): PersistedAuth {
  return {
    userToken: null,
    user: null,
    avatarURL: null,
    current_client: null,
    role: { userRole: null, currentEditClientId: null },
    ps_current_channel: {},
    org: { current: null, list: [], param: null },
  };
}

export const useAuthStore = create<AuthState>()(
  persist(
    (set) => ({
      ...initialAuth(),
      isAuth: false,
      signInRedirect: null,
      setToken: (token) => set({ userToken: token }),
      setUser: (user, avatarURL) =>
        set((state) => ({
          user: {
            user_id: user.user_id,
            email: user.email.trim(),
            can_create_client: user.can_create_client,
          },
          avatarURL: avatarURL === undefined ? state.avatarURL : avatarURL,
        })),
      setAvatarURL: (url) => set({ avatarURL: url }),
      setIsAuth: (value) => set({ isAuth: value }),
      signedIn: (token, user, avatarURL, destination) =>
        set({
          userToken: token,
          user: {
            user_id: user.user_id,
            email: user.email.trim(),
            can_create_client: user.can_create_client,
          },
          avatarURL,
          isAuth: true,
          signInRedirect: destination,
        }),
      clearSignInRedirect: () => set({ signInRedirect: null }),
      clear: () => set({ ...initialAuth(), isAuth: false, signInRedirect: null }),
    }),
    {
      name: AUTH_STORAGE_KEY,
      version: 1,
      storage: createJSONStorage(() => window.localStorage),
      partialize: (state): PersistedAuth => ({
        userToken: state.userToken,
        user: state.user,
        avatarURL: state.avatarURL,
        current_client: state.current_client,
        role: state.role,
        ps_current_channel: state.ps_current_channel,
        org: state.org,
      }),
    },
  ),
);

/** Where a signed-in user lands: the current workspace's dashboard, else the portal dashboard. */
export function dashboardPath(): string {
  const client = useAuthStore.getState().current_client;
  return client ? `/ps/${encodeURIComponent(client.id)}/dashboard` : '/ps/dashboard';
}

/** The path remembered by the last relogin, if any (it is forgotten once a page is reached). */
export function rememberedPath(): string | null {
  return window.sessionStorage.getItem(REMEMBERED_PATH_KEY);
}

export function forgetRememberedPath(): void {
  window.sessionStorage.removeItem(REMEMBERED_PATH_KEY);
}

function usable(path: string | null | undefined): string | null {
  const safe = safeRedirectPath(path);
  return safe && !isPublicOnlyPath(pathnameOf(safe)) ? safe : null;
}

/**
 * Where to go once signed in (spec §2, §4): the `path` query when it is a same-origin path,
 * else the path remembered at relogin, else the last page seen in this tab, else the dashboard.
 */
export function signInDestination(pathQuery?: string | null): string {
  return usable(pathQuery) ?? usable(rememberedPath()) ?? usable(lastPage()) ?? dashboardPath();
}

/**
 * Decodes the `exp` claim (seconds since the epoch) of a JWT without verifying it; the server
 * verifies. Returns null for anything that is not a readable JWT with a numeric `exp`.
 */
export function decodeTokenExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
    const json = JSON.parse(atob(padded)) as { exp?: unknown };
    return typeof json.exp === 'number' && Number.isFinite(json.exp) ? json.exp : null;
  } catch {
    return null;
  }
}

/**
 * The relogin event (spec §4): clear all auth state and stored tokens, remember the current path
 * once, remove the workspace's custom stylesheet, and go to the sign-in page with the path to
 * come back to, unless already there.
 */
export function relogin(): void {
  const here = currentPath();
  const onLogin = pathnameOf(here) === '/login';

  const onSharePage = isSharePath(pathnameOf(here));

  useAuthStore.getState().clear();
  // On a share link's page the public view on screen stays: removing its query while its answer
  // is on the way would leave the page waiting for ever. Everything else of the user goes.
  if (onSharePage)
    queryClient.removeQueries({ predicate: (query) => query.getObserversCount() === 0 });
  else queryClient.clear();
  forgetLastPage();
  document.getElementById(CUSTOM_CSS_ID)?.remove();

  // A share link's page (spec §2: a /share/ path is public) stays: the session ends, not the visit.
  if (onLogin || onSharePage) return;
  if (!window.sessionStorage.getItem(REMEMBERED_PATH_KEY)) {
    window.sessionStorage.setItem(REMEMBERED_PATH_KEY, here);
  }
  navigateTo(loginPathFor(here), { replace: true });
}
