// Helpers for specs about a signed-in browser: one shared account per worker, signing in (with a
// real session token put in place, or through the form for the specs of signing in), and reading
// or revoking the session token the web app keeps in localStorage.
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { createActiveUser } from './accounts.ts';
import { test as base } from './fixtures.ts';
import { Mailbox } from './mailbox.ts';
import { expectDashboard, fillSignIn, type NewUser } from './pages.ts';
import { currentRun } from './run.ts';

/** localStorage key of the web app's persisted auth state (apps/web/src/lib/auth-store.ts). */
export const AUTH_STORAGE_KEY = 'auth';

/**
 * `account`: one active account per worker, for specs that only need to be signed in (a new one
 * per test would only cost time). Sharing is safe for tests that only end their own session
 * (logout, revocation); a test that changes the password or resets it (which ends every session
 * of the user) must make its own account.
 */
export const test = base.extend<object, { account: NewUser }>({
  account: [
    async ({ playwright }, use) => {
      const request = await playwright.request.newContext({ baseURL: currentRun().baseURL });
      let user: NewUser;
      try {
        user = await createActiveUser(request, new Mailbox(currentRun().mailDir), 'shared');
      } finally {
        await request.dispose();
      }
      await use(user);
    },
    { scope: 'worker' },
  ],
});

/** Sign in through the form of /login and wait for the Portal Dashboard (specs of signing in). */
export async function signInThroughForm(page: Page, user: Pick<NewUser, 'email' | 'password'>) {
  await page.goto('/login');
  await fillSignIn(page, user.email, user.password);
  await expectDashboard(page);
}

/**
 * Signed in without the form: a real session from the API (POST /v1/rest-auth/app/login/ and
 * GET /v1/rest-auth/user/, from the test's own address), put where the web app persists it
 * (localStorage `auth`, the zustand `persist` shape of apps/web/src/lib/auth-store.ts, as
 * scripts/lighthouse.ts does) before the page's first script runs, then `path` opened: the
 * Portal Dashboard by default, awaited. Only the first document of the page gets the token, so a
 * test that logs out stays logged out. The specs OF signing in use signInThroughForm.
 */
