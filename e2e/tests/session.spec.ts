// The session rules of the web app (spec §4) against the real server: a logout in one tab logs out
// the others, a token the server no longer accepts leads to /login?path=… and back after signing
// in, and the token check refreshes a token with 180 minutes or less left (and logs out when the
// refresh is refused).
import type { Request } from '@playwright/test';
import { expect } from '../support/fixtures.ts';
import { expectDashboard, fillSignIn, pathAndQuery } from '../support/pages.ts';
import {
  logoutViaMenu,
  requireStoredToken,
  revokeSession,
  signInThroughForm,
  storedToken,
  test,
  userStatusWith,
} from '../support/session.ts';

const REFRESH_PATH = '/v1/rest-auth/app/jwt-refresh/';

test('a logout in one tab logs out a second tab of the same browser', async ({
  context,
  account,
  request,
}) => {
  const first = await context.newPage();
  await signInThroughForm(first, account);
  const token = await requireStoredToken(first);

  // The second tab shares localStorage, so it is signed in too.
  const second = await context.newPage();
  await second.goto('/ps/dashboard');
  await expectDashboard(second);

  await logoutViaMenu(first);
  await expect(first).toHaveURL(/\/login\?/);
  expect(pathAndQuery(first)).toBe('/login?path=%2Fps%2Fdashboard');

  // The second tab follows on its own (the storage event), without a reload by the test.
  await expect(second).toHaveURL(/\/login\?/);
  expect(pathAndQuery(second)).toBe('/login?path=%2Fps%2Fdashboard');
  await expect(second.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  expect(await storedToken(second)).toBeNull();

  // The logout ended the session on the server too.
  expect(await userStatusWith(request, token)).toBe(401);
});

test('a token revoked mid-use leads to /login?path=… and back to the page after signing in', async ({
  page,
  account,
}) => {
  // The billing reads of spec §4 go 3 s after the first signed-in page: they are waited for, so
  // that the save below is the next call (one of them would otherwise meet the ended session).
  const billingRead = (path: string) =>
    page
      .waitForRequest((r) => new URL(r.url()).pathname.startsWith(path))
      .then((request) => request.response());
  const billingReads = Promise.all([
    billingRead('/v1/me/organizations/and/subscriptions/'),
    billingRead('/v1/plans/service/config/'),
  ]);
  await signInThroughForm(page, account);
  await page.getByRole('link', { name: 'My Settings' }).click();
  await expect(page).toHaveURL(/\/ps\/profile$/);
  const firstName = page.getByRole('textbox', { name: 'First name', exact: true });
  await expect(firstName).toBeVisible();
  await billingReads;

  // The session ends on the server while the page is open (as when it expires or is revoked).
  await revokeSession(page.request, await requireStoredToken(page));

  // The next call of the UI gets 401: the app signs out and asks to sign in again.
  await firstName.fill(`${account.firstName} Revoked`);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page).toHaveURL(/\/login\?/);
  expect(pathAndQuery(page)).toBe('/login?path=%2Fps%2Fprofile');
  expect(await storedToken(page)).toBeNull();

  await fillSignIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/ps\/profile$/);
  await expect(page).toHaveTitle(/My Settings/);
  // The change made with the dead token was not saved.
  await expect(firstName).toHaveValue(account.firstName);
});

test('a stored token the server refuses at page load leads to /login?path=… and back', async ({
  page,
  account,
}) => {
  await signInThroughForm(page, account);
  await page.goto('/ps/profile');
  await expect(page.getByRole('heading', { name: 'My Settings', level: 1 })).toBeVisible();
  await revokeSession(page.request, await requireStoredToken(page));

  await page.reload();
  await expect(page).toHaveURL(/\/login\?/);
  expect(pathAndQuery(page)).toBe('/login?path=%2Fps%2Fprofile');

  await fillSignIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/ps\/profile$/);
  await expect(page.getByRole('heading', { name: 'My Settings', level: 1 })).toBeVisible();
});

test.describe('token refresh', () => {
  test('a token with more than 180 minutes left is used as it is', async ({ page, account }) => {
    await signInThroughForm(page, account);
    const token = await requireStoredToken(page);
    const refreshes: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === REFRESH_PATH) refreshes.push(r.url());
    });

    // The token check runs at start, before the page asks for the user: once the user has been
    // loaded, a refresh would already have been sent.
    const userLoaded = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/v1/rest-auth/user/' && r.status() === 200,
      { timeout: 10_000 },
    );
    await page.reload();
    await userLoaded;
    await expectDashboard(page);
    expect(refreshes).toEqual([]);
    expect(await storedToken(page)).toBe(token);
  });

  test('with 180 minutes or less left the token is refreshed at start and every 5 minutes; a refused refresh logs out', async ({
    page,
    account,
  }) => {
    // Tokens live 12 hours. The browser's clock runs 10 hours ahead of the server's, so every
    // token the server issues has about 120 minutes left as far as the web app can tell.
    await page.clock.install({ time: Date.now() + 10 * 60 * 60_000 });
    await signInThroughForm(page, account);
    const signedInToken = await requireStoredToken(page);

    const refreshed = () =>
      page.waitForResponse((r) => new URL(r.url()).pathname === REFRESH_PATH, {
        timeout: 10_000,
      });
    // The API calls in flight (the notification stream, open for good, aside): a jump of the
    // clock sets off the page's background reads, and one of them still under way when the
    // session is revoked would meet the 401 first and log out without the refresh.
    const inFlight = new Set<Request>();
    const isApiCall = (r: Request) => {
      const { pathname } = new URL(r.url());
      return pathname.startsWith('/v1/') && pathname !== '/v1/user/notification/stream/';
    };
    page.on('request', (r) => isApiCall(r) && inFlight.add(r));
    page.on('requestfinished', (r) => inFlight.delete(r));
    page.on('requestfailed', (r) => inFlight.delete(r));
    const apiQuiet = () =>
      expect
        .poll(async () => {
          if (inFlight.size > 0) return false;
          await new Promise((resolve) => setTimeout(resolve, 300));
          return inFlight.size === 0;
        })
        .toBe(true);

    const atStartToken = await test.step('at start (a reload)', async () => {
      const response = refreshed();
      await page.reload();
      expect((await response).status()).toBe(200);
      await expectDashboard(page);
      await expect.poll(() => storedToken(page)).not.toBe(signedInToken);
      const token = await requireStoredToken(page);
      // The new token is the session's own: the server accepts it.
      expect(await userStatusWith(page.request, token)).toBe(200);
      return token;
    });

    const laterToken = await test.step('at the 5-minute check', async () => {
      const response = refreshed();
      await page.clock.fastForward('05:00');
      expect((await response).status()).toBe(200);
      await expect.poll(() => storedToken(page)).not.toBe(atStartToken);
      await expectDashboard(page);
      return requireStoredToken(page);
    });

    await test.step('a refused refresh logs out', async () => {
      await apiQuiet();
      await revokeSession(page.request, laterToken);
      const response = refreshed();
      await page.clock.fastForward('05:00');
      expect((await response).status()).toBe(401);
      await expect(page).toHaveURL(/\/login\?/);
      expect(pathAndQuery(page)).toBe('/login?path=%2Fps%2Fdashboard');
      expect(await storedToken(page)).toBeNull();
    });
  });
});
