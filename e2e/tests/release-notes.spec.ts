// Release notes in the browser: the demo owner, a platform administrator (the demo seed grants it,
// as `npm run admin -- grant <email>` would), goes from the header's panel to the management page
// and publishes a note with a live preview; a new user sees the dot on the header's toggle, opens
// the panel and reads the version, the date as MM/DD/YYYY and the note's rich text; the dot goes,
// and stays gone after a reload. The panel and the management pages pass axe.
import type { Page } from '@playwright/test';
import { createActiveUser } from '../support/accounts.ts';
import { DEMO_OWNER } from '../support/demo.ts';
import { expect, expectNoSeriousA11yViolations, test } from '../support/fixtures.ts';
import { signIn } from '../support/session.ts';

const toggle = (page: Page) => page.getByRole('button', { name: /^Release notes/ });
/** The red dot of the toggle (Mantine's Indicator around it). */
const dot = (page: Page) =>
  page
    .locator('.mantine-Indicator-root', { has: toggle(page) })
    .locator('.mantine-Indicator-indicator');
const panel = (page: Page) => page.getByRole('dialog', { name: 'Release notes' });

test('a platform administrator publishes a release note; a user sees the dot, reads it, and the dot stays gone', async ({
  page,
  browser,
  request,
  mailbox,
}, testInfo) => {
  test.setTimeout(120_000);
  // Unique per run; dated far ahead, so it is the newest note whatever else the run publishes.
  const version = `v9.${Date.now().toString(36)}`;

  await test.step('the administrator goes from the panel to the management page', async () => {
    await signIn(page, DEMO_OWNER);
    await toggle(page).click();
    await expect(panel(page).getByRole('article').first()).toBeVisible();
    await panel(page).getByRole('link', { name: 'Manage release notes' }).click();
    await expect(page).toHaveURL(/\/ps\/release-notes$/);
    await expect(page).toHaveTitle('Release notes | Portolan');
    await expect(page.getByRole('table', { name: 'Release notes' })).toBeVisible();
    await expect(page.getByRole('row', { name: /v1\.7\.4/ })).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo);
  });

  await test.step('publishes a note, with the sanitized preview as it is written', async () => {
    await page.getByRole('link', { name: 'New release note' }).click();
    await expect(page).toHaveURL(/\/ps\/release-notes\/new$/);
    await page.getByRole('textbox', { name: /^Version/ }).fill(version);
    await page.getByLabel(/^Release date/).fill('2030-01-05');
    await page
      .getByRole('textbox', { name: /^Release note/ })
      .fill(
        '<h3>Transit</h3><p>Customs holds now show on the <strong>shipment timeline</strong>.</p>' +
          '<ul><li>Faster container search</li></ul>' +
          '<p><a href="https://example.com/changelog">Full changelog</a>' +
          '<img src="x" onerror="document.title=\'owned\'"></p>',
      );
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect(preview.locator('strong')).toHaveText('shipment timeline');
    await expect(preview.locator('img')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, testInfo);

    await page.getByRole('button', { name: 'Publish release note' }).click();
    await expect(page.getByText(`Release note ${version} was published.`)).toBeVisible();
    await expect(page).toHaveURL(/\/ps\/release-notes$/);
    const row = page.getByRole('row', { name: new RegExp(version.replace('.', '\\.')) });
    await expect(row).toContainText('01/05/2030');
  });

  const reader = await createActiveUser(request, mailbox, 'reader');
  const context = await browser.newContext();
  const user = await context.newPage();
  try {
    await test.step('a user sees the dot and reads the note in the panel', async () => {
      await signIn(user, reader);
      await expect(toggle(user)).toHaveAccessibleName('Release notes, new release');
      await expect(dot(user)).toHaveCount(1);
      await toggle(user).click();
      const note = panel(user).getByRole('article', { name: version });
      await expect(note).toContainText('01/05/2030');
      await expect(note.getByRole('heading', { name: 'Transit' })).toBeVisible();
      await expect(note.locator('strong')).toHaveText('shipment timeline');
      await expect(note.getByRole('listitem')).toHaveText('Faster container search');
      const link = note.getByRole('link', { name: 'Full changelog' });
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      await expect(note.locator('img')).toHaveCount(0);
      // Only platform administrators are offered the management page.
      await expect(panel(user).getByRole('link', { name: 'Manage release notes' })).toHaveCount(0);
      await expectNoSeriousA11yViolations(user, testInfo);
    });

    await test.step('the dot is gone, and stays gone after a reload', async () => {
      await expect(toggle(user)).toHaveAccessibleName('Release notes');
      await user.keyboard.press('Escape');
      await expect(panel(user)).toHaveCount(0);
      await expect(dot(user)).toHaveCount(0);
      const status = user.waitForResponse(
        (r) => r.url().includes('/v1/release-notes/status/') && r.ok(),
      );
      await user.reload();
      await status;
      await expect(toggle(user)).toHaveAccessibleName('Release notes');
      await expect(dot(user)).toHaveCount(0);
      expect(await user.title()).not.toBe('owned');
    });
  } finally {
    await context.close();
  }
});
