// The support address (spec §1 "Support requests are directed to {email}", issue 11): the run's
// server sets SUPPORT_EMAIL (support/app-server.ts); the footer of the public pages and of the
// signed-in shell, and the error pages, show it as a mailto link.
import type { Locator } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations } from '../support/fixtures.ts';
import { signIn, test } from '../support/session.ts';
import { E2E_SUPPORT_EMAIL } from '../support/support-email.ts';

async function expectSupportLink(scope: Locator) {
  const link = scope.getByRole('link', { name: E2E_SUPPORT_EMAIL });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('href', `mailto:${E2E_SUPPORT_EMAIL}`);
}

test('the public footer and the error pages name the configured support address', async ({
  page,
}, testInfo) => {
  await page.goto('/login');
  const footer = page.getByRole('contentinfo');
  await expect(footer).toContainText(`Support: ${E2E_SUPPORT_EMAIL}`);
  await expectSupportLink(footer);

  for (const [path, heading] of [
    ['/server-error', 'The server ran into a problem'],
    ['/error', 'Something went wrong'],
    ['/no-access', 'Access Denied!'],
    ['/no/such/page', 'Page not found'],
  ] as const) {
    await page.goto(path);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expectSupportLink(main);
    if (path === '/server-error') await expectNoSeriousA11yViolations(page, testInfo);
  }
});

test('the signed-in footer and PSErrorPage name it too', async ({ page, account }, testInfo) => {
  await signIn(page, account);
  await expectSupportLink(page.getByRole('contentinfo'));
  await page.goto('/ps/error');
  const main = page.getByRole('main');
  await expect(
    main.getByRole('heading', { level: 1, name: 'This workspace is not among yours' }),
  ).toBeVisible();
  await expectSupportLink(main);
  await expectNoSeriousA11yViolations(page, testInfo);
});