export async function signIn(
  page: Page,
  user: Pick<NewUser, 'email' | 'password'>,
  path = DASHBOARD_PATH,
) {
  const login = await page.request.post('/v1/rest-auth/app/login/', {
    data: { email: user.email, password: user.password },
  });
  expect(login.status(), await login.text()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const me = await page.request.get('/v1/rest-auth/user/', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(me.status(), await me.text()).toBe(200);
  const { user_id, email, can_create_client } = (await me.json()) as PersistedUser;
  const persisted = JSON.stringify({
    state: {
      userToken: token,
      user: { user_id, email, can_create_client },
      avatarURL: null,
      current_client: null,
      role: { userRole: null, currentEditClientId: null },
      ps_current_channel: {},
      org: { current: null, list: [], param: null },
    },
    version: 1,
  });
  await page.addInitScript(
    ({ key, value, once }) => {
      if (window.sessionStorage.getItem(once)) return;
      window.sessionStorage.setItem(once, '1');
      window.localStorage.setItem(key, value);
    },
    { key: AUTH_STORAGE_KEY, value: persisted, once: `e2e.session-placed.${token.slice(-12)}` },
  );
  await page.goto(path);
  if (path === DASHBOARD_PATH) await expectDashboard(page);
}

const DASHBOARD_PATH = '/ps/dashboard';
interface PersistedUser {
  user_id: string;
  email: string;
  can_create_client: boolean;
}

/** The session token the web app stored (localStorage `auth`, zustand's `{state: {userToken}}`). */
export async function storedToken(page: Page): Promise<string | null> {
  return page.evaluate((key) => {
    const raw = window.localStorage.getItem(key);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { state?: { userToken?: string | null } };
    return parsed.state?.userToken ?? null;
  }, AUTH_STORAGE_KEY);
}

/** Like storedToken, but fails when there is none. */
export async function requireStoredToken(page: Page): Promise<string> {
  const token = await storedToken(page);
  expect(token, `no token in localStorage "${AUTH_STORAGE_KEY}"`).toBeTruthy();
  return token!;
}

/** The `exp` claim (seconds since the epoch) of a JWT, unverified. */
export function tokenExpiry(token: string): number {
  const payload = token.split('.')[1] ?? '';
  const { exp } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
    exp?: unknown;
  };
  if (typeof exp !== 'number') throw new Error(`token without a numeric exp: ${token}`);
  return exp;
}

/** Ends a session on the server (POST /v1/rest-auth/logout/ with its token). */
export async function revokeSession(request: APIRequestContext, token: string): Promise<void> {
  const res = await request.post('/v1/rest-auth/logout/', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Whether the server accepts a token (GET /v1/rest-auth/user/): the HTTP status. */
export async function userStatusWith(request: APIRequestContext, token: string): Promise<number> {
  const res = await request.get('/v1/rest-auth/user/', {
    headers: { Authorization: `Bearer ${token}` },
  });
  return res.status();
}

/** Log out through the avatar menu of the header. */
export async function logoutViaMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/**
 * A toast must sit in Mantine's top-centre notifications container (the `data-position`
 * attribute Mantine sets on each container), horizontally centred, near the top but below the
 * page's header (the app shell's header, or the logo of the public pages), and over none of the
 * header's controls, the breadcrumbs' links nor (signed in) the first line of the page's h1.
 */
export async function expectTopCentre(page: Page, toast: Locator): Promise<void> {
  await expect(
    page.locator('[data-position="top-center"]').filter({ has: toast }),
    'the toast is in the top-centre notifications container',
  ).toHaveCount(1);
  const viewport = page.viewportSize();
  expect(viewport, 'the page has a viewport').not.toBeNull();
  const banner = page.getByRole('banner');
  await expect(banner, 'the page has one header').toHaveCount(1);

  // Measured once the enter transition is over: the box no longer moves.
  let box: Box | null = null;
  await expect
    .poll(async () => {
      const before = await toast.boundingBox();
      await page.waitForTimeout(100);
      box = await toast.boundingBox();
      return before !== null && box !== null && before.y === box.y;
    }, 'the toast has settled')
    .toBe(true);
  const settled = box as Box | null;
  expect(settled, 'the toast has a box').not.toBeNull();
  const centre = settled!.x + settled!.width / 2;
  expect(Math.abs(centre - viewport!.width / 2), 'horizontally centred').toBeLessThanOrEqual(2);

  const visibleBoxes = async (controls: Locator) => {
    const found: { name: string; area: Box }[] = [];
    for (const control of await controls.all()) {
      if (!(await control.isVisible())) continue;
      const area = await control.boundingBox();
      if (!area) continue;
      const name = (await control.getAttribute('aria-label')) ?? (await control.innerText());
      found.push({ name, area });
    }
    return found;
  };
  const header = await visibleBoxes(banner.locator('a, button'));
  const crumbs = await visibleBoxes(
    page.getByRole('navigation', { name: 'Breadcrumb' }).locator('a'),
  );
  expect(header.length, 'the header has controls').toBeGreaterThan(0);
  for (const { name, area } of [...header, ...crumbs]) {
    expect(overlaps(settled!, area), `the toast covers "${name}"`).toBe(false);
  }
  const headerBottom = Math.max(...header.map(({ area }) => area.y + area.height));
  expect(settled!.y, 'below the header').toBeGreaterThanOrEqual(headerBottom);
  // On a signed-in page, nor over the first line of the page's heading (its text, not the
  // block's full width).
  let top = headerBottom;
  const heading = page.getByRole('heading', { level: 1 }).first();
  const appArea = await page.evaluate(() => document.documentElement.dataset.toastArea === 'app');
  if (appArea && (await heading.isVisible())) {
    const line = await heading.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const first = range.getClientRects()[0];
      return first
        ? { x: first.x, y: first.y, width: first.width, height: first.height, scrollY }
        : null;
    });
    if (line) {
      expect(overlaps(settled!, line), 'the toast covers the page heading').toBe(false);
      // Near the line's place on the page unscrolled: the toasts' slot stays below it (global.css)
      // when reaching a button low on the page has scrolled the heading away.
      top = Math.max(top, line.y + line.scrollY + line.height);
    }
  }
  expect(settled!.y, 'near the top').toBeLessThan(top + 96);
}
