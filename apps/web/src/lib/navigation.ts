/**
 * A bridge between code outside React (the API client, the auth store) and the router.
 * app/ registers the data router here; until then the browser location is used.
 */

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

interface Navigator {
  navigate: (to: string, options?: NavigateOptions) => void;
  currentPath: () => string;
}

let navigator: Navigator | null = null;

export function registerNavigator(next: Navigator | null): void {
  navigator = next;
}

function browserPath(): string {
  const { pathname, search, hash } = window.location;
  return `${pathname}${search}${hash}`;
}

/** The current in-app path with its query and hash, for example `/ps/profile?tab=1`. */
export function currentPath(): string {
  return navigator ? navigator.currentPath() : browserPath();
}

export function navigateTo(to: string, options?: NavigateOptions): void {
  if (navigator) {
    navigator.navigate(to, options);
    return;
  }
  if (options?.replace) window.history.replaceState(options.state ?? null, '', to);
  else window.history.pushState(options?.state ?? null, '', to);
}

/** Path part of an in-app path: `/ps/profile?x=1#y` → `/ps/profile`. */
export function pathnameOf(path: string): string {
  const end = path.search(/[?#]/);
  return end === -1 ? path : path.slice(0, end);
}

/**
 * Accepts only same-origin absolute paths (one leading slash, no scheme, no `//host`,
 * no backslash tricks) and returns null for anything else.
 */
export function safeRedirectPath(value: string | null | undefined): string | null {
  if (!value) return null;
  if (!value.startsWith('/')) return null;
  if (value.startsWith('//') || value.startsWith('/\\')) return null;
  // Reject control characters: browsers strip them, which can turn `/\t/evil` into `//evil`.
  for (let i = 0; i < value.length; i += 1) if (value.charCodeAt(i) < 0x20) return null;
  try {
    const url = new URL(value, 'http://portolan.invalid');
    if (url.origin !== 'http://portolan.invalid') return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/** The helper route of the default container (spec §1 "redirect (helper)"). */
export const REDIRECT_ROUTE = '/redirect';

/** Where `/redirect?path=` goes on: a safe in-app path, or the dashboard for anything else. */
export function redirectTarget(value: string | null | undefined): string {
  const safe = safeRedirectPath(value);
  if (!safe) return '/ps/dashboard';
  const pathname = pathnameOf(safe).replace(/\/+$/, '') || '/';
  // Never to itself (a loop) nor to a page a signed-in user is sent away from.
  if (pathname === REDIRECT_ROUTE || isPublicOnlyPath(pathname)) return '/ps/dashboard';
  return safe;
}

/**
 * A hop through `/redirect` to `path`: re-entering the page on screen this way mounts it afresh
 * (navigating to the same path would leave it as it is).
 */
export function hopPath(path: string): string {
  return `${REDIRECT_ROUTE}?path=${encodeURIComponent(path)}`;
}

/** The sign-in page with the path to come back to, exactly `/login?path=%2Fps%2Fdashboard`. */
export function loginPathFor(wanted: string): string {
  return `/login?path=${encodeURIComponent(wanted)}`;
}

/** Pages a signed-in user is sent away from (spec §2). */
export const PUBLIC_ONLY_PATHS: readonly string[] = [
  '/login',
  '/register',
  '/forgot-password',
  '/google-auth',
];

export function isPublicOnlyPath(pathname: string): boolean {
  return PUBLIC_ONLY_PATHS.includes(pathname.replace(/\/+$/, '') || '/');
}

/** Any path containing /share/ is public and needs no sign-in (spec §2). */
export function isSharePath(pathname: string): boolean {
  return pathname.includes('/share/');
}

let lastProtectedPage: string | null = null;

/** Records the last signed-in page this tab showed (the "history" a signed-in user returns to). */
export function recordPage(path: string): void {
  lastProtectedPage = path;
}

export function lastPage(): string | null {
  return lastProtectedPage;
}

export function forgetLastPage(): void {
  lastProtectedPage = null;
}
