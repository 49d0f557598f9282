// The header on a phone (issue 18, item 9): in every header state (no workspace, a workspace, a
// module page; the transit profile's release-notes toggle in each) nothing reaches past the right
// edge at 390 and 360 px, the bell and the account menu (Profile, Logout) stay in the header, and
// the workspace and module dropdowns are in the drawer. With E2E_SHOTS_DIR set, each state is
// photographed at 390, 360 and 1440 px.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { ownerScene, type Scene } from '../support/scenes.ts';
import { fillSignIn } from '../support/pages.ts';

const SHOTS = process.env.E2E_SHOTS_DIR;

interface HeaderState {
  name: string;
  /** Opens the state: a path, or a path and then the module chosen from the drawer. */
  path: (scene: Scene) => string;
  viaChannel?: boolean;
  /** The workspace dropdown's name in this state. */
  workspace: string;
  /** Whether the module dropdown is there (a workspace is current). */
  module: boolean;
}

const STATES: HeaderState[] = [
  {
    name: 'no-workspace',
    path: () => '/ps/dashboard',
    workspace: 'Workspace: none chosen',
    module: false,
  },
  {
    name: 'workspace',
    path: (s) => `/ps/${s.harbour}/dashboard`,
    workspace: 'Workspace: Harbour',
    module: true,
  },
  {
    name: 'module',
    path: (s) => `/ps/${s.harbour}/dashboard`,
    viaChannel: true,
    workspace: 'Workspace: Harbour',
    module: true,
  },
];

/** Every visible element of the page whose box ends past the viewport's right edge. */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    if (document.documentElement.scrollWidth > width)
      found.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    for (const el of document.querySelectorAll('header *')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (box.right > width + 0.5)
        found.push(
          `${el.tagName.toLowerCase()} ${el.getAttribute('aria-label') ?? el.textContent?.slice(0, 40)}: right ${Math.round(box.right)} > ${width}`,
        );
    }
    return found;
  });
}

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize();
  for (const width of [390, 360, 1440]) {
    await page.setViewportSize({ width, height: width > 800 ? 900 : 780 });
    await page.screenshot({ path: path.join(SHOTS, `header-${name}-${width}.png`) });
  }
  if (size) await page.setViewportSize(size);
}

for (const width of [390, 360]) {
  test(`at ${width} px every header state fits, the bell and Logout are in reach`, async ({
    page,
    request,
    mailbox,
  }) => {
    await page.setViewportSize({ width, height: 780 });
    const scene = await ownerScene(request, mailbox);
    await page.goto('/login');
    await fillSignIn(page, scene.user.email, scene.user.password);
    await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();
    const header = page.getByRole('banner');

    for (const state of STATES) {
      await test.step(state.name, async () => {
        await page.goto(state.path(scene));
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        if (state.viaChannel) {
          // A module page is reached through the drawer's module dropdown; the drawer then closes.
          await page.getByRole('button', { name: 'Toggle navigation' }).click();
          await page.getByRole('button', { name: /^Module: / }).click();
          await page.getByRole('menuitem', { name: '2D Transit' }).click();
          await expect(page).toHaveURL(new RegExp(`/tr/${scene.harbour}/home$`));
          await expect(page.getByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();
          await expect(page.getByRole('button', { name: 'Toggle navigation' })).toHaveAttribute(
            'aria-expanded',
            'false',
          );
        }
        const bell = header.getByRole('button', { name: /^Notifications/ });
        const account = header.getByRole('button', { name: /^Account menu/ });
        await expect(bell).toBeInViewport({ ratio: 1 });
        await expect(account).toBeInViewport({ ratio: 1 });
        await expect(header.getByRole('button', { name: /^Release notes/ })).toBeInViewport({
          ratio: 1,
        });
        expect(await overflowing(page)).toEqual([]);
        await shoot(page, state.name);

        // The dropdowns of the workspace and the module are in the drawer.
        const drawer = page.getByRole('navigation', { name: 'Main navigation' });
        await page.getByRole('button', { name: 'Toggle navigation' }).click();
        await expect(drawer.getByRole('button', { name: state.workspace })).toBeInViewport();
        await expect(drawer.getByRole('button', { name: /^Module: / })).toHaveCount(
          state.module ? 1 : 0,
        );
        if (SHOTS)
          await page.screenshot({ path: path.join(SHOTS, `drawer-${state.name}-${width}.png`) });
        await page.getByRole('button', { name: 'Toggle navigation' }).click();
        await expect(drawer.getByRole('button', { name: state.workspace })).not.toBeInViewport();

        await bell.click();
        await expect(page.getByRole('dialog', { name: 'Notifications' })).toBeInViewport();
        await page.keyboard.press('Escape');

        await account.click();
        await expect(page.getByRole('menuitem', { name: 'Profile' })).toBeInViewport({ ratio: 1 });
        await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeInViewport({ ratio: 1 });
        await page.keyboard.press('Escape');
      });
    }

    await header.getByRole('button', { name: /^Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login/);
  });
}
