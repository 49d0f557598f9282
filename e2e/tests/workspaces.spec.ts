// Organizations, workspaces and modules around the navigation (issue 7, the web part): a new
// account goes from the empty dashboard to a working workspace; the workspace switch opens the
// module home in a new tab and records ACCESS_WORKSPACE; the channel switch; the guard's rules; a
// module switched off leaves the channel dropdown; a deleted current workspace is forgotten. Every
// new page passes axe. With E2E_SHOTS_DIR set, pages are photographed at 1440 and 390 px.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { createActiveUser } from '../support/accounts.ts';
import { expect, expectNoSeriousA11yViolations, test } from '../support/fixtures.ts';
import { pathAndQuery } from '../support/pages.ts';
import { ownerScene } from '../support/scenes.ts';
import { AUTH_STORAGE_KEY, signIn } from '../support/session.ts';

const SHOTS = process.env.E2E_SHOTS_DIR;

async function shoot(page: Page, name: string, open?: () => Promise<void>) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize() ?? { width: 1440, height: 900 };
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width > 800 ? 900 : 844 });
    await page.waitForTimeout(300);
    if (open) {
      await open();
      await page.waitForTimeout(400);
    }
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: !open });
    if (open) await page.keyboard.press('Escape');
  }
  await page.setViewportSize(size);
}

async function storedAuth(page: Page) {
  return page.evaluate((key) => {
    const raw = window.localStorage.getItem(key);
    return raw
      ? (
          JSON.parse(raw) as {
            state: {
              current_client: { id: string } | null;
              ps_current_channel: Record<string, string>;
              role: { userRole: string | null };
            };
          }
        ).state
      : null;
  }, AUTH_STORAGE_KEY);
}

async function check(page: Page, testInfo: TestInfo) {
  await expectNoSeriousA11yViolations(page, testInfo);
}

