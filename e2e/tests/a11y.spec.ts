// No page of the Authentication issue has a serious or critical axe violation: every public
// auth and status page (with its later steps where they are cheap to reach) and the signed-in
// Portal Dashboard and My Settings.
import type { Page } from '@playwright/test';
import { Messages } from '../../packages/contract/src/messages.ts';
import {
  expect,
  expectNoSeriousA11yViolations,
  strongPassword,
  uniqueEmail,
} from '../support/fixtures.ts';
import { fillRegistration } from '../support/pages.ts';
import { ownerScene } from '../support/scenes.ts';
import { signIn, test } from '../support/session.ts';

interface PublicPage {
  path: string;
  /** The page's h1. */
  heading: string | RegExp;
  /** The document title (route meta + " | Portolan"). */
  title: string;
  /** Something else that must be on the page before it is analysed. */
  ready?: (page: Page) => Promise<void>;
}

const publicPages: PublicPage[] = [
  { path: '/login', heading: 'Sign in to Portolan', title: 'Sign in' },
  { path: '/register', heading: 'Create your account', title: 'Create your account' },
  { path: '/forgot-password', heading: 'Reset your password', title: 'Reset your password' },
  {
    path: '/reset-password?token=some-reset-token',
    heading: 'Choose a new password',
    title: 'Choose a new password',
  },
  {
    path: '/reset-password',
    heading: 'Choose a new password',
    title: 'Choose a new password',
    ready: (page) =>
      expect(page.getByRole('alert')).toContainText(
        'This link is incomplete: it has no reset token.',
      ),
  },
  {
    path: '/google-auth?error=access_denied',
    heading: 'Google sign-in did not complete',
    title: 'Signing in with Google',
    ready: (page) =>
      expect(page.getByRole('alert')).toHaveText(
        'Google sign-in was cancelled or refused. Sign in again to continue.',
      ),
  },
  { path: '/error', heading: 'Something went wrong', title: 'Error' },
  { path: '/no-access', heading: Messages.accessDeniedTitle, title: Messages.accessDeniedTitle },
  { path: '/server-error', heading: 'The server ran into a problem', title: 'Server Error' },
  { path: '/not-found', heading: 'Page not found', title: 'Page Not Found' },
  {
    path: '/no-such-page/anywhere',
    heading: 'Page not found',
    title: 'Page Not Found',
    ready: (page) => expect(page.getByText('/no-such-page/anywhere')).toBeVisible(),
  },
];

for (const { path, heading, title, ready } of publicPages) {
  test(`${path} has no serious or critical accessibility violations`, async ({
    page,
  }, testInfo) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page).toHaveTitle(`${title} | Portolan`);
    await ready?.(page);
    await expectNoSeriousA11yViolations(page, testInfo);
  });
}

test('the code steps of /register and /forgot-password have no serious or critical violations', async ({
  page,
}, testInfo) => {
  await test.step('/register, code step', async () => {
    await page.goto('/register');
    await fillRegistration(page, {
      email: uniqueEmail('a11y-register'),
      password: strongPassword(),
      firstName: 'Axe',
      lastName: 'Checker',
    });
    await expect(page.getByRole('textbox', { name: /^Activation code, digit 1/ })).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo);
  });

  await test.step('/forgot-password, code step', async () => {
    await page.goto('/forgot-password');
    // An unknown address gets the same answer as a known one, and no e-mail is sent.
    await page
      .getByRole('textbox', { name: 'E-mail', exact: true })
      .fill(uniqueEmail('a11y-nobody'));
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Enter the code' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo);
  });
});

test('the signed-in Portal Dashboard and My Settings have no serious or critical violations', async ({
  page,
  account,
}, testInfo) => {
  await signIn(page, account);
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo);

  await page.getByRole('link', { name: 'My Settings' }).click();
  await expect(page).toHaveURL(/\/ps\/profile$/);
  await expect(page).toHaveTitle('My Settings | Portolan');
  await expect(page.getByRole('textbox', { name: 'First name', exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo);

  await test.step('with the avatar menu open', async () => {
    await page.getByRole('button', { name: /^Account menu/ }).click();
    await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo);
  });
});

// Issue 18, item 12: signed-in pages with their menus, popovers, drawers and dialogs open, at 1440
// and 390 px. A modal's or drawer's header is not a second banner; the workspace row menu holds
// only menu items; a table wider than the phone scrolls in a focusable region.
for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`at ${viewport.width} px signed-in pages with menus and dialogs open have no serious or critical violations`, async ({
    page,
    request,
    mailbox,
  }, testInfo) => {
    test.setTimeout(120_000);
    const phone = viewport.width < 768;
    await page.setViewportSize(viewport);
    const scene = await ownerScene(request, mailbox);
    await signIn(page, scene.user);
    const axe = () => expectNoSeriousA11yViolations(page, testInfo);
    const banner = page.getByRole('banner');

    await test.step('dashboard with a workspace current: header menus, bell, release notes', async () => {
      await page.goto(`/ps/${scene.harbour}/dashboard`);
      await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();
      await axe();
      if (phone) await page.getByRole('button', { name: 'Toggle navigation' }).click();
      await page.getByRole('button', { name: 'Workspace: Harbour' }).click();
      await expect(page.getByRole('menuitem', { name: 'Dock' })).toBeVisible();
      await axe();
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: /^Module: / }).click();
      await expect(page.getByRole('menuitem', { name: '2D Transit' })).toBeVisible();
      await axe();
      await page.keyboard.press('Escape');
      if (phone) await page.getByRole('button', { name: 'Toggle navigation' }).click();
      await banner.getByRole('button', { name: /^Notifications/ }).click();
      await expect(page.getByRole('dialog', { name: 'Notifications' })).toBeVisible();
      await axe();
      await page.keyboard.press('Escape');
      await banner.getByRole('button', { name: /^Release notes/ }).click();
      await expect(page.getByRole('dialog', { name: 'Release notes' })).toBeVisible();
      await expect(page.getByRole('banner'), 'one banner with the drawer open').toHaveCount(1);
      await axe();
      await page.getByRole('button', { name: 'Close release notes' }).click();
      await banner.getByRole('button', { name: /^Account menu/ }).click();
      await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
      await axe();
      await page.keyboard.press('Escape');
    });

    await test.step('the workspaces page: the row menu and the delete dialog', async () => {
      await page.goto(`/ps/organization-settings/${scene.orgId}/clients`);
      const actions = page.getByRole('button', { name: 'Actions for Harbour' });
      await expect(actions).toBeVisible();
      await axe();
      await actions.click();
      await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeVisible();
      await axe();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expect(page.getByRole('banner'), 'one banner with the modal open').toHaveCount(1);
      await axe();
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
    });

    await test.step('billing: plans (comparison table), add funds, history', async () => {
      const billing = `/ps/organization-settings/${scene.orgId}/billing`;
      await page.goto(`${billing}/plans`);
      await page.getByRole('radiogroup', { name: 'Plans view' }).getByText('Compare').click();
      await expect(page.getByTestId('plan-comparison')).toBeVisible();
      if (phone)
        await expect(page.getByRole('region', { name: 'Plans compared' })).toHaveAttribute(
          'tabindex',
          '0',
        );
      await axe();
      for (const tab of ['fund-packages', 'history']) {
        await page.goto(`${billing}/${tab}`);
        await expect(page.getByRole('navigation', { name: 'Billing' })).toBeVisible();
        await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
        await axe();
      }
    });
  });
}
