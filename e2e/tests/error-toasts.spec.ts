// The §8 toasts of the web app: a 500 from the API and a network failure each show their message
// word for word, once until dismissed, with Dismiss and Reload; generic toasts sit at the top
// centre and close after 5 seconds. The failing server is a test double: the browser's requests
// for the signed-in user are intercepted (page.route) and answered with a 500, or aborted.
import type { Page, Route } from '@playwright/test';
import { Messages } from '../../packages/contract/src/messages.ts';
import { expect } from '../support/fixtures.ts';
import { expectTopCentre, signIn, test } from '../support/session.ts';

const USER_URL = '**/v1/rest-auth/user/';

/** Every toast on the page carrying this text (Mantine renders each toast with role="alert"). */
function toastsWith(page: Page, text: string) {
  return page.getByRole('alert').filter({ hasText: text });
}

/** Intercepts GET /v1/rest-auth/user/ with `fail` and counts the intercepted calls. */
async function failUserCalls(page: Page, fail: (route: Route) => Promise<void>) {
  const calls = { count: 0 };
  await page.route(USER_URL, async (route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    calls.count += 1;
    await fail(route);
  });
  return calls;
}

const cases = [
  {
    name: 'a 500 answer',
    message: Messages.serverError,
    other: Messages.networkError,
    // The inline alert names the same cause as the toast.
    reason: 'The server ran into a problem on its side.',
    fail: (route: Route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'INTERNAL_ERROR', message: 'Internal server error' }),
      }),
  },
  {
    name: 'a network failure',
    message: Messages.networkError,
    other: Messages.serverError,
    reason: 'The server could not be reached. Check your internet connection.',
    fail: (route: Route) => route.abort('failed'),
  },
];

for (const { name, message, other, reason, fail } of cases) {
  test(`${name} shows its toast once, word for word, with Dismiss and Reload`, async ({
    page,
    account,
  }) => {
    await signIn(page, account);
    const calls = await failUserCalls(page, fail);
    const toasts = toastsWith(page, message);

    await test.step('the dashboard loads the user and the call fails', async () => {
      await page.reload();
      await expect(page).toHaveURL(/\/ps\/dashboard$/);
      const inline = page.getByRole('alert').filter({ hasText: 'We could not load your profile.' });
      await expect(inline).toBeVisible();
      await expect(inline).toContainText(reason);
      await expect(toasts).toHaveCount(1);
      await expect(toasts.getByText(message, { exact: true })).toBeVisible();
      await expect(toasts.getByRole('button', { name: 'Dismiss', exact: true })).toBeVisible();
      await expect(toasts.getByRole('button', { name: 'Reload', exact: true })).toBeVisible();
      await expectTopCentre(page, toasts);
      await expect(toastsWith(page, other)).toHaveCount(0);
    });

    await test.step('a second failing call (another page) adds no second toast', async () => {
      const before = calls.count;
      await page.getByRole('link', { name: 'My Settings' }).click();
      await expect(page).toHaveURL(/\/ps\/profile$/);
      const inline = page
        .getByRole('alert')
        .filter({ hasText: 'Your profile could not be loaded' });
      await expect(inline).toBeVisible();
      await expect(inline).toContainText(reason);
      expect(calls.count).toBeGreaterThan(before);
      await expect(toasts).toHaveCount(1);
      await expect(page.getByText(message, { exact: true })).toHaveCount(1);
    });

    await test.step('Dismiss closes it; the next failure shows it again, once', async () => {
      await toasts.getByRole('button', { name: 'Dismiss', exact: true }).click();
      await expect(toasts).toHaveCount(0);

      const before = calls.count;
      await page.getByRole('button', { name: 'Try again' }).click();
      await expect.poll(() => calls.count).toBeGreaterThan(before);
      await expect(toasts).toHaveCount(1);
    });

    await test.step('Reload reloads the page', async () => {
      await page.evaluate(() => {
        (window as unknown as { beforeReload?: boolean }).beforeReload = true;
      });
      await toasts.getByRole('button', { name: 'Reload', exact: true }).click();
      await expect
        .poll(() =>
          page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload),
        )
        .toBeUndefined();
      await expect(page).toHaveURL(/\/ps\/profile$/);
    });
  });
}

test('a generic toast shows at the top centre and closes by itself after 5 seconds', async ({
  page,
  account,
}) => {
  await signIn(page, account);
  await page.getByRole('link', { name: 'My Settings' }).click();
  const firstName = page.getByRole('textbox', { name: 'First name', exact: true });
  await firstName.fill(`${account.firstName}-${Date.now().toString(36)}`);
  // How long the toast is in the page, timed in the page itself (a MutationObserver's clock): timed
  // from the test process, the moment it is first seen lags on a loaded machine.
  const message = 'Your profile has been saved.';
  await page.evaluate((text) => {
    const times: { shown?: number; gone?: number } = {};
    (window as unknown as { toastTimes: typeof times }).toastTimes = times;
    const present = () =>
      [...document.querySelectorAll('[role="alert"]')].some((el) => el.textContent?.includes(text));
    new MutationObserver(() => {
      const now = performance.now();
      if (times.shown === undefined) {
        if (present()) times.shown = now;
      } else if (times.gone === undefined && !present()) times.gone = now;
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  }, message);
  const answered = page.waitForResponse(
    (r) => r.request().method() === 'PATCH' && new URL(r.url()).pathname === '/v1/rest-auth/user/',
    { timeout: 10_000 },
  );
  await page.getByRole('button', { name: 'Save changes' }).click();
  expect((await answered).status()).toBe(200);

  const saved = toastsWith(page, message);
  await expect(saved).toBeVisible();
  await expectTopCentre(page, saved);
  // Move the pointer away from the toast: hovering pauses Mantine's auto-close.
  await page.mouse.move(0, page.viewportSize()!.height - 1);
  await expect(saved).toHaveCount(0, { timeout: 15_000 });
  const times = await page.evaluate(
    () => (window as unknown as { toastTimes: { shown?: number; gone?: number } }).toastTimes,
  );
  expect(times.shown, 'the toast was seen coming').toBeDefined();
  expect(times.gone, 'the toast was seen going').toBeDefined();
  const shownFor = times.gone! - times.shown!;
  expect(shownFor, 'shown for about 5 s').toBeGreaterThanOrEqual(4_500);
  expect(shownFor, 'shown for about 5 s').toBeLessThan(8_000);

  // Put the name back for the other tests of this worker's account.
  await firstName.fill(account.firstName);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(toastsWith(page, 'Your profile has been saved.')).toBeVisible();
});