test('a new account creates its organization and a workspace from the empty dashboard', async ({
  page,
  request,
  mailbox,
}, testInfo) => {
  const user = await createActiveUser(request, mailbox, 'newcomer');
  await signIn(page, user);
  await expect(page).toHaveURL(/\/ps\/dashboard$/);
  const offer = page.getByRole('region', { name: 'Create your organization' });
  await expect(offer).toBeVisible();
  await check(page, testInfo);
  await shoot(page, 'dashboard-empty');

  await offer.getByRole('link', { name: 'Create your organization' }).click();
  await page.getByRole('textbox', { name: /Organization name/ }).fill('Newcomer Freight');
  await page.getByRole('button', { name: 'Create organization' }).click();
  await page.getByRole('link', { name: 'Add a workspace' }).click();
  await page.getByRole('textbox', { name: /Workspace name/ }).fill('First Harbour');
  await page.getByRole('button', { name: 'Add workspace' }).click();
  await expect(page).toHaveURL(/\/ps\/organization-settings\/[^/]+\/clients$/);

  // Back on the dashboard the workspace is there, and opening it lands in its module.
  await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
  const org = page.getByRole('region', { name: 'Newcomer Freight' });
  await expect(org.getByRole('heading', { level: 3, name: 'First Harbour' })).toBeVisible();
  const popup = page.waitForEvent('popup');
  await org.getByRole('button', { name: 'Open First Harbour in a new tab' }).click();
  const home = await popup;
  await expect(home).toHaveURL(/\/tr\/[^/]+\/home$/);
  await expect(home.getByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();
  await expect(home.getByText('First Harbour', { exact: true }).first()).toBeVisible();
});

test('switching workspace opens its module home in a new tab and records the access', async ({
  page,
  request,
  mailbox,
}, testInfo) => {
  const scene = await ownerScene(request, mailbox);
  await signIn(page, scene.user);
  await check(page, testInfo);
  await shoot(page, 'dashboard');

  await shoot(page, 'workspace-dropdown', async () => {
    await page.getByRole('button', { name: /^Workspace: / }).click();
    await expect(page.getByRole('menuitem', { name: 'Harbour' })).toBeVisible();
  });
  await page.getByRole('button', { name: 'Workspace: none chosen' }).click();
  const groups = page.getByRole('group', { name: 'Acme e2e' });
  await expect(groups.getByRole('menuitem')).toHaveText([
    'Dock',
    'Harbour',
    'Settings of Acme e2e',
  ]);
  const popup = page.waitForEvent('popup');
  await page.getByRole('menuitem', { name: 'Harbour' }).click();
  const home = await popup;
  await expect(home).toHaveURL(new RegExp(`/tr/${scene.harbour}/home$`));
  await expect(home.getByRole('heading', { level: 1, name: '2D Transit' })).toBeVisible();
  await expect(home).toHaveTitle('2D Transit | Portolan');
  await expect(home.getByText(/This page is where the 2D Transit tools plug in/)).toBeVisible();
  await expect(home.getByRole('button', { name: 'Workspace: Harbour' })).toBeVisible();
  await expect(
    home.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Home' }),
  ).toBeVisible();
  await check(home, testInfo);
  await shoot(home, 'module-home');
  await shoot(home, 'channel-dropdown', async () => {
    await home.getByRole('button', { name: /^Module: / }).click();
    await expect(home.getByRole('menuitem', { name: '2D Transit' })).toBeVisible();
  });

  // The first tab made Harbour current too; its organization's log has the access.
  expect((await storedAuth(page))?.current_client?.id).toBe(scene.harbour);
  await expect
    .poll(async () => {
      const res = await request.get(
        `/v1/organizations/${scene.orgId}/activities/?action=ACCESS_WORKSPACE`,
        { headers: { Authorization: `Bearer ${scene.token}` } },
      );
      const body = (await res.json()) as {
        results: { object_id: string; data: { module?: string } }[];
      };
      return body.results.map((a) => `${a.object_id} ${a.data.module}`);
    })
    .toEqual([`${scene.harbour} TR`]);
});

test('the channel dropdown sets the module of the workspace and opens its home', async ({
  page,
  request,
  mailbox,
}) => {
  const scene = await ownerScene(request, mailbox);
  await signIn(page, scene.user);
  // Opened by its address: the workspace becomes current, no channel is remembered yet.
  await page.goto(`/ps/${scene.dock}/dashboard`);
  await expect(page.getByRole('button', { name: 'Workspace: Dock' })).toBeVisible();
  await page.getByRole('button', { name: 'Module: No module' }).click();
  await page.getByRole('menuitem', { name: '2D Transit' }).click();
  await expect(page).toHaveURL(new RegExp(`/tr/${scene.dock}/home$`));
  await expect(page.getByRole('button', { name: 'Module: 2D Transit' })).toBeVisible();
  expect((await storedAuth(page))?.ps_current_channel[scene.dock]).toBe('TR');
  expect((await storedAuth(page))?.role.userRole).toBe('OWNER');
});

test.describe('the navigation guard', () => {
  test('an anonymous visit of a module home goes to sign-in with the path', async ({ page }) => {
    await page.goto('/tr/0c000000-0000-4000-8000-000000000001/home');
    await expect(page).toHaveURL(/\/login\?path=/);
    expect(pathAndQuery(page)).toBe(
      `/login?path=${encodeURIComponent('/tr/0c000000-0000-4000-8000-000000000001/home')}`,
    );
  });

  test('a workspace id not among the user’s shows PSErrorPage; a module path without a channel goes to the dashboard', async ({
    page,
    request,
    mailbox,
  }, testInfo) => {
    const scene = await ownerScene(request, mailbox);
    await signIn(page, scene.user);
    const stranger = '0c000000-0000-4000-8000-0000000000ff';
    await page.goto(`/ps/${stranger}/dashboard`);
    await expect(
      page.getByRole('heading', { level: 1, name: 'This workspace is not among yours' }),
    ).toBeVisible();
    expect(pathAndQuery(page)).toBe(`/ps/error?client=${stranger}`);
    await expect(page).toHaveTitle('Workspace Not Found | Portolan');
    await check(page, testInfo);

    await page.goto(`/tr/${scene.harbour}/home`);
    await expect(page).toHaveURL(new RegExp(`/ps/${scene.harbour}/dashboard$`));

    await page.goto(`/ps/organizations/0a000000-0000-4000-8000-0000000000ff/clients/add`);
    await expect(page).toHaveURL(new RegExp(`/ps/${scene.harbour}/dashboard$`));
  });
});

test('a module switched off leaves the channel dropdown; the no-module page offers Manage modules', async ({
  page,
  request,
  mailbox,
}, testInfo) => {
  const scene = await ownerScene(request, mailbox);
  await signIn(page, scene.user);
  await page.goto(`/ps/${scene.harbour}/dashboard`);
  await page.getByRole('button', { name: 'Module: No module' }).click();
  await expect(page.getByRole('menuitem', { name: '2D Transit' })).toBeVisible();
  await page.keyboard.press('Escape');

  const off = await request.patch(`/v1/clients/${scene.harbour}/modules/TR/`, {
    headers: { Authorization: `Bearer ${scene.token}` },
    data: { enabled: false },
  });
  expect(off.ok(), await off.text()).toBe(true);
  await page.reload();
  await page.getByRole('button', { name: 'Module: No module' }).click();
  await expect(page.getByRole('menuitem', { name: 'No module is enabled' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: '2D Transit' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  await page.goto(`/ps/${scene.harbour}/no-module`);
  await expect(
    page.getByRole('heading', { level: 1, name: 'No module is active in Harbour' }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Manage modules' })).toHaveAttribute(
    'href',
    `/ps/client-settings/${scene.harbour}/client-module`,
  );
  await check(page, testInfo);
  await shoot(page, 'no-module');
});

test('deleting the current workspace clears it', async ({ page, request, mailbox }) => {
  const scene = await ownerScene(request, mailbox);
  await signIn(page, scene.user);
  await page.goto(`/ps/${scene.dock}/dashboard`);
  await expect(page.getByRole('button', { name: 'Workspace: Dock' })).toBeVisible();
  await page.getByRole('button', { name: 'Module: No module' }).click();
  await page.getByRole('menuitem', { name: '2D Transit' }).click();
  await expect(page).toHaveURL(new RegExp(`/tr/${scene.dock}/home$`));

  const gone = await request.delete(`/v1/organizations/${scene.orgId}/clients/${scene.dock}/`, {
    headers: { Authorization: `Bearer ${scene.token}` },
  });
  expect(gone.ok(), await gone.text()).toBe(true);
  await page.goto('/ps/dashboard');
  await expect(page.getByRole('button', { name: 'Workspace: none chosen' })).toBeVisible();
  const state = await storedAuth(page);
  expect(state?.current_client).toBeNull();
  expect(state?.role.userRole).toBeNull();
  expect(state?.ps_current_channel[scene.dock]).toBeUndefined();
  await expect(page.getByRole('heading', { level: 3, name: 'Dock' })).toHaveCount(0);
});

test.describe('the navigation guard, with two modules on', () => {
  test('the root goes to the current workspace dashboard; a module path of another enabled module becomes the channel; one not on goes to the dashboard', async ({
    page,
    request,
    mailbox,
  }) => {
    const scene = await ownerScene(request, mailbox);
    const auth = { Authorization: `Bearer ${scene.token}` };
    // Precise Financial (PF) on beside 2D Transit in Harbour.
    const app = await request.post(
      `/v1/organizations/${scene.orgId}/clients/${scene.harbour}/apps/precise_financial/`,
      { headers: auth, data: { enabled: true } },
    );
    expect(app.ok(), await app.text()).toBe(true);
    await signIn(page, scene.user);

    await page.goto(`/ps/${scene.harbour}/dashboard`);
    await page.getByRole('button', { name: 'Module: No module' }).click();
    await page.getByRole('menuitem', { name: '2D Transit' }).click();
    await expect(page).toHaveURL(new RegExp(`/tr/${scene.harbour}/home$`));

    await page.goto('/');
    await expect(page).toHaveURL(new RegExp(`/ps/${scene.harbour}/dashboard$`));

    await page.goto(`/pf/${scene.harbour}/home`);
    await expect(page).toHaveURL(new RegExp(`/pf/${scene.harbour}/home$`));
    await expect(page.getByRole('button', { name: 'Module: Precise Financial' })).toBeVisible();
    expect((await storedAuth(page))?.ps_current_channel[scene.harbour]).toBe('PF');

    // SKUFlex is not on in Harbour.
    await page.goto(`/skuf/${scene.harbour}/home`);
    await expect(page).toHaveURL(new RegExp(`/ps/${scene.harbour}/dashboard$`));
    expect((await storedAuth(page))?.ps_current_channel[scene.harbour]).toBe('PF');
  });
});
