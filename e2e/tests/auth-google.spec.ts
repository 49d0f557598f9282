// Sign-in with Google, against the local OpenID Connect provider (see support/google.ts).
import { expect, test } from '../support/fixtures.ts';
import { GOOGLE_ACCOUNT } from '../support/google.ts';
import { expectDashboard, pathAndQuery } from '../support/pages.ts';

test('sign in with Google through the provider and back to the wanted page', async ({ page }) => {
  await page.goto('/ps/dashboard');
  await expect(page).toHaveURL(/\/login\?/);
  expect(pathAndQuery(page)).toBe('/login?path=%2Fps%2Fdashboard');

  await page.getByRole('link', { name: 'Sign in with Google' }).click();

  // The provider's own page (the stand-in for Google's account chooser).
  await expect(page.getByText(GOOGLE_ACCOUNT.email)).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expectDashboard(page);
  await expect(page.getByText(`Signed in as ${GOOGLE_ACCOUNT.email}`)).toBeVisible();
});
