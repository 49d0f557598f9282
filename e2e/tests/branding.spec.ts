// Workspace branding (spec §3 "Seller settings", §2 "a custom stylesheet", issue 11): an owner sets
// a header logo and a stylesheet on Harbour in its settings; a hostile stylesheet is refused with
// the server's message on the field. While Harbour is current the stylesheet styles the page (the
// header's colour, read back with getComputedStyle) and its logo sits in the header; switching to
// Dock removes both, coming back applies them, and after logout and a new sign-in nothing is
// applied until Harbour is current again. The Branding page and a branded page pass axe.
// Issue 18: the stylesheet is a bare `header { … }`, yet it reaches the page's header only, never
// a dialog's title bar (the release notes drawer); the page previews a stylesheet before saving
// and warns of text that contrasts below 4.5:1.
import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, test } from '../support/fixtures.ts';
import { fillSignIn, type NewUser } from '../support/pages.ts';
import { ownerScene } from '../support/scenes.ts';
import { logoutViaMenu, signIn } from '../support/session.ts';

/** A 1×1 PNG. */
const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
// Light enough that the header's text keeps its contrast (the branded page passes axe too).
const BRAND_RGB = 'rgb(255, 236, 153)';
const STYLESHEET = `/* Harbour's colours */\nheader {\n  background-color: ${BRAND_RGB};\n}\n`;
const LOW_CONTRAST = 'header { color: #ffe3ec; background-color: #e64980; }';
const HOSTILE = 'header { color: red; }\n@import url(https://evil.example/steal.css);';

/** Through the form: the relogin on the same page is part of what the branding test proves. */
async function signInThroughForm(page: Page, user: NewUser, path = '') {
  await page.goto(`/login${path ? `?path=${encodeURIComponent(path)}` : ''}`);
  await fillSignIn(page, user.email, user.password);
}

const styleOf = (page: Page, clientId: string) =>
  page.locator(`head style[data-workspace-css="${clientId}"]`);
const anyWorkspaceStyle = (page: Page) => page.locator('head style[data-workspace-css]');
/** The computed background of the page's header (null on a page without one). */
const headerBackground = (page: Page) =>
  page.evaluate(() => {
    const header = document.querySelector('header');
    return header ? getComputedStyle(header).backgroundColor : null;
  });
const headerLogo = (page: Page, name: string) =>
  page.getByRole('banner').getByRole('img', { name, exact: true });

/** The page shows Harbour's branding: its stylesheet applied, its logo in the header. */
async function expectBranded(page: Page, harbour: string) {
  await expect(styleOf(page, harbour)).toHaveCount(1);
  await expect.poll(() => headerBackground(page)).toBe(BRAND_RGB);
  await expect(headerLogo(page, 'Harbour')).toBeVisible();
}

/** No workspace's branding: no stylesheet element, the header's own colour, no logo. */
async function expectUnbranded(page: Page) {
  await expect(anyWorkspaceStyle(page)).toHaveCount(0);
  await expect.poll(() => headerBackground(page)).not.toBe(BRAND_RGB);
  await expect(page.getByRole('banner').getByRole('img', { name: 'Harbour' })).toHaveCount(0);
}

