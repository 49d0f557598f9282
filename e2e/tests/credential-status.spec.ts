// The marketplace-seller credential alert (spec §2, issue 11): the app server asks the local fake
// checker (support/credential-fake.ts, CREDENTIAL_CHECK_URL); a workspace whose check failed shows
// the checker's message on its pages, in an alert that stays dismissed for the browser session;
// a workspace whose check passed shows none. The page with the alert passes axe.
import type { Page } from '@playwright/test';
import { setCredentialStatus } from '../support/credential-fake.ts';
import { expect, expectNoSeriousA11yViolations, test } from '../support/fixtures.ts';
import { ownerScene } from '../support/scenes.ts';
import { signIn } from '../support/session.ts';

const TITLE = 'The marketplace-seller credential check failed';
const MESSAGE =
  'The Amazon seller token of Harbour expired on 03/01/2027. Reconnect it in Seller Central.';

/** Opens a path and waits for the workspace's credential status to arrive in the page. */
async function openAndAwaitStatus(page: Page, path: string, clientId: string, reload = false) {
  const answered = page.waitForResponse(
    (r) => new URL(r.url()).pathname === `/v1/clients/${clientId}/credential-status/`,
  );
  if (reload) await page.reload();
  else await page.goto(path);
  const response = await answered;
  expect(response.status()).toBe(200);
  return (await response.json()) as { is_valid: boolean; message: string | null };
}

test('a failed credential check shows its message on the workspace pages until dismissed', async ({
  page,
  request,
  mailbox,
  browser,
}, testInfo) => {
  const scene = await ownerScene(request, mailbox);
  await setCredentialStatus(request, scene.harbour, { is_valid: false, message: MESSAGE });
  await signIn(page, scene.user);
  const alert = page.getByRole('alert').filter({ hasText: TITLE });

  // Outside a workspace: no alert.
  await expect(page).toHaveURL(/\/ps\/dashboard$/);
  await expect(alert).toHaveCount(0);

  expect(await openAndAwaitStatus(page, `/ps/${scene.harbour}/dashboard`, scene.harbour)).toEqual({
    is_valid: false,
    message: MESSAGE,
  });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText(MESSAGE);

  // On the module's home too (inside the app); the page with the alert passes axe.
  await page.getByRole('button', { name: /^Module:/ }).click();
  await page.getByRole('menuitem', { name: '2D Transit' }).click();
  await expect(page).toHaveURL(new RegExp(`/tr/${scene.harbour}/home$`));
  await expect(page.getByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();
  await expect(alert).toContainText(MESSAGE);
  await expectNoSeriousA11yViolations(page, testInfo);

  // Dismissed, it stays gone for this session: after a reload, and back on the dashboard.
  await alert.getByRole('button', { name: 'Dismiss the credential alert' }).click();
  await expect(alert).toHaveCount(0);
  await openAndAwaitStatus(page, '', scene.harbour, true);
  await expect(page.getByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();
  // The answer is in; give the page a moment to render what it would.
  await page.waitForTimeout(300);
  await expect(alert).toHaveCount(0);
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Dashboard' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/ps/${scene.harbour}/dashboard$`));
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();
  await expect(alert).toHaveCount(0);

  // A workspace whose check passed: no alert.
  expect(await openAndAwaitStatus(page, `/ps/${scene.dock}/dashboard`, scene.dock)).toEqual({
    is_valid: true,
    message: null,
  });
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();
  await page.waitForTimeout(300);
  await expect(alert).toHaveCount(0);

  // Another browser session sees the failure again.
  const context = await browser.newContext();
  try {
    const other = await context.newPage();
    await signIn(other, scene.user);
    await other.goto(`/ps/${scene.harbour}/dashboard`);
    const again = other.getByRole('alert').filter({ hasText: TITLE });
    await expect(again).toBeVisible();
    await expect(again).toContainText(MESSAGE);
  } finally {
    await context.close();
  }
});
