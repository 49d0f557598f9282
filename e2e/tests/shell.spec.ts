// The frame around the pages: the not-found page keeps the app shell for a signed-in user and is
// the standalone public page for anyone else; on a phone the name fields take the full width and a
// toast sits below the header, once per message, over none of the header's controls.
import type { Page } from '@playwright/test';
import {
  expect,
  expectNoSeriousA11yViolations,
  extractCode,
  strongPassword,
  uniqueEmail,
} from '../support/fixtures.ts';
import { enterCode, fillRegistration } from '../support/pages.ts';
import { expectTopCentre, signIn, test } from '../support/session.ts';

const PHONE = { width: 390, height: 844 };

async function expectStacked(page: Page) {
  const email = page.getByRole('textbox', { name: 'E-mail', exact: true });
  const first = page.getByRole('textbox', { name: 'First name', exact: true });
  const last = page.getByRole('textbox', { name: 'Last name', exact: true });
  await expect(first).toBeVisible();
  const [e, f, l] = await Promise.all([email, first, last].map((x) => x.boundingBox()));
  expect(e && f && l, 'the fields have boxes').toBeTruthy();
  // One under the other, each as wide as the e-mail field.
  expect(l!.y).toBeGreaterThan(f!.y + f!.height - 1);
  expect(Math.abs(f!.width - e!.width), 'first name full width').toBeLessThanOrEqual(1);
  expect(Math.abs(l!.width - e!.width), 'last name full width').toBeLessThanOrEqual(1);
}

test('a signed-in visitor of an unknown path keeps the header and the sidebar', async ({
  page,
  account,
}, testInfo) => {
  await signIn(page, account);
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveTitle('Page Not Found | Portolan');
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Account menu/ })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText(
    'Page not found',
  );
  await expect(page.getByText('/no/such/page', { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo);

  await page.getByRole('link', { name: 'Go to the dashboard', exact: true }).click();
  await expect(page).toHaveURL(/\/ps\/dashboard$/);
});

test('an anonymous visitor of an unknown path gets the standalone page', async ({
  page,
}, testInfo) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Account menu/ })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Go to the home page' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo);
});

// Issue 18, item 16: the welcome toast after activation sits below the dashboard's heading.
for (const viewport of [PHONE, { width: 1440, height: 900 }]) {
  test(`at ${viewport.width} px the activation toast leaves the dashboard heading visible`, async ({
    page,
    mailbox,
  }) => {
    await page.setViewportSize(viewport);
    const user = {
      email: uniqueEmail('welcome'),
      password: strongPassword(),
      firstName: 'Wilhelmina',
      lastName: 'Toast',
    };
    await page.goto('/register');
    await fillRegistration(page, user);
    const mail = await mailbox.waitFor(user.email, { subject: /activation code/i });
    await enterCode(page, extractCode(mail.text));
    await page.getByRole('button', { name: 'Activate account' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Welcome, Wilhelmina' }),
    ).toBeVisible();
    const welcome = page
      .getByRole('alert')
      .filter({ hasText: 'Your account is active. Welcome to Portolan!' });
    await expect(welcome).toHaveCount(1);
    await expectTopCentre(page, welcome);
  });
}

test.describe('on a phone (390 px)', () => {
  test.use({ viewport: PHONE });

  test('the name fields of /register take the full width', async ({ page }) => {
    await page.goto('/register');
    await expectStacked(page);
  });

  test('My Settings: full-width names; a repeated toast shows once, below the header', async ({
    page,
    account,
  }) => {
    await signIn(page, account);
    await page.goto('/ps/profile');
    await expectStacked(page);

    const firstName = page.getByRole('textbox', { name: 'First name', exact: true });
    const save = page.getByRole('button', { name: 'Save changes' });
    const saved = page.getByRole('alert').filter({ hasText: 'Your profile has been saved.' });

    await firstName.fill(`${account.firstName}-a`);
    await save.click();
    await expect(saved).toHaveCount(1);
    await expectTopCentre(page, saved);

    // The same message again while the first is on screen: still one toast.
    await firstName.fill(account.firstName);
    await save.click();
    await expect(save).toBeDisabled();
    await expect(saved).toHaveCount(1);
  });
});

// Spec §2: the sidebar scrollbar's length stays between 40 and 200 px, however long or short the
// sidebar's content is next to its height. Content is added to the sidebar to make both cases.
test('the sidebar scrollbar is between 40 and 200 px long', async ({ page, account }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, account);
  const sidebar = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(sidebar.getByRole('link').first()).toBeVisible();
  const viewport = sidebar.locator('.mantine-ScrollArea-viewport');
  const thumb = sidebar.locator(
    '.mantine-ScrollArea-scrollbar[data-orientation="vertical"] .mantine-ScrollArea-thumb',
  );

  async function thumbLengthWith(extraPx: number) {
    await viewport.evaluate((el, px) => {
      el.querySelector('[data-test-filler]')?.remove();
      const filler = document.createElement('div');
      filler.dataset.testFiller = '';
      filler.style.height = `${px}px`;
      (el.firstElementChild ?? el).appendChild(filler);
    }, extraPx);
    await sidebar.hover();
    await viewport.evaluate((el) => el.scrollBy(0, 1));
    await expect(thumb).toBeVisible();
    return (await thumb.boundingBox())!.height;
  }

  // Barely taller than the sidebar: the thumb would be almost the sidebar's height.
  const viewportHeight = (await viewport.boundingBox())!.height;
  expect(await thumbLengthWith(viewportHeight)).toBeLessThanOrEqual(200);
  expect(await thumbLengthWith(viewportHeight)).toBeGreaterThan(150);
  // Many times taller: the thumb would be a few pixels.
  const long = await thumbLengthWith(viewportHeight * 60);
  expect(long).toBeGreaterThanOrEqual(40);
  expect(long).toBeLessThan(60);
});