test('a workspace’s logo and stylesheet apply while it is current, and go on a switch and on relogin', async ({
  page,
  request,
  mailbox,
}, testInfo) => {
  const scene = await ownerScene(request, mailbox);
  await signIn(page, scene.user);
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();

  // The Branding tab of Harbour's settings.
  await page.goto(`/ps/client-settings/${scene.harbour}/client-detail`);
  await page.getByRole('link', { name: 'Branding' }).click();
  await expect(page).toHaveURL(`/ps/client-settings/${scene.harbour}/client-branding`);
  await expect(page).toHaveTitle('Workspace Branding | Portolan');
  const css = page.getByRole('textbox', { name: 'Custom stylesheet (CSS)' });
  await expect(css).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo);

  // A hostile stylesheet is refused, with what and where, on the field; nothing is saved.
  await css.fill(HOSTILE);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(
    page.getByText(
      'Line 2: @import is not allowed: a workspace stylesheet cannot load another one. Put the rules here instead.',
    ),
  ).toBeVisible();
  await expect(css).toHaveAttribute('aria-invalid', 'true');
  await expectNoSeriousA11yViolations(page, testInfo);
  const stored = await request.get(`/v1/clients/${scene.harbour}/seller-settings/`, {
    headers: { Authorization: `Bearer ${scene.token}` },
  });
  expect(await stored.json()).toEqual({
    default_client_header_logo: null,
    custom_css: '',
    scoped_css: '',
  });

  // The preview applies what is typed to a sample of the workspace's regions, and warns of text
  // that is hard to read, before anything is saved.
  const preview = page.getByRole('img', { name: 'Preview' });
  await css.fill(LOW_CONTRAST);
  await expect(page.getByText('Text may be hard to read')).toBeVisible();
  await expect(page.getByText(/#ffe3ec on #e64980 is 3\.1:1/)).toBeVisible();
  await expect
    .poll(() => preview.locator('header').evaluate((h) => getComputedStyle(h).backgroundColor))
    .toBe('rgb(230, 73, 128)');
  // Only the sample: the settings page's own header keeps its colour.
  expect(await headerBackground(page)).not.toBe('rgb(230, 73, 128)');
  await testInfo.attach('branding-preview-warning', {
    body: await page.screenshot({ fullPage: true }),
    contentType: 'image/png',
  });

  // The logo (uploaded at once) and a good stylesheet are saved.
  await page.locator('input[type="file"]').setInputFiles({
    name: 'harbour.png',
    mimeType: 'image/png',
    buffer: Buffer.from(PNG_1PX, 'base64'),
  });
  await expect(page.getByRole('img', { name: 'Header logo of Harbour' })).toBeVisible();
  await css.fill(STYLESHEET);
  await expect(css).not.toHaveAttribute('aria-invalid');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('The branding has been saved.')).toBeVisible();

  // Harbour current: branded, and the branded page passes axe.
  await page.goto(`/ps/${scene.harbour}/dashboard`);
  await expect(page.getByRole('button', { name: 'Workspace: Harbour' })).toBeVisible();
  await expectBranded(page, scene.harbour);
  // Applied as the API scoped it: under the app shell's regions only.
  expect(await styleOf(page, scene.harbour).textContent()).toBe(
    `[data-workspace-style] header{background-color:${BRAND_RGB.replace(/, /g, ',')}}`,
  );
  // A dialog's title bar is a <header> too, outside those regions: the stylesheet never reaches it.
  await page.getByRole('button', { name: /^Release notes/ }).click();
  const drawer = page.getByRole('dialog', { name: 'Release notes' });
  await expect(drawer).toBeVisible();
  expect(
    await drawer.locator('header').evaluate((h) => getComputedStyle(h).backgroundColor),
  ).not.toBe(BRAND_RGB);
  await page.getByRole('button', { name: 'Close release notes' }).click();
  await expect(drawer).toHaveCount(0);
  // Still current on its settings pages: the Branding page, branded, passes axe.
  await page.goto(`/ps/client-settings/${scene.harbour}/client-branding`);
  await expect(css).toHaveValue(STYLESHEET);
  await expectBranded(page, scene.harbour);
  await expectNoSeriousA11yViolations(page, testInfo);
  // On a page of no workspace of its own (My Settings), Harbour stays current and branded.
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'My Settings' })
    .click();
  await expect(page).toHaveURL(/\/ps\/profile$/);
  await expectBranded(page, scene.harbour);

  // Switching to Dock opens it in a new tab, and makes it current here too: in both tabs
  // Harbour's branding is gone (in this one without a reload).
  const toDock = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Workspace: Harbour' }).click();
  await page.getByRole('menuitem', { name: 'Dock' }).click();
  const dock = await toDock;
  await expect(dock.getByRole('button', { name: 'Workspace: Dock' })).toBeVisible();
  await expectUnbranded(dock);
  await expect(page.getByRole('button', { name: 'Workspace: Dock' })).toBeVisible();
  await expectUnbranded(page);
  await dock.close();

  // Back to Harbour: applied again, here and in the tab it opens.
  const toHarbour = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Workspace: Dock' }).click();
  await page.getByRole('menuitem', { name: 'Harbour' }).click();
  const harbour = await toHarbour;
  await expect(harbour.getByRole('button', { name: 'Workspace: Harbour' })).toBeVisible();
  await expectBranded(harbour, scene.harbour);
  await harbour.close();
  await expect(page).toHaveURL(/\/ps\/profile$/);
  await expectBranded(page, scene.harbour);

  // Logout: gone at once, on the sign-in page.
  await logoutViaMenu(page);
  await expect(page).toHaveURL(/\/login/);
  await expectUnbranded(page);

  // Signed in again, to a page of no workspace: nothing until Harbour is current again.
  await signInThroughForm(page, scene.user, '/ps/profile');
  await expect(page).toHaveURL(/\/ps\/profile$/);
  await expect(page.getByRole('button', { name: 'Workspace: none chosen' })).toBeVisible();
  await expectUnbranded(page);
  await page.goto(`/ps/${scene.harbour}/dashboard`);
  await expectBranded(page, scene.harbour);
});
